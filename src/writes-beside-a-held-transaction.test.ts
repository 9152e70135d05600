import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoginLockout } from './auth/login-lockout.js';
import { knexTransaction } from './platform/transaction.js';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from './test-support/databases.js';
import { createChangeCursors } from './tasks/change-cursor.js';
import { createTaskChangeRecorder } from './tasks/task-changes.js';
import { createTasksService } from './tasks/tasks.service.js';

describe.each(engines)('writes sent while a transaction is held open across an await, on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(() => store.drop());

  it('each commits or fails on its own once the transaction ends: the committed writes are all there, the failed one is not', async () => {
    const { db } = store;
    const tasks = createTasksService({ db, maxTasks: 10, changes: createTaskChangeRecorder(), cursors: createChangeCursors(randomBytes(32)), tombstoneRetentionDays: 7 });
    const lockout = createLoginLockout(db, { maxFailedAttempts: 5, lockoutMinutes: 15 });
    const accountId = await insertAccount(db, 0);
    const existing = (await tasks.create(accountId, { title: 'before' })).body;

    let release!: () => void;
    let opened!: () => void;
    const isOpen = new Promise<void>((resolve) => (opened = resolve));
    // A rare write's transaction (knex's: a refresh-token family, a webhook) waiting on a timer, as on a slow outside call.
    const held = knexTransaction(db, async (trx) => {
      await trx('accounts').where('id', accountId).update({ email: `held-${accountId}@example.com` });
      opened();
      await new Promise<void>((resolve) => (release = resolve));
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    await isOpen;
    const queued = Promise.allSettled([
      tasks.create(accountId, { title: 'created while held' }),
      lockout.reserveAttempt(`guess-${accountId}@example.com`),
      // If-Match on a version the task never had: refused, and nothing of it stays.
      tasks.update(accountId, existing.id, { title: 'lost' }, [existing.version + 5]),
      tasks.update(accountId, existing.id, { status: 'completed' }, [existing.version]),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    release();
    await held;
    const [created, attempt, stale, updated] = await queued;

    expect(created).toMatchObject({ status: 'fulfilled', value: { status: 201 } });
    expect(attempt).toEqual({ status: 'fulfilled', value: { allowed: true } });
    expect(stale).toMatchObject({ status: 'rejected', reason: { status: 412 } });
    expect(updated).toMatchObject({ status: 'fulfilled', value: { title: 'before', status: 'completed' } });
    expect(await db('accounts').where('id', accountId).first()).toMatchObject({ email: `held-${accountId}@example.com`, task_count: 2 });
    expect((await db('tasks').where('account_id', accountId).orderBy('title')).map((row: { title: string }) => row.title)).toEqual(['before', 'created while held']);
    expect(await db('login_attempts').where('email', `guess-${accountId}@example.com`).first()).toMatchObject({ failed_count: 1 });
  });
});
