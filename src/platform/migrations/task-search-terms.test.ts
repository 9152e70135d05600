import { afterEach, describe, expect, it } from 'vitest';
import { indexTasks, writeIndexRows, writeSearchTexts } from '../../tasks/task-index.repository.js';
import { taskFilters } from '../../tasks/task-filters.js';
import { findTaskPage, pageStatement } from '../../tasks/task-search.repository.js';
import { createMigratedDb, engines, insertAccount, storedTaskRow, type MigratedDb } from '../../test-support/databases.js';
import { isPostgres, type Db } from '../db.js';
import { migrations } from './index.js';

const MIGRATION = '016-task-search-terms';

describe.each(engines)('016: search terms in a full-text index (%s)', (engine) => {
  let migrated: MigratedDb | undefined;
  afterEach(async () => {
    await migrated?.drop();
    migrated = undefined;
  });

  const task = (accountId: string, i: number, title: string, labels: string[]) => storedTaskRow(accountId, i, title, null, labels);
  /**
   * Titles of a page through the full-text index (the plan's choice, checked in its statement): on SQLite
   * its match, or the tasks the plan's count listed from it (src/tasks/task-search-plan.ts, Plan.docs).
   */
  const byTerms = async (db: Db, accountId: string, query: Parameters<typeof taskFilters>[0]) => {
    const page = { filters: taskFilters(query), sort: 'created' as const, limit: 10 };
    expect((await pageStatement(db, accountId, page)).sql).toMatch(isPostgres(db) ? /@@/ : /match|json_each\(\?\) as k/);
    return (await findTaskPage(db, accountId, page)).rows.map((row) => row.title);
  };

  it("writes the terms of every task stored before it, in batches; the index finds them; down drops what it made", async () => {
    migrated = await createMigratedDb(engine);
    const { db } = migrated;
    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    // The plan reads how many tasks the account holds (src/tasks/task-search-plan.ts).
    const accountId = await insertAccount(db, 1_204);
    const other = await insertAccount(db, 1);
    // More than one batch of the backfill; the other account's tasks share every word and label.
    const rows = Array.from({ length: 1_203 }, (_, i) => task(accountId, i, `Filler ${i}`, ['bulk']));
    rows.push(task(accountId, 2_000, 'Café au lait', ['Home', 'Errands']), task(other, 2_001, 'Café au lait', ['Home', 'Errands']));
    await db.batchInsert('tasks', rows, 200);
    await writeIndexRows(db, rows);
    await writeSearchTexts(db, rows);
    await db.migrate.up({ migrationSource: migrations, name: MIGRATION });

    expect(await db('tasks').whereNull('search_terms').count({ n: '*' })).toEqual([{ n: 0 }]);
    expect(await byTerms(db, accountId, { q: 'caf', label: ['errands', 'HOME'] })).toEqual(['Café au lait']);
    expect(await byTerms(db, accountId, { q: 'filler 1202' })).toEqual(['Filler 1202']);

    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    expect(await db.schema.hasColumn('tasks', 'search_terms')).toBe(false);
    if (!isPostgres(db)) {
      expect(await db.schema.hasColumn('tasks', 'doc')).toBe(false);
      expect(await db.schema.hasTable('task_terms')).toBe(false);
    }
    expect(await db('tasks').count({ n: '*' })).toEqual([{ n: 1_205 }]);
  });

  it('follows the tasks: a task inserted, re-indexed or deleted is found by its terms as it is now, also after its rows are renumbered', async () => {
    migrated = await createMigratedDb(engine);
    const { db } = migrated;
    // An account at the cap, which the plan reads (src/tasks/task-search-plan.ts): its few matching tasks are found through the index.
    const accountId = await insertAccount(db, 10_000);
    const insert = async (rows: ReturnType<typeof task>[]) => {
      await db.batchInsert('tasks', rows, 200);
      await indexTasks(db, rows);
    };
    const first = Array.from({ length: 30 }, (_, i) => task(accountId, i, `Old ${i}`, ['gone']));
    await insert(first);
    await db('tasks').whereIn('id', first.slice(0, 29).map((row) => row.id)).delete();
    expect(await byTerms(db, accountId, { label: ['gone'] })).toEqual(['Old 29']);

    // SQLite may give the rows of a table without an integer key new rowids (VACUUM may, a restore from
    // `.dump` does): here the task left takes rowid 1, and new rows take the rowids after it, up to numbers
    // the old rows had. A task's terms stay its own.
    if (!isPostgres(db)) await db.raw('update tasks set rowid = 1');
    const later = [task(accountId, 100, 'Quarterly report', ['work']), task(accountId, 101, 'Report card', ['home'])];
    const fillers = Array.from({ length: 30 }, (_, i) => task(accountId, 200 + i, `Later ${i}`, ['later']));
    await insert([...later, ...fillers]);
    expect(await byTerms(db, accountId, { label: ['later'], q: 'later 29' })).toEqual(['Later 29']);
    expect(await byTerms(db, accountId, { q: 'rep', label: ['work'] })).toEqual(['Quarterly report']);
    expect(await byTerms(db, accountId, { label: ['gone'] })).toEqual(['Old 29']);

    const edited = { ...later[1]!, title: 'Garden', labels: JSON.stringify(['work']) };
    await db('tasks').where('id', edited.id).update({ title: edited.title, labels: edited.labels });
    await indexTasks(db, [edited]);
    expect(await byTerms(db, accountId, { q: 'rep', label: ['work'] })).toEqual(['Quarterly report']);
    expect(await byTerms(db, accountId, { q: 'gar', label: ['work'] })).toEqual(['Garden']);
    expect(await byTerms(db, accountId, { label: ['home'] })).toEqual([]);

    await db('tasks').where('id', later[0]!.id).delete();
    expect(await byTerms(db, accountId, { q: 'rep' })).toEqual([]);
    // Each stored task has its terms once, none of a deleted task is left.
    if (!isPostgres(db)) expect(await db.raw('select count(*) as n from task_terms')).toEqual([{ n: 32 }]);
  });
});
