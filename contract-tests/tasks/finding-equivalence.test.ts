import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTasks, taskMatches, type TaskQuery, type TaskSort } from '@task-service/sdk';
import type { Task, TaskCreate } from '@task-service/sdk';
import { dataOf, signedInClient, startServer, type TestServer } from '../support/server.js';

// One meaning of finding a task: on generated tasks and queries, the server's pages, followed with
// small pages, equal the SDK's `taskMatches` and `compareTasks` applied to every stored task.

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: { RATE_LIMIT_BURST_PER_MINUTE: '100000', RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000', RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000', RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000' },
  });
});
afterAll(async () => {
  await server?.stop();
});

// Words in several scripts, with accents (composed and not), ligatures, digits, case pairs that
// lower-case unevenly (İ, ẞ), and emoji; joined by punctuation, spaces and emoji. Some hold the start of
// another inside them ('prepaid' holds 'rep', 'Barcelona' holds 'na'), which no query word may find; one
// holds a letter that NFKD makes a space (U+FE70), so that its word is 'bar eau', which 'eau' does not start.
const WORDS = [
  'Café', 'cafe', 'CAFÉ', 'au', 'lait', 'Quarterly', 'report', 'prepaid', 'Barcelona', 'Bar\ufe70eau', 'Rép', 'naïve', 'nai\u0308ve', 'e\u0301clair', 'Straße', 'STRASSE', 'ẞ',
  'İstanbul', 'ıi', 'ﬁle', 'x²', '½', 'Ⅻ', '2026', '42nd', 'Ωμέγα', 'ωμεγα', 'Привет', 'привет', 'Ёлка', 'ёлка', '東京', '日本語', 'مرحبا',
  'שלום', 'हिन्दी', 'Ελλάδα', 'ελλαδα', 'Łódź', 'lodz', 'Ærø', 'Œuvre', 'ǅemal', 'Ａｂｃ', 'abc', 'rent', 'Rent', 'home',
];
const SEPARATORS = [' ', ' ', '-', ', ', '.', '/', '🙂', '_', "'", ' 👍🏽 ', '\u00a0', '(', ')'];
// Labels in mixed case, and two that hold another label after a line break, or after a backslash and n.
const LABELS = ['Home', 'home', 'HOME', 'Work', 'urgent', 'Ünïcode', 'ünïcode', 'straße', 'STRASSE', 'İ', 'i̇', 'Δ', 'δ', '東京', 'Errands\nhome', 'Errands\\nhome'];
const TIMES = ['2026-11-27T23:00:00.000Z', '2026-11-28T00:00:00.000Z', '2026-11-28T09:30:00.000Z', '2026-12-01T17:00:00.000Z', '1999-01-01T00:00:00.000Z'];
const SORTS: TaskSort[] = ['created', '-created', 'updated', '-updated', 'due', 'priority'];

const text = fc
  .array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([word, separator]) => word + separator).join('').trim())
  .filter((title) => /\S/.test(title));

const newTask: fc.Arbitrary<TaskCreate> = fc.record({
  title: text,
  notes: fc.option(text, { nil: null }),
  status: fc.constantFrom('open' as const, 'completed' as const),
  priority: fc.constantFrom(1 as const, 2 as const, 3 as const, 4 as const),
  dueAt: fc.option(fc.constantFrom(...TIMES), { nil: null }),
  labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 3 }),
});

/** A query word: a word of the pool, a start of one, a piece from inside one, in another case, or two of them. */
const queryText = fc.oneof(
  fc.constantFrom(...WORDS).chain((word) => fc.integer({ min: 1, max: word.length }).map((end) => word.slice(0, end))),
  fc.constantFrom(...WORDS.filter((word) => word.length > 2)).chain((word) => fc.integer({ min: 1, max: word.length - 2 }).map((start) => word.slice(start, start + 3))),
  fc.constantFrom(...WORDS).map((word) => word.toUpperCase()),
  fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...WORDS)).map(([a, b]) => `${a.slice(0, 3)} ${b}`),
  fc.constantFrom('', '!!', '🙂', ' - '),
);

const filters = {
  status: fc.constantFrom('open' as const, 'completed' as const, 'all' as const),
  q: queryText,
  label: fc.uniqueArray(fc.constantFrom(...LABELS), { minLength: 1, maxLength: 2 }),
  priority: fc.uniqueArray(fc.constantFrom(1, 2, 3, 4), { minLength: 1, maxLength: 3 }),
  dueAfter: fc.constantFrom(...TIMES),
  dueBefore: fc.constantFrom(...TIMES),
  hasDue: fc.boolean(),
};
type FilterName = keyof typeof filters;

/** A sort and at most two filters: more at once would match too few tasks to tell anything apart. */
const query: fc.Arbitrary<TaskQuery & { sort: TaskSort }> = fc
  .tuple(fc.constantFrom(...SORTS), fc.subarray(Object.keys(filters) as FilterName[], { maxLength: 2 }))
  .chain(([sort, names]) =>
    fc.tuple(...names.map((name) => filters[name] as fc.Arbitrary<unknown>)).map((values) => ({
      sort,
      ...Object.fromEntries(names.map((name, i) => [name, values[i]])),
    })),
  );

/** Every task of a query, following `nextCursor` with pages of `limit`. */
async function walk(client: Awaited<ReturnType<typeof signedInClient>>['client'], q: TaskQuery & { sort: TaskSort }, limit: number): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTasks({ ...q, label: q.label ? [...q.label] : undefined, priority: q.priority ? [...q.priority] as (1 | 2 | 3 | 4)[] : undefined, limit, cursor });
    if (page.error) throw new Error(`listTasks ${JSON.stringify(q)}: ${JSON.stringify(page.error)}`);
    ids.push(...dataOf(page).items.map((task) => task.id));
    cursor = dataOf(page).nextCursor ?? undefined;
  } while (cursor);
  return ids;
}

describe('finding tasks: the server and the SDK matcher mean the same', () => {
  it('on generated tasks (some edited after they were made) and queries, pages of 1 to 4 equal taskMatches in compareTasks order', async () => {
    let asked = 0;
    let tellingApart = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(newTask, fc.option(fc.record({ title: text, labels: fc.uniqueArray(fc.constantFrom(...LABELS), { maxLength: 2 }) }), { nil: undefined })), {
          minLength: 1,
          maxLength: 16,
        }),
        fc.array(fc.tuple(query, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 5 }),
        async (tasks, queries) => {
          const { client } = await signedInClient(server);
          for (const [create, edit] of tasks) {
            const created = dataOf(await client.createTask(create));
            if (edit) dataOf(await client.updateTask(created.id, edit));
          }
          const stored: Task[] = [];
          for await (const task of client.listAllTasks({})) stored.push(task);
          expect(stored).toHaveLength(tasks.length);
          for (const [q, limit] of queries) {
            const expected = stored.filter((task) => taskMatches(q, task)).sort(compareTasks(q.sort)).map((task) => task.id);
            expect(await walk(client, q, limit), JSON.stringify(q)).toEqual(expected);
            asked += 1;
            if (expected.length > 0 && expected.length < stored.length) tellingApart += 1;
          }
        },
      ),
      { numRuns: 40 },
    );
    // The queries told tasks apart often enough for the comparison to mean something (a quarter to
    // two fifths of them do, by the seed; a generator that made every answer empty or everything would not).
    expect(tellingApart / asked).toBeGreaterThan(0.1);
  }, 240_000);
});

describe('finding tasks among many: where a word or label matches hundreds of tasks', () => {
  it('on 450 generated tasks, generated queries in pages of 40 to 60 equal taskMatches in compareTasks order', async () => {
    const { client } = await signedInClient(server);
    const tasks = fc.sample(newTask, { numRuns: 450, seed: 42 });
    // Every task labelled and titled alike too, so that a label and a word match more than SQLite sorts at once.
    for (let i = 0; i < tasks.length; i += 25) {
      await Promise.all(tasks.slice(i, i + 25).map(async (task) => dataOf(await client.createTask({ ...task, title: `Report ${task.title}`, labels: [...new Set([...task.labels!, 'Every'])] }))));
    }
    const stored: Task[] = [];
    for await (const task of client.listAllTasks({ limit: 200 })) stored.push(task);
    expect(stored).toHaveLength(450);
    // Words and labels that many tasks have, which the plan may read by a walk of the rows' texts: 'na' also
    // sits inside words that do not start with it ('Barcelona'), 'e' inside 'bar eau', 'home' inside labels
    // after a line break ('Errands\nhome'), and a walk must pass those by.
    const walks = [{ sort: 'created' as const, q: 'na' }, { sort: 'due' as const, q: 'e' }, { sort: '-created' as const, q: 'rep e' }, { sort: 'updated' as const, label: ['HOME'] }];
    for (const q of walks) {
      const expected = stored.filter((task) => taskMatches(q, task)).sort(compareTasks(q.sort)).map((task) => task.id);
      expect(expected.length, JSON.stringify(q)).toBeGreaterThan(50);
      expect(await walk(client, q, 50), JSON.stringify(q)).toEqual(expected);
    }
    const wide = fc.oneof(query, fc.constantFrom({ sort: 'due' as const, q: 'rep' }, { sort: '-updated' as const, label: ['EVERY'] }, { sort: 'priority' as const, label: ['every', 'home'] }));
    await fc.assert(
      fc.asyncProperty(wide, fc.integer({ min: 40, max: 60 }), async (q, limit) => {
        const expected = stored.filter((task) => taskMatches(q, task)).sort(compareTasks(q.sort)).map((task) => task.id);
        expect(await walk(client, q, limit), JSON.stringify(q)).toEqual(expected);
      }),
      { numRuns: 25 },
    );
  }, 240_000);
});

describe('finding tasks: a walk of the rows passes by what only looks like a match', () => {
  it("half the tasks have 'eau', 'Home' and 'A<line break>B'; the other half 'bar eau', 'x<line break>home' and 'a\\nb': each query finds the first half", async () => {
    const { client } = await signedInClient(server);
    // Half the tasks match each query, so that its pages are read by a walk of the rows' texts (src/tasks/task-search-plan.ts).
    for (let i = 0; i < 80; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          dataOf(await client.createTask({ title: `Eau ${i + j}`, labels: ['Home', 'A\nB'] }));
          // NFKD makes a space of U+FE70: the word is 'bar eau', which 'eau' does not start.
          dataOf(await client.createTask({ title: `Bar\ufe70eau ${i + j}`, labels: ['x\nhome', 'a\\nb'] }));
        }),
      );
    }
    const stored: Task[] = [];
    for await (const task of client.listAllTasks({ limit: 200 })) stored.push(task);
    for (const q of [{ sort: 'created' as const, q: 'eau' }, { sort: '-created' as const, label: ['HOME'] }, { sort: 'updated' as const, label: ['a\nb'] }]) {
      const expected = stored.filter((task) => taskMatches(q, task)).sort(compareTasks(q.sort)).map((task) => task.id);
      expect(expected, JSON.stringify(q)).toHaveLength(80);
      expect(await walk(client, q, 50), JSON.stringify(q)).toEqual(expected);
    }
  });
});

describe('finding tasks: what a person types', () => {
  it('finds "Café au lait" by cafe, "Quarterly report" by rep, a label by any case; GET /labels counts open tasks per label', async () => {
    const { client } = await signedInClient(server);
    const make = async (body: TaskCreate) => dataOf(await client.createTask(body));
    const cafe = await make({ title: 'Café au lait', labels: ['Home'] });
    const report = await make({ title: 'Quarterly report', notes: 'For the board', labels: ['work', 'urgent'], priority: 1 });
    const done = await make({ title: 'Old report', status: 'completed', labels: ['home'] });
    const ids = async (query: Parameters<typeof client.listTasks>[0]) => dataOf(await client.listTasks(query)).items.map((task) => task.id);
    expect(await ids({ q: 'cafe' })).toEqual([cafe.id]);
    expect(await ids({ q: 'rep' })).toEqual([report.id, done.id]);
    expect(await ids({ q: 'board quart' })).toEqual([report.id]);
    expect(await ids({ q: 'port' })).toEqual([]);
    expect(await ids({ label: ['HOME'] })).toEqual([cafe.id, done.id]);
    expect(await ids({ label: ['work', 'Urgent'] })).toEqual([report.id]);
    expect(await ids({ label: ['work', 'home'] })).toEqual([]);
    expect(await ids({ sort: 'priority', status: 'open' })).toEqual([report.id, cafe.id]);
    const labels = dataOf(await client.listLabels()).items;
    expect(labels).toEqual([
      { name: 'Home', openTasks: 1 },
      { name: 'urgent', openTasks: 1 },
      { name: 'work', openTasks: 1 },
    ]);
  });

  it('a cursor replayed with other filters or another sort is a 400 on /query/cursor; with the same ones it goes on', async () => {
    const { client } = await signedInClient(server);
    for (let i = 0; i < 3; i++) dataOf(await client.createTask({ title: `Pay rent ${i}`, labels: ['home'] }));
    const first = dataOf(await client.listTasks({ q: 'rent', limit: 1 }));
    expect(first.nextCursor).toBeTruthy();
    const cursor = first.nextCursor!;
    for (const other of [{ q: 'pay' }, { q: 'rent', sort: 'due' as const }, { q: 'rent', label: ['home'] }, {}]) {
      const answer = await client.listTasks({ ...other, cursor, limit: 1 });
      expect(answer.response.status).toBe(400);
      expect(answer.error?.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    }
    // The same filters in another spelling (case, order) are the same view.
    const next = await client.listTasks({ q: 'RENT', cursor, limit: 1 });
    expect(next.response.status).toBe(200);
    const garbage = await client.listTasks({ q: 'rent', cursor: 'bm90IGEgY3Vyc29y', limit: 1 });
    expect(garbage.response.status).toBe(400);
  });

  it("a list with words or labels names in its cursor how its pages are read: without that (as issued before) it goes on alike; another way, or one for a list without words or labels, is a 400", async () => {
    const { client } = await signedInClient(server);
    // A word longer than the full-text index's terms hold (256 bytes) is found only by a walk.
    const long = '\u0436'.repeat(150);
    for (let i = 0; i < 3; i++) dataOf(await client.createTask({ title: `Pay rent ${i} ${long}` }));
    const cursorOf = async (query: { q?: string }) => dataOf(await client.listTasks({ ...query, limit: 1 })).nextCursor!;
    const parts = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    const cursorWith = (values: unknown[]) => Buffer.from(JSON.stringify(values)).toString('base64url');
    const rent = parts(await cursorOf({ q: 'rent' }));
    expect(['order', 'terms']).toContain(rent.at(-1));
    const named = dataOf(await client.listTasks({ q: 'rent', cursor: cursorWith(rent), limit: 1 }));
    const unnamed = dataOf(await client.listTasks({ q: 'rent', cursor: cursorWith(rent.slice(0, -1)), limit: 1 }));
    expect(unnamed.items).toEqual(named.items);
    expect(named.items[0]!.title).toBe(`Pay rent 1 ${long}`);
    const longWord = parts(await cursorOf({ q: long }));
    expect(longWord.at(-1)).toBe('order');
    const refused: [{ q?: string }, unknown[]][] = [
      [{ q: 'rent' }, [...rent.slice(0, -1), 'sideways']],
      [{}, [...parts(await cursorOf({})), 'order']],
      [{ q: long }, [...longWord.slice(0, -1), 'terms']],
    ];
    for (const [query, cursor] of refused) {
      const answer = await client.listTasks({ ...query, cursor: cursorWith(cursor), limit: 1 });
      expect(answer.response.status, JSON.stringify(cursor)).toBe(400);
      expect(answer.error?.body).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
    }
  });

  it('refuses a time that is no time, an unknown sort, a sixth priority and a q over 200 characters, each naming its parameter', async () => {
    const { accessToken } = (await signedInClient(server)).tokens;
    for (const [query, path] of [
      ['dueAfter=tomorrow', '/query/dueAfter'],
      ['sort=title', '/query/sort'],
      ['priority=5', '/query/priority/0'],
      [`q=${'a'.repeat(201)}`, '/query/q'],
      ['hasDue=maybe', '/query/hasDue'],
    ] as const) {
      const response = await fetch(`${server.baseUrl}/tasks?${query}`, { headers: { authorization: `Bearer ${accessToken}` } });
      expect(response.status, query).toBe(400);
      const body = (await response.json()) as { code: string; details: { path: string }[] };
      expect(body.code).toBe('VALIDATION_FAILED');
      expect(body.details.map((detail) => detail.path).join(' '), query).toContain(path);
    }
  });
});
