import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, loginThroughBrowser, newConfigDir, runCli, type CliOptions } from '../support/cli.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

// taskctl tasks list --updated-since reads the change feed, not listTasks' deprecated updatedSince.

let server: TestServer;
let as: CliOptions;
beforeAll(async () => {
  server = await startServer();
  const { email } = await signedInClient(server);
  as = { configDir: newConfigDir(), server };
  await loginThroughBrowser(server, as.configDir, email);
});
afterAll(async () => {
  await server?.stop();
});

describe('taskctl tasks list --updated-since', () => {
  it('lists the tasks changed since the time, without using the deprecated parameter', async () => {
    const old = await cliJson<{ id: string }>(['tasks', 'add', 'old'], as);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    const fresh = await cliJson<{ id: string }>(['tasks', 'add', 'fresh'], as);
    const done = await cliJson<{ id: string }>(['tasks', 'add', 'done'], as);
    await runCli(['tasks', 'done', done.id], as);

    const listed = await cliJson<{ items: { id: string }[]; nextCursor: null }>(['tasks', 'list', '--updated-since', since], as);
    expect(listed.items.map((task) => task.id).sort()).toEqual([fresh.id, done.id].sort());
    expect(listed.items.map((task) => task.id)).not.toContain(old.id);
    const open = await cliJson<{ items: { id: string }[] }>(['tasks', 'list', '--updated-since', since, '--status', 'open'], as);
    expect(open.items.map((task) => task.id)).toEqual([fresh.id]);

    const table = await runCli(['tasks', 'list', '--updated-since', since], as);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('fresh');
    expect(table.stderr).toContain('--changed-since start');
    // Had it sent updatedSince, the SDK under it would have warned of the deprecation on stderr.
    expect(table.stderr).not.toMatch(/deprecated/i);
  });

  it('refuses --cursor beside it (exit 2)', async () => {
    const run = await runCli(['tasks', 'list', '--updated-since', '2026-01-01', '--cursor', 'abc'], as);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('leave out --cursor');
  });
});
