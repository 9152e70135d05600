import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteLeavingTombstone, purgeTombstones, type TaskDeletion } from './task-feed.repository.js';
import { insertTask, newTaskRow } from './tasks.repository.js';
import { transaction } from '../platform/transaction.js';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';

const NOW = 1_700_000_000_000;

describe.each(engines)('deleteLeavingTombstone and purgeTombstones on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(async () => {
    await store.drop();
  });

  const setUp = async () => {
    const accountId = await insertAccount(store.db);
    const taskId = randomUUID();
    await insertTask(store.db, newTaskRow(accountId, { id: taskId, title: 'gone soon', notes: null, status: 'open', priority: 0, dueAt: null, labels: [] }, NOW), 1);
    const remove = (deletion: Partial<TaskDeletion>) =>
      transaction(store.db, (trx) => deleteLeavingTombstone(trx, { accountId, taskId, expected: undefined, changeNumber: 2, deletedAt: NOW + 1, ...deletion }));
    const taskIds = async () => (await store.db('tasks').where('account_id', accountId).select('id')).map((row) => row.id as string);
    const tombstones = async () =>
      (await store.db('task_tombstones').where('account_id', accountId).orderBy('change_seq')).map((row) => [row.task_id, Number(row.change_seq), Number(row.deleted_at)]);
    return { accountId, taskId, remove, taskIds, tombstones };
  };

  it('deletes the task and leaves its tombstone under the change number', async () => {
    const { taskId, remove, taskIds, tombstones } = await setUp();
    expect(await remove({ changeNumber: 7, deletedAt: NOW + 5 })).toBe(true);
    expect(await taskIds()).toEqual([]);
    expect(await tombstones()).toEqual([[taskId, 7, NOW + 5]]);
  });

  it('deletes only at an expected version, whatever the length of the list', async () => {
    const { taskId, remove, taskIds, tombstones } = await setUp();
    await store.db('tasks').where('id', taskId).update({ version: 3 });
    expect(await remove({ expected: [] })).toBe(false);
    expect(await remove({ expected: [1] })).toBe(false);
    expect(await remove({ expected: [1, 2, 4] })).toBe(false);
    expect(await taskIds()).toEqual([taskId]);
    expect(await tombstones()).toEqual([]);
    // Three versions run in the shape for four, the last one repeated: the match may be the one repeated.
    expect(await remove({ expected: [1, 2, 3] })).toBe(true);
    expect(await tombstones()).toEqual([[taskId, 2, NOW + 1]]);
  });

  it("is false for no such task, or another account's, and leaves no tombstone", async () => {
    const { taskId, remove, taskIds, tombstones } = await setUp();
    const other = await setUp();
    expect(await remove({ taskId: randomUUID() })).toBe(false);
    expect(await remove({ taskId: other.taskId })).toBe(false);
    expect(await taskIds()).toEqual([taskId]);
    expect(await other.taskIds()).toEqual([other.taskId]);
    expect(await tombstones()).toEqual([]);
  });

  it("purges the account's tombstones of deletions before the time given, and no others", async () => {
    const mine = await setUp();
    const other = await setUp();
    await store.db('task_tombstones').insert([
      { account_id: mine.accountId, change_seq: 10, task_id: randomUUID(), deleted_at: NOW - 2 },
      { account_id: mine.accountId, change_seq: 11, task_id: randomUUID(), deleted_at: NOW - 1 },
      { account_id: mine.accountId, change_seq: 12, task_id: 'kept', deleted_at: NOW },
      { account_id: other.accountId, change_seq: 10, task_id: 'other', deleted_at: NOW - 2 },
    ]);
    expect(await purgeTombstones(store.db, mine.accountId, NOW)).toBe(2);
    expect(await mine.tombstones()).toEqual([['kept', 12, NOW]]);
    expect(await other.tombstones()).toEqual([['other', 10, NOW - 2]]);
  });

  it('purges by change number, oldest first, up to the first tombstone it keeps; all of them when none is kept', async () => {
    const mine = await setUp();
    // 13's deletion is older than 12's: its instance's clock was behind. It waits for a later purge.
    await store.db('task_tombstones').insert([
      { account_id: mine.accountId, change_seq: 11, task_id: 'purged', deleted_at: NOW - 5 },
      { account_id: mine.accountId, change_seq: 12, task_id: 'kept', deleted_at: NOW },
      { account_id: mine.accountId, change_seq: 13, task_id: 'later', deleted_at: NOW - 1 },
    ]);
    expect(await purgeTombstones(store.db, mine.accountId, NOW)).toBe(1);
    expect(await mine.tombstones()).toEqual([
      ['kept', 12, NOW],
      ['later', 13, NOW - 1],
    ]);
    expect(await purgeTombstones(store.db, mine.accountId, NOW + 1)).toBe(2);
    expect(await mine.tombstones()).toEqual([]);
  });
});
