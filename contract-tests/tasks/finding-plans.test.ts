import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareTasks, taskMatches, type QueriedTask } from '../../sdk/src/task-query.js';
import { loadConfig } from '../../src/config.js';
import { closeDb, createDb, isPostgres, migrate, type Db } from '../../src/platform/db.js';
import { taskFilters } from '../../src/tasks/task-filters.js';
import { drivesFor } from '../../src/tasks/task-search-plan.js';
import { findTaskPage, pageStatement, positionOf, type PageRequest } from '../../src/tasks/task-search.repository.js';
import { toTask } from '../../src/tasks/tasks.presenter.js';
import type { TaskRow } from '../../src/tasks/tasks.repository.js';
import { listQueryOf, searchShapes, seedSearchCorpus } from '../../src/test-support/search-corpus.js';
import { createTestDatabase, type TestDatabase } from '../support/server.js';

// Every query shape of the search bench (bench/search.bench.ts), first page and a page after a cursor,
// is answered from indexes: PostgreSQL, on data of the bench's size after ANALYZE, plans no sequential
// scan of the tasks table; SQLite, which keeps no statistics, plans no full scan of it. A page read by a
// walk reads the tasks in the sort's order, with no sort of its own. On that data,
// where the counts choose each way of reading a page (src/tasks/task-search-plan.ts), the pages are
// also those of the SDK's matcher (finding-equivalence.test.ts proves it on generated tasks and queries).

const postgres = process.env.TEST_DATABASE === 'postgres';
const ACCOUNTS = postgres ? 10 : 2;
const PER_ACCOUNT = postgres ? 10_000 : 2_000;

let database: TestDatabase;
let db: Db;
let accountId: string;
/** The account's tasks as the API shows them, for the SDK's matcher. */
let stored: QueriedTask[];
beforeAll(async () => {
  database = await createTestDatabase();
  db = createDb(loadConfig({ DATABASE_URL: database.url }).database);
  await migrate(db);
  const ids = Array.from({ length: ACCOUNTS }, () => randomUUID());
  await db('accounts').insert(ids.map((id) => ({ id, email: `${id}@example.com`, password_hash: 'not a hash', created_at: Date.now() })));
  await seedSearchCorpus(db, ids, PER_ACCOUNT);
  if (isPostgres(db)) await db.raw('vacuum analyze');
  accountId = ids[0]!;
  stored = ((await db('tasks').where('account_id', accountId)) as TaskRow[]).map(toTask);
}, 300_000);
afterAll(async () => {
  if (db) await closeDb(db);
  await database?.drop();
});

/**
 * The plan's lines that read the whole tasks table, or that read a walk's tasks otherwise than in the
 * sort's order (a walk tests each task's texts, `strpos` or `instr`, and stops at the page's end).
 */
async function planFaults(page: PageRequest): Promise<string[]> {
  const { sql, bindings } = await pageStatement(db, accountId, page);
  const walk = /strpos\(|instr\(/.test(sql);
  if (isPostgres(db)) {
    const [{ 'QUERY PLAN': plan }] = (await db.raw(`explain (format json) ${sql.replace(/\$\d+/g, '?')}`, bindings as never[])).rows;
    const faults: string[] = [];
    const visit = (node: { 'Node Type': string; 'Relation Name'?: string; Plans?: unknown[] }) => {
      const unordered = walk && (node['Node Type'] === 'Sort' || node['Node Type'] === 'Bitmap Heap Scan');
      if ((node['Node Type'] === 'Seq Scan' && node['Relation Name'] === 'tasks') || unordered) faults.push(JSON.stringify(node).slice(0, 300));
      for (const child of node.Plans ?? []) visit(child as typeof node);
    };
    visit(plan[0].Plan);
    return faults;
  }
  const plan = (await db.raw(`explain query plan ${sql}`, bindings as never[])) as { detail: string }[];
  return plan.map((step) => step.detail).filter((detail) => /^SCAN (t|tasks)\b/.test(detail) || (walk && /TEMP B-TREE/.test(detail)));
}

describe(`the search shapes' plans (${postgres ? 'PostgreSQL after ANALYZE' : 'SQLite'})`, () => {
  it.runIf(!postgres)('where few tasks share several labels or short words, the page reads the tasks its count listed, not the full-text index again', async () => {
    for (const name of ['label, two', 'everything']) {
      const query = listQueryOf(searchShapes().find((shape) => shape.name === name)!.query);
      const { sql } = await pageStatement(db, accountId, { filters: taskFilters(query), sort: query.sort ?? 'created', limit: 51 });
      expect(sql, name).toContain('json_each(?) as k cross join tasks as t');
      expect(sql, name).not.toMatch(/ match /);
    }
  });

  for (const shape of searchShapes()) {
    it(`${shape.name}: no full scan of tasks, and a walk in the sort's order, first page or after a cursor`, async () => {
      const query = listQueryOf(shape.query);
      const page: PageRequest = { filters: taskFilters(query), sort: query.sort ?? 'created', limit: 51 };
      expect(await planFaults(page)).toEqual([]);
      const first = await findTaskPage(db, accountId, page);
      const last = first.rows.at(-1);
      if (last) expect(await planFaults({ ...page, after: positionOf(page.sort, last), drive: first.drive })).toEqual([]);
    });
  }
});

describe(`the search shapes' pages on data of the bench's kind (${postgres ? 'PostgreSQL' : 'SQLite'})`, () => {
  for (const shape of searchShapes()) {
    it(`${shape.name}: the first two pages are the SDK matcher's, the second read the way its cursor names, either way`, async () => {
      const query = listQueryOf(shape.query);
      const filters = taskFilters(query);
      const expected = stored.filter((task) => taskMatches(query, task)).sort(compareTasks(query.sort)).map((task) => task.id);
      const page: PageRequest = { filters, sort: query.sort ?? 'created', limit: 51 };
      const first = await findTaskPage(db, accountId, page);
      expect(first.rows.length).toBe(Math.min(51, expected.length));
      if (first.rows.length < 51) return expect(first.rows.map((row) => row.id)).toEqual(expected);
      const after = positionOf(page.sort, first.rows.at(-1)!);
      for (const drive of drivesFor(filters)) {
        // Whatever counting would choose now, the drive the cursor names is the one the page is read by.
        const second = await findTaskPage(db, accountId, { ...page, after, drive });
        expect(second.drive).toBe(drive);
        expect([...first.rows, ...second.rows].map((row) => row.id)).toEqual(expected.slice(0, 51 + second.rows.length));
      }
    });
  }
});
