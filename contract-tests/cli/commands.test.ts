import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, loginThroughBrowser, newConfigDir, runCli, type CliOptions } from '../support/cli.js';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

interface Task {
  id: string;
  title: string;
  status: string;
  priority: number;
  dueAt: string | null;
  labels: string[];
  notes: string | null;
}

let server: TestServer;
let feeds: FakeIcalFeeds;
let as: CliOptions;
beforeAll(async () => {
  [server, feeds] = await Promise.all([startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }), startFakeIcalFeeds()]);
  const { email } = await signedInClient(server);
  as = { configDir: newConfigDir(), server };
  await loginThroughBrowser(server, as.configDir, email);
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close()]);
});

describe('taskctl tasks', () => {
  it('adds, shows, edits, completes and removes a task, with --json printing the API shapes', async () => {
    const added = await cliJson<Task>(['tasks', 'add', 'Write', 'the', 'report', '--priority', '1', '--due', '2030-07-01', '--label', 'work', '--label', 'q3', '--notes', 'draft first'], as);
    expect(added).toMatchObject({ title: 'Write the report', priority: 1, dueAt: '2030-07-01T00:00:00.000Z', labels: ['work', 'q3'], notes: 'draft first', status: 'open' });

    const shown = await runCli(['tasks', 'show', added.id], as);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toMatch(/Title\s+Write the report/);
    expect(shown.stdout).toMatch(/Labels\s+work, q3/);

    const edited = await cliJson<Task>(['tasks', 'edit', added.id, '--title', 'Write the final report', '--clear-due', '--priority', '2'], as);
    expect(edited).toMatchObject({ title: 'Write the final report', dueAt: null, priority: 2 });

    const done = await runCli(['tasks', 'done', added.id], as);
    expect(done.stdout).toContain(`Completed task ${added.id}`);
    expect((await cliJson<Task>(['tasks', 'show', added.id], as)).status).toBe('completed');

    expect(await cliJson(['tasks', 'rm', added.id], as)).toEqual({ id: added.id, deleted: true });
    const gone = await runCli(['tasks', 'show', added.id], as);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
  });

  it('tasks list --changed-since follows the change feed: every task from start, then only what changed, deletions included', async () => {
    const { email } = await signedInClient(server);
    const own: CliOptions = { configDir: newConfigDir(), server };
    await loginThroughBrowser(server, own.configDir, email);
    const kept = await cliJson<Task>(['tasks', 'add', 'kept'], own);
    const doomed = await cliJson<Task>(['tasks', 'add', 'doomed'], own);

    type Changes = { changes: { kind: string; task?: Task & { version: number }; taskId?: string }[]; nextCursor: string };
    const first = await cliJson<Changes>(['tasks', 'list', '--changed-since', 'start'], own);
    expect(first.changes.map((change) => change.task?.title)).toEqual(['kept', 'doomed']);

    await cliJson(['tasks', 'edit', kept.id, '--title', 'kept and renamed'], own);
    await cliJson(['tasks', 'rm', doomed.id], own);
    const since = await cliJson<Changes>(['tasks', 'list', '--changed-since', first.nextCursor], own);
    expect(since.changes).toEqual([
      { kind: 'upserted', task: expect.objectContaining({ id: kept.id, title: 'kept and renamed', version: 2 }) },
      { kind: 'deleted', taskId: doomed.id, deletedAt: expect.any(String) },
    ]);

    const table = await runCli(['tasks', 'list', '--changed-since', first.nextCursor], own);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/upserted\s+\S+\s+open\s+2\s+kept and renamed/);
    expect(table.stdout).toMatch(new RegExp(`deleted\\s+${doomed.id}`));
    // A cursor is opaque: base64url, 26 characters for an account this young (src/tasks/change-cursor.ts).
    expect(table.stderr).toMatch(/Next time: taskctl tasks list --changed-since [\w-]{26}\n/);

    const forged = await runCli(['tasks', 'list', '--changed-since', 'not-a-cursor'], own);
    expect(forged.code).toBe(1);
    expect(forged.stderr).toContain('/query/cursor: is not a cursor a page of this feed issued');
  });

  it('edit, done and rm with --if-match apply only to the version named; a 412 says which version the task is at now, and changes nothing', async () => {
    type Versioned = Task & { version: number };
    const task = await cliJson<Versioned>(['tasks', 'add', 'Shared', 'plan'], as);
    expect(task.version).toBe(1);
    const renamed = await runCli(['tasks', 'edit', task.id, '--title', 'Shared plan v2', '--if-match', '1'], as);
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toContain(`Updated task ${task.id}: Shared plan v2 (version 2)`);

    const lost = await runCli(['tasks', 'edit', task.id, '--title', 'A lost update', '--if-match', '1'], as);
    expect(lost.code).toBe(1);
    expect(lost.stderr).toContain(`Task ${task.id} was not changed: it is at version 2 now, not version 1 that --if-match names.`);
    expect(lost.stderr).toContain('--if-match 2');
    const lostDone = await runCli(['tasks', 'done', task.id, '--if-match', '"1"'], as);
    expect(lostDone.code).toBe(1);
    expect(lostDone.stderr).toContain('it is at version 2 now, not version 1');
    expect(await cliJson<Versioned>(['tasks', 'show', task.id], as)).toMatchObject({ title: 'Shared plan v2', status: 'open', version: 2 });
    expect((await runCli(['tasks', 'show', task.id], as)).stdout).toMatch(/Version\s+2/);

    expect(await cliJson<Versioned>(['tasks', 'done', task.id, '--if-match', '"2"'], as)).toMatchObject({ status: 'completed', version: 3 });
    const keptByRm = await runCli(['tasks', 'rm', task.id, '--if-match', '2'], as);
    expect(keptByRm.code).toBe(1);
    expect(keptByRm.stderr).toContain(`Task ${task.id} was not deleted: it is at version 3 now, not version 2 that --if-match names.`);
    expect((await cliJson<Versioned>(['tasks', 'show', task.id], as)).version).toBe(3);
    expect(await cliJson(['tasks', 'rm', task.id, '--if-match', '3'], as)).toEqual({ id: task.id, deleted: true });

    const anyVersion = await cliJson<Versioned>(['tasks', 'add', 'Anything goes'], as);
    await cliJson(['tasks', 'edit', anyVersion.id, '--priority', '1'], as);
    expect(await cliJson(['tasks', 'rm', anyVersion.id, '--if-match', '*'], as)).toEqual({ id: anyVersion.id, deleted: true });
    for (const command of ['edit', 'done', 'rm']) expect((await runCli(['tasks', command, '--help'], as)).stdout).toContain('--if-match <version>');
  });

  it('lists one page as a table or the API JSON, and walks every page with --all', async () => {
    const titles = Array.from({ length: 7 }, (_, i) => `listed ${i}`);
    for (const title of titles) await cliJson(['tasks', 'add', title], as);

    const page = await cliJson<{ items: Task[]; nextCursor: string | null }>(['tasks', 'list', '--limit', '3'], as);
    expect(page.items).toHaveLength(3);
    expect(page.nextCursor).toEqual(expect.any(String));

    const all = await cliJson<{ items: Task[]; nextCursor: null }>(['tasks', 'list', '--all', '--limit', '2', '--status', 'open'], as);
    expect(all.nextCursor).toBeNull();
    expect(all.items.map((task) => task.title)).toEqual(expect.arrayContaining(titles));
    expect(new Set(all.items.map((task) => task.id)).size).toBe(all.items.length);

    const table = await runCli(['tasks', 'list', '--limit', '3'], as);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+STATUS\s+PRI\s+DUE\s+TITLE\s+LABELS$/);
    expect(table.stdout.trim().split('\n')).toHaveLength(4);
    expect(table.stderr).toContain('--cursor');
  });

  it('exits 2 with a readable message on usage errors, before any request', async () => {
    const cases: [string[], RegExp][] = [
      [['tasks', 'add', 'x', '--priority', '9'], /--priority must be a whole number from 1 to 4/],
      [['tasks', 'add', 'x', '--due', 'tomorrow'], /--due takes a date/],
      [['tasks', 'edit', '00000000-0000-4000-8000-000000000000'], /Nothing to change/],
      [['tasks', 'list', '--status', 'later'], /Allowed choices are open, completed, all/],
      [['tasks', 'frobnicate'], /unknown command/],
      [['tasks', 'show'], /missing required argument/],
      [['tasks', 'rm', '00000000-0000-4000-8000-000000000000', '--if-match', 'W/"3"'], /--if-match takes a task's version \(3\) or its ETag \("3"\)/],
      [['tasks', 'edit', '00000000-0000-4000-8000-000000000000', '--title', 'x', '--if-match', 'latest'], /--if-match takes/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(args, as);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect((await runCli(['--help'], as)).code).toBe(0);
    expect((await runCli(['tasks', 'add', '--help'], as)).stdout).toContain('Examples:');
  });
});

describe('taskctl usage and whoami', () => {
  it('prints the caps and budget windows, and the API JSON with --json', async () => {
    const usage = await cliJson<{ tasks: { used: number; limit: number }; rateLimits: { client: { burst: { limit: number } } } }>(['usage'], as);
    expect(usage.tasks).toEqual({ used: expect.any(Number), limit: 10000 });
    expect(usage.rateLimits.client.burst.limit).toBeGreaterThan(0);
    const human = await runCli(['usage'], as);
    expect(human.stdout).toMatch(/Tasks\s+\d+ of 10000/);
    expect(human.stdout).toMatch(/Requests: This client, this minute\s+\d+ of \d+\s+resets in \d+ s/);
    // Not a terminal: no bars.
    expect(human.stdout).not.toContain('[#');
  });
});

describe('taskctl connectors', () => {
  it('lists types, connects an iCal feed, syncs it with plain progress lines and the figures, and disconnects', async () => {
    const types = await cliJson<{ items: { type: string }[] }>(['connectors', 'types'], as);
    expect(types.items.map((item) => item.type).sort()).toEqual(['github', 'ical']);

    feeds.setFeed('/cli.ics', [
      { uid: 'a', summary: 'From the feed A' },
      { uid: 'b', summary: 'From the feed B', status: 'COMPLETED', completed: '20240601T100000Z' },
    ]);
    const account = await cliJson<{ id: string; type: string }>(['connectors', 'connect', 'ical', '--url', feeds.url('/cli.ics')], as);
    expect(account.type).toBe('ical');
    const listed = await runCli(['connectors', 'list'], as);
    expect(listed.stdout).toContain(account.id);
    expect(listed.stdout).toContain('never');

    const sync = await runCli(['connectors', 'sync', account.id], as);
    expect(sync.code, sync.stderr).toBe(0);
    expect(sync.stderr).toMatch(/^sync [0-9a-f-]{36} (queued|running|succeeded): fetched/m);
    expect(sync.stdout).toContain('Sync succeeded: fetched 2, created 2, updated 0, unchanged 0, dropped over quota 0.');

    const again = await cliJson<{ status: string; fetched: number; unchanged: number }>(['connectors', 'sync', account.id], as);
    expect(again).toMatchObject({ status: 'succeeded', fetched: 2, unchanged: 2 });

    expect(await cliJson(['connectors', 'disconnect', account.id], as)).toEqual({ id: account.id, disconnected: true });
    expect((await cliJson<{ items: unknown[] }>(['connectors', 'list'], as)).items).toEqual([]);
  });

  it('exits 1 with the job error when a sync fails', async () => {
    feeds.setFeed('/failing.ics', [{ uid: 'x', summary: 'x' }]);
    const account = await cliJson<{ id: string }>(['connectors', 'connect', 'ical', '--url', feeds.url('/failing.ics')], as);
    feeds.setFeed('/failing.ics', [], { status: 503 });
    const sync = await runCli(['connectors', 'sync', account.id], as);
    expect(sync.code).toBe(1);
    expect(sync.stderr).toContain('The sync failed:');
    await runCli(['connectors', 'disconnect', account.id], as);
  });
});

describe('taskctl tokens and TASKCTL_TOKEN', () => {
  it('creates an API token shown once, which works as TASKCTL_TOKEN without any login, then revokes it', async () => {
    const created = await cliJson<{ id: string; token: string; scopes: string[] }>(['tokens', 'create', 'ci', '--scope', 'tasks:read', '--expires-in-days', '7'], as);
    expect(created.token).toMatch(/^tsk_/);
    expect(created.scopes).toEqual(['tasks:read']);

    const listed = await runCli(['tokens', 'list'], as);
    expect(listed.stdout).toContain(created.id);
    expect(listed.stdout).not.toContain(created.token);

    const script = { configDir: newConfigDir(), server, env: { TASKCTL_TOKEN: created.token } };
    expect((await runCli(['tasks', 'list', '--json'], script)).code).toBe(0);
    const refused = await runCli(['tasks', 'add', 'not allowed'], script);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('tasks:write');

    expect(await cliJson(['tokens', 'revoke', created.id], as)).toEqual({ id: created.id, revoked: true });
    const dead = await runCli(['tasks', 'list'], script);
    expect(dead.code).toBe(4);
    expect(dead.stderr).toContain('TASKCTL_TOKEN was refused');
  });
});
