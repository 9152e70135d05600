import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../../test-support/databases.js';
import { isPostgres } from '../db.js';
import { migrations } from './index.js';

const AGE_INDEX = 'task_tombstones_account_id_deleted_at_index';

describe.each(engines)('012: tombstones without the index on deleted_at, on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(async () => {
    await store.drop();
  });

  const indexes = async (): Promise<string[]> => {
    const { db } = store;
    if (isPostgres(db)) return ((await db.raw("select indexname as name from pg_indexes where tablename = 'task_tombstones'")) as { rows: { name: string }[] }).rows.map((row) => row.name);
    return ((await db.raw("select name from sqlite_master where type = 'index' and tbl_name = 'task_tombstones'")) as { name: string }[]).map((row) => row.name);
  };

  it('drops the index and keeps every tombstone; down puts the index back', async () => {
    const accountId = await insertAccount(store.db);
    const tombstones = [1, 2, 3].map((n) => ({ account_id: accountId, change_seq: n, task_id: `task-${n}`, deleted_at: 1_000 * n }));
    await store.db('task_tombstones').insert(tombstones);
    expect(await indexes()).not.toContain(AGE_INDEX);

    await store.db.migrate.down({ migrationSource: migrations, name: '012-tombstones-without-age-index' });
    expect(await indexes()).toContain(AGE_INDEX);
    await store.db.migrate.latest({ migrationSource: migrations });
    expect(await indexes()).not.toContain(AGE_INDEX);
    const kept = await store.db('task_tombstones').where('account_id', accountId).orderBy('change_seq');
    expect(kept.map((row) => ({ ...row, change_seq: Number(row.change_seq), deleted_at: Number(row.deleted_at) }))).toEqual(tombstones);
  });
});
