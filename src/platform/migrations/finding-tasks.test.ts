import { describe, expect, it } from 'vitest';
import { findTaskPage } from '../../tasks/task-search.repository.js';
import { taskFilters } from '../../tasks/task-filters.js';
import { insertAccount, storedTaskRow } from '../../test-support/databases.js';
import { closeDb, createDb } from '../db.js';
import { migrations } from './index.js';

describe('014 and 015: finding tasks migrates the tasks stored before it', () => {
  it("indexes every stored task's words and labels and writes its search texts, so that filters find tasks written before them; down drops what each made", async () => {
    const db = createDb({ client: 'sqlite', filename: ':memory:' });
    try {
      await db.migrate.latest({ migrationSource: migrations });
      await db.migrate.down({ migrationSource: migrations, name: '016-task-search-terms' });
      await db.migrate.down({ migrationSource: migrations, name: '015-task-search-texts' });
      await db.migrate.down({ migrationSource: migrations, name: '014-finding-tasks' });
      const accountId = await insertAccount(db);
      const task = (i: number, title: string, notes: string | null, labels: string[]) => storedTaskRow(accountId, i, title, notes, labels);
      // More than one batch of the migration's backfill.
      const rows = Array.from({ length: 1_203 }, (_, i) => task(i, `Filler ${i}`, null, ['bulk']));
      rows.push(task(2_000, 'Café au lait', 'Ask Zoë', ['Home', 'home', 'Errands']));
      await db.batchInsert('tasks', rows, 200);

      await db.migrate.up({ migrationSource: migrations, name: '014-finding-tasks' });
      await db.migrate.up({ migrationSource: migrations, name: '015-task-search-texts' });
      await db.migrate.up({ migrationSource: migrations, name: '016-task-search-terms' });
      const find = async (query: Parameters<typeof taskFilters>[0]) =>
        (await findTaskPage(db, accountId, { filters: taskFilters(query), sort: 'created', limit: 10 })).rows.map((row) => row.title);
      expect(await find({ q: 'cafe zoe' })).toEqual(['Café au lait']);
      expect(await find({ label: ['HOME', 'errands'] })).toEqual(['Café au lait']);
      expect(await find({ q: 'filler 1202' })).toEqual(['Filler 1202']);
      expect(await db('task_labels').where({ label: 'bulk' }).count({ n: '*' })).toEqual([{ n: 1_203 }]);
      // A walk in order tests each row's search texts (src/tasks/task-index.repository.ts).
      expect(await db('tasks').where({ title: 'Café au lait' }).first('search_words', 'search_labels')).toEqual({
        search_words: ' cafe au lait ask zoe',
        search_labels: '\nhome\nerrands\n',
      });
      expect(await db('tasks').whereNull('search_words').count({ n: '*' })).toEqual([{ n: 0 }]);

      await db.migrate.down({ migrationSource: migrations, name: '016-task-search-terms' });
      await db.migrate.down({ migrationSource: migrations, name: '015-task-search-texts' });
      expect(await db.schema.hasColumn('tasks', 'search_words')).toBe(false);
      expect(await db.schema.hasColumn('tasks', 'search_labels')).toBe(false);

      await db.migrate.down({ migrationSource: migrations, name: '014-finding-tasks' });
      expect(await db.schema.hasTable('task_words')).toBe(false);
      expect(await db.schema.hasTable('task_labels')).toBe(false);
      expect(await db('tasks').count({ n: '*' })).toEqual([{ n: 1_204 }]);
    } finally {
      await closeDb(db);
    }
  });
});
