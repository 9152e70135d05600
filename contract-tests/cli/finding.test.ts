import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTasks, taskMatches, type Task } from '@task-service/sdk';
import { cliJson, loginThroughBrowser, newConfigDir, runCli, type CliOptions } from '../support/cli.js';
import { dataOf, signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
let as: CliOptions;
let stored: Task[];
beforeAll(async () => {
  server = await startServer();
  const { email, client } = await signedInClient(server);
  as = { configDir: newConfigDir(), server };
  await loginThroughBrowser(server, as.configDir, email);
  for (const task of [
    { title: 'Pay rent', labels: ['Home', 'bills'], priority: 1 as const, dueAt: '2030-01-03T09:00:00Z' },
    { title: 'Café with Ada', labels: ['friends'], priority: 3 as const, dueAt: '2030-01-01T09:00:00Z' },
    { title: 'Renew passport', notes: 'Photos first', labels: ['home'], priority: 2 as const },
    { title: 'Quarterly report', labels: ['Work'], priority: 1 as const, status: 'completed' as const },
  ]) {
    dataOf(await client.createTask(task));
  }
  stored = [];
  for await (const task of client.listAllTasks()) stored.push(task);
});
afterAll(async () => {
  await server?.stop();
});

const titles = (items: Task[]) => items.map((task) => task.title);

describe('taskctl finds tasks', () => {
  it('tasks list takes --search, --label, --priority, --due-after, --due-before and --sort with the meaning of the SDK matcher', async () => {
    const cases: [string[], Parameters<typeof taskMatches>[0] & { sort?: Parameters<typeof compareTasks>[0] }][] = [
      [['-q', 'ren'], { q: 'ren' }],
      [['--search', 'cafe'], { q: 'cafe' }],
      [['--label', 'HOME'], { label: ['HOME'] }],
      [['--label', 'home', '--label', 'bills'], { label: ['home', 'bills'] }],
      [['--priority', '1', '--priority', '2', '--sort', 'priority'], { priority: [1, 2], sort: 'priority' }],
      [['--due-after', '2030-01-02', '--sort', 'due'], { dueAfter: '2030-01-02T00:00:00Z', sort: 'due' }],
      [['--due-before', '2030-01-02'], { dueBefore: '2030-01-02T00:00:00Z' }],
      [['--status', 'open', '--sort', '-created'], { status: 'open', sort: '-created' }],
      [['--sort', 'due', '--all'], { sort: 'due' }],
    ];
    for (const [args, query] of cases) {
      const page = await cliJson<{ items: Task[] }>(['tasks', 'list', ...args], as);
      const expected = stored.filter((task) => taskMatches(query, task)).sort(compareTasks(query.sort ?? 'created'));
      expect(titles(page.items), args.join(' ')).toEqual(titles(expected));
    }
  });

  it('says when nothing matches, refuses a bad priority or date in words, and lists the labels', async () => {
    const none = await runCli(['tasks', 'list', '-q', 'zebra'], as);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('No task matches these filters.');

    const badPriority = await runCli(['tasks', 'list', '--priority', '7'], as);
    expect(badPriority.code).not.toBe(0);
    expect(badPriority.stderr).toContain('--priority');
    const badDate = await runCli(['tasks', 'list', '--due-before', 'next week'], as);
    expect(badDate.code).not.toBe(0);
    expect(badDate.stderr).toContain('--due-before takes a date');

    const labels = await cliJson<{ items: { name: string; openTasks: number }[] }>(['labels'], as);
    expect(labels.items).toEqual([
      { name: 'Home', openTasks: 2 },
      { name: 'bills', openTasks: 1 },
      { name: 'friends', openTasks: 1 },
      { name: 'Work', openTasks: 0 },
    ]);
    const table = await runCli(['labels'], as);
    expect(table.stdout).toMatch(/LABEL\s+OPEN TASKS/);
    expect(table.stdout).toMatch(/Home\s+2/);
  });

  it('a cursor sent with other filters is refused with the service\'s words', async () => {
    const first = await cliJson<{ nextCursor: string | null }>(['tasks', 'list', '--label', 'home', '--limit', '1'], as);
    expect(first.nextCursor).toBeTruthy();
    const other = await runCli(['tasks', 'list', '--limit', '1', '--cursor', first.nextCursor!], as);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain('other filters or another sort');
  });
});
