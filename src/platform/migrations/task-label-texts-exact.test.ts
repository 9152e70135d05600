import { afterEach, describe, expect, it } from 'vitest';
import { indexTasks } from '../../tasks/task-index.repository.js';
import { taskFilters } from '../../tasks/task-filters.js';
import { findTaskPage, pageStatement } from '../../tasks/task-search.repository.js';
import { createMigratedDb, engines, insertAccount, storedTaskRow, type MigratedDb } from '../../test-support/databases.js';
import type { Db } from '../db.js';
import { migrations } from './index.js';

const MIGRATION = '017-task-label-texts-exact';

describe.each(engines)('017: label texts a walk tests exactly (%s)', (engine) => {
  let migrated: MigratedDb | undefined;
  afterEach(async () => {
    await migrated?.drop();
    migrated = undefined;
  });

  it('rewrites the texts of labels that hold a line break or a backslash; a walk then finds a label and nothing a label holds; down writes them back', async () => {
    migrated = await createMigratedDb(engine);
    const { db } = migrated;
    const accountId = await insertAccount(db, 602);
    // Half the tasks carry `Home`, half `C\D`, so that a page of either is read by a walk of the rows' texts;
    // two tasks carry a label that holds one of those keys after a line break.
    const homes = Array.from({ length: 300 }, (_, i) => storedTaskRow(accountId, i, `Home ${i}`, null, ['Home']));
    const slashes = Array.from({ length: 300 }, (_, i) => storedTaskRow(accountId, 300 + i, `Slash ${i}`, null, ['C\\D']));
    const holdsHome = storedTaskRow(accountId, 600, 'Holds home', null, ['x\nhome']);
    const holdsSlash = storedTaskRow(accountId, 601, 'Holds slash', null, ['x\nc\\d', 'a\\nb']);
    const rows = [...homes, ...slashes, holdsHome, holdsSlash];
    await db.batchInsert('tasks', rows, 200);
    await indexTasks(db, rows);
    // The texts as they were before: each key as it is between line breaks.
    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    const labelsText = async (id: string) => (await db('tasks').where({ id }).first('search_labels')).search_labels as string;
    expect(await labelsText(holdsHome.id)).toBe('\nx\nhome\n');
    expect(await labelsText(holdsSlash.id)).toBe('\nx\nc\\d\na\\nb\n');
    // Such a text holds `home` between line breaks, which a walk that tests the text alone finds; and a
    // key with a backslash is written otherwise than a walk looks for it now.
    expect(await walked(db, accountId, ['home'])).toContain('Holds home');
    expect(await walked(db, accountId, ['c\\d'])).toEqual([]);

    await db.migrate.up({ migrationSource: migrations, name: MIGRATION });
    expect(await labelsText(holdsHome.id)).toBe('\nx\\nhome\n');
    expect(await labelsText(holdsSlash.id)).toBe('\nx\\nc\\\\d\na\\\\nb\n');
    expect(await labelsText(homes[0]!.id)).toBe('\nhome\n');
    expect(await walked(db, accountId, ['home'])).toEqual(homes.map((row) => row.title));
    expect(await walked(db, accountId, ['c\\d'])).toEqual(slashes.map((row) => row.title));
    // Labels of one task each, read through the full-text index or a walk as the plan chooses.
    expect(await titles(db, accountId, ['X\nHOME'])).toEqual(['Holds home']);
    expect(await titles(db, accountId, ['x\nC\\d', 'A\\NB'])).toEqual(['Holds slash']);
    expect(await titles(db, accountId, ['a\nb'])).toEqual([]);

    await db.migrate.down({ migrationSource: migrations, name: MIGRATION });
    expect(await labelsText(holdsHome.id)).toBe('\nx\nhome\n');
    expect(await labelsText(homes[0]!.id)).toBe('\nhome\n');
  });
});

const pageOf = (label: string[]) => ({ filters: taskFilters({ label }), sort: 'created' as const, limit: 1_000 });

/** Titles of the tasks with every label, in created order. */
async function titles(db: Db, accountId: string, label: string[]): Promise<string[]> {
  return (await findTaskPage(db, accountId, pageOf(label))).map((row) => row.title);
}

/** The same, read by a walk (checked in its statement). */
async function walked(db: Db, accountId: string, label: string[]): Promise<string[]> {
  expect((await pageStatement(db, accountId, pageOf(label))).sql).not.toMatch(/@@| match /);
  return titles(db, accountId, label);
}
