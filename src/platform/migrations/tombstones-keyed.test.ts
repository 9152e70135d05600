import { describe, expect, it } from 'vitest';
import { insertAccount } from '../../test-support/databases.js';
import { closeDb, createDb } from '../db.js';
import { migrations } from './index.js';

const tableSql = async (db: ReturnType<typeof createDb>) =>
  ((await db.raw("select sql from sqlite_master where type = 'table' and name = 'task_tombstones'")) as { sql: string }[])[0]!.sql;

describe('011: SQLite keeps tombstones in their primary key order', () => {
  it('rebuilds the table WITHOUT ROWID keeping every tombstone, its key, index and cascade; down puts the rowid table back', async () => {
    const db = createDb({ client: 'sqlite', filename: ':memory:' });
    try {
      await db.migrate.latest({ migrationSource: migrations });
      // Down to before 011: the later ones first.
      for (const name of ['013-task-title-prefix', '012-tombstones-without-age-index', '011-tombstones-keyed']) await db.migrate.down({ migrationSource: migrations, name });
      expect(await tableSql(db)).not.toMatch(/without rowid/i);
      const accountId = await insertAccount(db);
      const tombstones = [1, 2, 3].map((n) => ({ account_id: accountId, change_seq: n, task_id: `task-${n}`, deleted_at: 1_000 * n }));
      await db('task_tombstones').insert(tombstones);

      await db.migrate.up({ migrationSource: migrations, name: '011-tombstones-keyed' });
      expect(await tableSql(db)).toMatch(/without rowid/i);
      expect(await db('task_tombstones').orderBy('change_seq')).toEqual(tombstones);
      await expect(db('task_tombstones').insert(tombstones[0])).rejects.toThrow(/UNIQUE|PRIMARY KEY/i);
      const indexes = (await db.raw("select name from sqlite_master where type = 'index' and tbl_name = 'task_tombstones'")) as { name: string }[];
      expect(indexes.map((index) => index.name)).toContain('task_tombstones_account_id_deleted_at_index');
      await db('accounts').where('id', accountId).delete();
      expect(await db('task_tombstones').count({ n: '*' })).toEqual([{ n: 0 }]);
    } finally {
      await closeDb(db);
    }
  });
});
