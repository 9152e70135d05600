import { afterEach, describe, expect, it } from 'vitest';
import { indexTasks } from '../../tasks/task-index.repository.js';
import { taskFilters } from '../../tasks/task-filters.js';
import { findTaskPage, pageStatement } from '../../tasks/task-search.repository.js';
import type { ListQuery } from '../../tasks/tasks.service.js';
import { createMigratedDb, engines, insertAccount, storedTaskRow, type MigratedDb } from '../../test-support/databases.js';
import type { Db } from '../db.js';
import { migrations } from './index.js';

const MIGRATION = '017-task-search-texts-exact';

describe.each(engines)('017: search texts a walk tests exactly (%s)', (engine) => {
  let migrated: MigratedDb | undefined;
  afterEach(async () => {
    await migrated?.drop();
    migrated = undefined;
  });

  it('rewrites the texts of words that hold a space and of labels that hold a line break or a backslash; a walk then finds only what the task has; down writes them back', async () => {
    migrated = await createMigratedDb(engine);
    const { db } = migrated;
    const accountId = await insertAccount(db, 603);
    // Half the tasks have the word `eau` and the labels `Home` and `A<line break>B`, so that a page of any is
    // read by a walk of the rows' texts. Three tasks have what only looks like one of those in the texts as
    // they were: a label that holds `home` after a line break, a label `a\nb` (a backslash, then n), a word
    // that holds `eau` after a space (NFKD makes a space of U+FE70).
    const alike = Array.from({ length: 300 }, (_, i) => storedTaskRow(accountId, i, `Eau ${i}`, null, ['Home', 'A\nB']));
    const others = Array.from({ length: 300 }, (_, i) => storedTaskRow(accountId, 300 + i, `Other ${i}`, null, []));
    const holdsHome = storedTaskRow(accountId, 600, 'Holds home', null, ['x\nhome']);
    const holdsSlash = storedTaskRow(accountId, 601, 'Holds slash', null, ['x\nc\\d', 'a\\nb']);
    const holdsEau = storedTaskRow(accountId, 602, 'Bar\ufe70eau', null, []);
    const rows = [...alike, ...others, holdsHome, holdsSlash, holdsEau];
    await db.batchInsert('tasks', rows, 200);
    await indexTasks(db, rows);
    // The texts as they were before: each word after a space, each key between line breaks, as they are.
    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    const texts = async (id: string) => (await db('tasks').where({ id }).first('search_words', 'search_labels')) as { search_words: string; search_labels: string };
    expect(await texts(holdsHome.id)).toEqual({ search_words: ' holds home', search_labels: '\nx\nhome\n' });
    expect((await texts(holdsSlash.id)).search_labels).toBe('\nx\nc\\d\na\\nb\n');
    expect((await texts(holdsEau.id)).search_words).toBe(' bar eau');
    // A walk that tests such texts alone finds each of the three: `home` between line breaks, `eau` after a
    // space, and `a\nb` written as a line break `a<line break>b` is now looked for.
    expect(await walked(db, accountId, { label: ['home'] })).toContain('Holds home');
    expect(await walked(db, accountId, { q: 'eau' })).toContain('Bar\ufe70eau');
    expect(await walked(db, accountId, { label: ['a\nb'] })).toEqual(['Holds slash']);

    await db.migrate.up({ migrationSource: migrations, name: MIGRATION });
    expect(await texts(holdsHome.id)).toEqual({ search_words: ' holds home', search_labels: '\nx\\nhome\n' });
    expect((await texts(holdsSlash.id)).search_labels).toBe('\nx\\nc\\\\d\na\\\\nb\n');
    expect((await texts(holdsEau.id)).search_words).toBe(' bar\neau');
    expect(await texts(alike[0]!.id)).toEqual({ search_words: ' eau 0', search_labels: '\nhome\na\\nb\n' });
    expect(await texts(others[0]!.id)).toEqual({ search_words: ' other 0', search_labels: null });
    for (const query of [{ label: ['home'] }, { label: ['a\nb'] }, { q: 'eau' }]) expect(await walked(db, accountId, query)).toEqual(alike.map((row) => row.title));
    // What one task each has, read through the full-text index or a walk as the plan chooses.
    expect(await titles(db, accountId, { label: ['X\nHOME'] })).toEqual(['Holds home']);
    expect(await titles(db, accountId, { label: ['x\nC\\d', 'A\\NB'] })).toEqual(['Holds slash']);
    expect(await titles(db, accountId, { label: ['A\\NB'] })).toEqual(['Holds slash']);
    expect(await titles(db, accountId, { q: 'bar\ufe70e' })).toEqual(['Bar\ufe70eau']);

    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    expect(await texts(holdsHome.id)).toEqual({ search_words: ' holds home', search_labels: '\nx\nhome\n' });
    expect((await texts(holdsEau.id)).search_words).toBe(' bar eau');
    expect(await texts(alike[0]!.id)).toEqual({ search_words: ' eau 0', search_labels: '\nhome\na\nb\n' });
  });
});

const pageOf = (query: ListQuery) => ({ filters: taskFilters(query), sort: 'created' as const, limit: 1_000 });

/** Titles of the tasks a query finds, in created order. */
async function titles(db: Db, accountId: string, query: ListQuery): Promise<string[]> {
  return (await findTaskPage(db, accountId, pageOf(query))).rows.map((row) => row.title);
}

/** The same, read by a walk (checked in its statement). */
async function walked(db: Db, accountId: string, query: ListQuery): Promise<string[]> {
  expect((await pageStatement(db, accountId, pageOf(query))).sql).toMatch(/strpos\(|instr\(/);
  return titles(db, accountId, query);
}
