import type { Knex } from 'knex';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppError } from '../platform/errors.js';
import { upsertExternalTasks } from './external-tasks.repository.js';
import { createChangeCursors } from './change-cursor.js';
import { createTaskChangeRecorder, type TaskChange } from './task-changes.js';
import { createTasksService } from './tasks.service.js';
import { createMigratedDb, engines, insertAccount, insertConnectorAccount, type MigratedDb } from '../test-support/databases.js';

const rejection = async (promise: Promise<unknown>): Promise<AppError> => {
  const error = await promise.then(
    () => undefined,
    (err: unknown) => err,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
};

describe.each(engines)('tasks service on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(async () => {
    await store.drop();
  });

  const setUp = async (maxTasks = 10_000, taskCount = 0) => {
    const accountId = await insertAccount(store.db, taskCount);
    const service = createTasksService({
      db: store.db,
      maxTasks,
      changes: createTaskChangeRecorder(),
      cursors: createChangeCursors(randomBytes(32)),
      tombstoneRetentionDays: 30,
    });
    const countOf = async () => Number((await store.db('tasks').where('account_id', accountId).count({ n: '*' }))[0]?.n);
    return { accountId, service, countOf };
  };

  describe('create, change and delete', () => {
    it('a new task gets the defaults, and one created completed has its completion time', async () => {
      const { accountId, service } = await setUp();
      const open = (await service.create(accountId, { title: 'Buy milk' })).body;
      expect(open).toMatchObject({ title: 'Buy milk', notes: null, status: 'open', priority: 3, dueAt: null, labels: [], completedAt: null, source: null });
      expect(open.createdAt).toBe(open.updatedAt);
      const done = (await service.create(accountId, { title: 'Done', status: 'completed', dueAt: '2026-12-01T17:00:00+02:00', labels: ['a', 'b'] })).body;
      expect(done).toMatchObject({ status: 'completed', dueAt: '2026-12-01T15:00:00.000Z', labels: ['a', 'b'] });
      expect(done.completedAt).toBe(done.createdAt);
      expect(await service.get(accountId, done.id)).toEqual(done);
    });

    it('completing sets completedAt once, completing again keeps it, reopening clears it, and null clears notes and dueAt', async () => {
      const { accountId, service } = await setUp();
      const task = (await service.create(accountId, { title: 't', notes: 'n', dueAt: '2026-01-01T00:00:00Z' })).body;
      const completed = await service.update(accountId, task.id, { status: 'completed' });
      expect(completed.completedAt).not.toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 5));
      const again = await service.update(accountId, task.id, { status: 'completed', title: 'renamed' });
      expect(again).toMatchObject({ title: 'renamed', completedAt: completed.completedAt });
      expect(Date.parse(again.updatedAt)).toBeGreaterThan(Date.parse(completed.updatedAt));
      expect(await service.update(accountId, task.id, { status: 'open', notes: null, dueAt: null })).toMatchObject({
        status: 'open',
        completedAt: null,
        notes: null,
        dueAt: null,
        title: 'renamed',
      });
    });

    it('times from year 0000 to 9999 in UTC are stored; a millisecond beyond either end is a validation error on the field', async () => {
      const { accountId, service, countOf } = await setUp();
      const first = (await service.create(accountId, { title: 'first', dueAt: '0000-01-01T00:00:00Z' })).body;
      expect(first.dueAt).toBe('0000-01-01T00:00:00.000Z');
      expect((await service.update(accountId, first.id, { dueAt: '9999-12-31T23:59:59.999Z' })).dueAt).toBe('9999-12-31T23:59:59.999Z');
      // In UTC: -0001-12-31T23:59:59.999Z and 10000-01-01T00:00:00.000Z.
      for (const time of ['0000-01-01T00:59:59.999+01:00', '9999-12-31T22:00:00-02:00']) {
        expect((await rejection(service.create(accountId, { title: 't', dueAt: time }))).toBody()).toMatchObject({
          statusCode: 400,
          details: [{ path: '/body/dueAt' }],
        });
        const change = await rejection(service.update(accountId, first.id, { dueAt: time }));
        expect(change.toBody()).toMatchObject({ details: [{ path: '/body/dueAt' }] });
        const page = await rejection(service.list(accountId, { updatedSince: time }));
        expect(page.toBody()).toMatchObject({ details: [{ path: '/query/updatedSince' }] });
      }
      expect(await countOf()).toBe(1);
    });

    it('a change sets only the fields it gives; each field alone leaves the others as they were', async () => {
      const { accountId, service } = await setUp();
      const task = (await service.create(accountId, { title: 't', notes: 'n', priority: 2, dueAt: '2026-01-01T00:00:00Z', labels: ['a'] })).body;
      const changes = [
        { title: 'renamed' },
        { notes: 'other notes' },
        { priority: 4 as const },
        { dueAt: '2027-02-03T04:05:06Z' },
        { labels: ['b', 'c'] },
        { status: 'completed' as const },
        {},
      ];
      let before = task;
      for (const change of changes) {
        const changed = await service.update(accountId, task.id, change);
        const { updatedAt: _changedAt, completedAt, version, ...fields } = changed;
        const { updatedAt: _updatedAt, completedAt: _completedAt, version: previousVersion, ...previous } = before;
        expect(fields).toEqual({ ...previous, ...change, ...(change.dueAt === undefined ? {} : { dueAt: new Date(change.dueAt).toISOString() }) });
        expect(version).toBe(previousVersion + 1);
        expect(completedAt === null).toBe(changed.status === 'open');
        before = changed;
      }
    });

    it("each create, change and delete takes the account's next change number, a refused change none", async () => {
      const { accountId, service } = await setUp();
      const numbers = async (taskId: string) => ({
        account: Number((await store.db('accounts').select('task_change_seq').where('id', accountId).first()).task_change_seq),
        task: (await store.db('tasks').select('change_seq').where('id', taskId).first())?.change_seq as number | undefined,
      });
      const task = (await service.create(accountId, { title: 'numbered' })).body;
      expect(await numbers(task.id)).toEqual({ account: 1, task: 1 });
      await service.update(accountId, task.id, { title: 'once' });
      await service.update(accountId, task.id, { priority: 1 }, [2]);
      expect(await numbers(task.id)).toEqual({ account: 3, task: 3 });
      expect((await rejection(service.update(accountId, task.id, { title: 'stale' }, [1]))).toBody()).toMatchObject({ statusCode: 412 });
      expect((await rejection(service.update(accountId, randomUUID(), { title: 'none' }))).toBody()).toMatchObject({ statusCode: 404 });
      expect(await numbers(task.id)).toEqual({ account: 3, task: 3 });
      await service.remove(accountId, task.id);
      expect(await numbers(task.id)).toEqual({ account: 4, task: undefined });
    });

    it('If-Match with several versions applies when any of them is the current one, else is 412 with the current version', async () => {
      const { accountId, service } = await setUp();
      const task = (await service.create(accountId, { title: 'v1' })).body;
      for (const [expected, applies] of [
        [[7, 1, 9], true],
        [[3, 4, 5, 6, 2], true],
        [[2], false],
        [[4, 5, 6, 7, 8, 9, 10, 11, 1], false],
        [[], false],
        [[1, 2, 3], true],
      ] as const) {
        const version = (await service.get(accountId, task.id)).version;
        const attempt = service.update(accountId, task.id, { title: `after ${version}` }, expected);
        if (applies) expect((await attempt).version).toBe(version + 1);
        else expect((await rejection(attempt)).toBody()).toMatchObject({ statusCode: 412, code: 'PRECONDITION_FAILED' });
      }
      expect((await service.get(accountId, task.id)).version).toBe(4);
    });

    it("another account's task is not found for reading, changing or deleting, and stays as it was", async () => {
      const owner = await setUp();
      const other = await setUp();
      const task = (await owner.service.create(owner.accountId, { title: 'mine' })).body;
      // One at a time: started together, a refusal could land before anything awaits it (an unhandled rejection).
      for (const attempt of [
        () => other.service.get(other.accountId, task.id),
        () => other.service.update(other.accountId, task.id, { title: 'theirs' }),
        () => other.service.remove(other.accountId, task.id),
      ]) {
        expect((await rejection(attempt())).toBody()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
      }
      expect(await owner.service.get(owner.accountId, task.id)).toEqual(task);
      expect(await owner.service.usage(owner.accountId)).toEqual({ limit: 10_000, used: 1 });
    });
  });

  describe('an empty poll of the change feed', () => {
    it('hands back a cursor issued within the minute as it came, a new one after that, and sees a change either way', async () => {
      const { accountId, service } = await setUp();
      await service.create(accountId, { title: 'seen in the initial sync' });
      const initial = await service.changes(accountId, {});
      const quiet = await service.changes(accountId, { cursor: initial.nextCursor });
      expect(quiet).toEqual({ changes: [], nextCursor: initial.nextCursor, hasMore: false });

      vi.useFakeTimers({ now: Date.now() + 61_000, toFake: ['Date'] });
      try {
        const later = await service.changes(accountId, { cursor: quiet.nextCursor });
        expect(later.changes).toEqual([]);
        expect(later.nextCursor).not.toBe(quiet.nextCursor);
        const created = (await service.create(accountId, { title: 'made after the quiet polls' })).body;
        for (const cursor of [quiet.nextCursor, later.nextCursor]) {
          expect((await service.changes(accountId, { cursor })).changes).toEqual([{ kind: 'upserted', task: created }]);
        }
      } finally {
        vi.useRealTimers();
      }
    });

    it('takes the last change number read earlier in the request, and lists the changes when it differs from the cursor', async () => {
      const { accountId, service } = await setUp();
      const initial = await service.changes(accountId, {});
      const created = (await service.create(accountId, { title: 'a change' })).body;
      expect((await service.changes(accountId, { cursor: initial.nextCursor }, 1)).changes).toEqual([{ kind: 'upserted', task: created }]);
      // A number read before the change committed: this poll is empty, the next one sees the change.
      expect((await service.changes(accountId, { cursor: initial.nextCursor }, 0)).changes).toEqual([]);
    });
  });

  describe('a listener that records in the transaction', () => {
    // A listener is heard through `record`, or through its step where the write runs it as a statement of
    // its own (SQLite's synchronous transactions): `hear` stands for either, creates left out.
    const serviceHeard = (hear: (change: TaskChange) => void) =>
      createTasksService({
        db: store.db,
        maxTasks: 10,
        changes: createTaskChangeRecorder({
          record: async (_trx, change) => hear(change),
          step: { build: (db: Knex) => db.raw('select 1'), values: (change) => (change.kind === 'created' ? [] : (hear(change), [])), committed: () => undefined },
        }),
        cursors: createChangeCursors(randomBytes(32)),
        tombstoneRetentionDays: 30,
      });

    it('hears an update in its transaction, and a throw there undoes the update: the task and its change number as they were', async () => {
      const accountId = await insertAccount(store.db);
      const heard: TaskChange[] = [];
      const service = serviceHeard((change) => void heard.push(change));
      const created = (await service.create(accountId, { title: 'heard' })).body;
      const updated = await service.update(accountId, created.id, { title: 'heard again' });
      expect(heard).toEqual([{ kind: 'updated', accountId, task: updated }]);

      const before = await store.db('accounts').where('id', accountId).first('task_count', 'task_change_seq');
      const failing = serviceHeard(() => {
        throw new Error('the listener failed');
      });
      await expect(failing.update(accountId, created.id, { title: 'undone' })).rejects.toThrow('the listener failed');
      expect(await store.db('accounts').where('id', accountId).first('task_count', 'task_change_seq')).toEqual(before);
      expect(await store.db('tasks').where('account_id', accountId).pluck('title')).toEqual(['heard again']);
    });
  });

  describe('the task cap', () => {
    it('parallel creates past the cap: exactly the free places succeed and the rest are QUOTA_EXCEEDED', async () => {
      const { accountId, service, countOf } = await setUp(25, 15);
      const results = await Promise.allSettled(Array.from({ length: 30 }, (_, i) => service.create(accountId, { title: `t${i}` })));
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(10);
      const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      expect(refused).toHaveLength(20);
      for (const { reason } of refused) {
        expect((reason as AppError).toBody()).toMatchObject({ statusCode: 403, code: 'QUOTA_EXCEEDED', quota: 'tasks', limit: 25, used: 25 });
      }
      expect(await countOf()).toBe(10);
      expect(await service.usage(accountId)).toEqual({ limit: 25, used: 25 });
    });

    it('deleting a task frees a place and changing one is allowed at the cap', async () => {
      const { accountId, service } = await setUp(2);
      const first = (await service.create(accountId, { title: 'a' })).body;
      await service.create(accountId, { title: 'b' });
      expect((await rejection(service.create(accountId, { title: 'c' }))).code).toBe('QUOTA_EXCEEDED');
      expect(await service.update(accountId, first.id, { priority: 1 })).toMatchObject({ priority: 1 });
      await service.remove(accountId, first.id);
      expect(await service.usage(accountId)).toEqual({ limit: 2, used: 1 });
      expect((await service.create(accountId, { title: 'c' })).status).toBe(201);
      expect((await rejection(service.remove(accountId, first.id))).code).toBe('NOT_FOUND');
      expect(await service.usage(accountId)).toEqual({ limit: 2, used: 2 });
    });

    it('creates and a sync racing for the last places never take the account past the cap', async () => {
      const { accountId, service, countOf } = await setUp(50, 30);
      const connectorAccountId = await insertConnectorAccount(store.db, accountId);
      const items = Array.from({ length: 15 }, (_, i) => ({
        externalId: `e${i}`,
        title: `e${i}`,
        notes: null,
        status: 'open' as const,
        completedAt: null,
        dueAt: null,
        url: null,
      }));
      const [sync, ...creates] = await Promise.allSettled([
        upsertExternalTasks(store.db, { accountId, connectorAccountId, connectorType: 'github', maxTasks: 50, items }, createTaskChangeRecorder()),
        ...Array.from({ length: 15 }, (_, i) => service.create(accountId, { title: `t${i}` })),
      ]);
      const synced = sync.status === 'fulfilled' ? sync.value.created : 0;
      const created = creates.filter((result) => result.status === 'fulfilled').length;
      expect(synced + created).toBe(20);
      expect(await countOf()).toBe(20);
      expect(await service.usage(accountId)).toEqual({ limit: 50, used: 50 });
    });
  });

  describe('Idempotency-Key', () => {
    it('a repeat with the same key and body answers the first response and creates nothing', async () => {
      const { accountId, service, countOf } = await setUp();
      const key = randomUUID();
      const first = await service.create(accountId, { title: 'once', labels: ['x'], priority: 2 }, key);
      const again = await service.create(accountId, { priority: 2, labels: ['x'], title: 'once' }, key);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(await countOf()).toBe(1);
    });

    it('the same key with another body is IDEMPOTENCY_KEY_REUSED, and another account may use the same key', async () => {
      const { accountId, service } = await setUp();
      const other = await setUp();
      await service.create(accountId, { title: 'first' }, 'shared-key');
      expect((await rejection(service.create(accountId, { title: 'second' }, 'shared-key'))).toBody()).toMatchObject({
        statusCode: 422,
        code: 'IDEMPOTENCY_KEY_REUSED',
      });
      expect((await other.service.create(other.accountId, { title: 'second' }, 'shared-key')).body.title).toBe('second');
    });

    it('parallel requests with the same key create one task and all answer it', async () => {
      const { accountId, service, countOf } = await setUp();
      const responses = await Promise.all(Array.from({ length: 10 }, () => service.create(accountId, { title: 'parallel' }, 'same')));
      expect(new Set(responses.map((response) => response.body.id)).size).toBe(1);
      expect(await countOf()).toBe(1);
      expect(await service.usage(accountId)).toMatchObject({ used: 1 });
    });

    it('a key older than 24 hours is free again', async () => {
      const { accountId, service, countOf } = await setUp();
      const first = await service.create(accountId, { title: 'old' }, 'daily');
      await store.db('idempotency_keys').where({ account_id: accountId }).update({ created_at: Date.now() - 24 * 3600_000 - 1 });
      const second = await service.create(accountId, { title: 'new' }, 'daily');
      expect(second.body.id).not.toBe(first.body.id);
      expect(await countOf()).toBe(2);
    });

    it('a create refused at the cap is not remembered: the same key succeeds once a place is free', async () => {
      const { accountId, service } = await setUp(1);
      const blocker = (await service.create(accountId, { title: 'blocker' })).body;
      expect((await rejection(service.create(accountId, { title: 'later' }, 'retry-me'))).code).toBe('QUOTA_EXCEEDED');
      await service.remove(accountId, blocker.id);
      expect((await service.create(accountId, { title: 'later' }, 'retry-me')).status).toBe(201);
    });
  });

  describe('listing', () => {
    const walk = async (
      service: ReturnType<typeof createTasksService>,
      accountId: string,
      limit: number,
      between?: (page: number, seenSoFar: string[]) => Promise<void>,
    ) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      let page = 0;
      do {
        const result = await service.list(accountId, { limit, cursor });
        expect(result.items.length).toBeLessThanOrEqual(limit);
        seen.push(...result.items.map((task) => task.id));
        cursor = result.nextCursor ?? undefined;
        await between?.(page++, seen);
      } while (cursor);
      return seen;
    };

    it('a walk with inserts and deletes in between sees every task that stayed exactly once', async () => {
      const { accountId, service } = await setUp();
      const created: string[] = [];
      for (let i = 0; i < 23; i++) created.push((await service.create(accountId, { title: `t${i}` })).body.id);
      // After two pages of 5: one deletion behind the walk (already seen), three ahead of it (not yet seen).
      const ahead = new Set<string>();
      const seen = await walk(service, accountId, 5, async (page, seenSoFar) => {
        if (page !== 1) return;
        for (const id of created.filter((one) => !seenSoFar.includes(one)).slice(2, 5)) ahead.add(id);
        for (const id of [...seenSoFar.slice(0, 1), ...ahead]) await service.remove(accountId, id);
        await service.create(accountId, { title: 'inserted during the walk' });
      });
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen.filter((id) => created.includes(id)).sort()).toEqual(created.filter((id) => !ahead.has(id)).sort());
    });

    it('tasks created in the same millisecond are ordered by id and none is lost between pages', async () => {
      const { accountId, service } = await setUp();
      const now = Date.now();
      const ids = Array.from({ length: 7 }, () => randomUUID());
      await store.db('tasks').insert(
        ids.map((id, i) => ({ id, account_id: accountId, title: id, status: 'open', priority: 3, labels: '[]', created_at: now, updated_at: now, change_seq: 1000 + i })),
      );
      expect(await walk(service, accountId, 2)).toEqual([...ids].sort());
    });

    it('filters by status and by updatedSince, and the last page has no next cursor', async () => {
      const { accountId, service } = await setUp();
      const open = (await service.create(accountId, { title: 'open' })).body;
      const done = (await service.create(accountId, { title: 'done', status: 'completed' })).body;
      await store.db('tasks').where('id', open.id).update({ updated_at: Date.parse('2020-01-01T00:00:00Z') });
      expect((await service.list(accountId, { status: 'open' })).items.map((task) => task.id)).toEqual([open.id]);
      expect((await service.list(accountId, { status: 'completed' })).items.map((task) => task.id)).toEqual([done.id]);
      expect((await service.list(accountId, { status: 'all' })).items).toHaveLength(2);
      const recent = await service.list(accountId, { updatedSince: '2021-01-01T00:00:00Z' });
      expect(recent).toEqual({ items: [done], nextCursor: null });
    });

    it('a cursor this service did not issue is a validation error on /query/cursor', async () => {
      const { accountId, service } = await setUp();
      for (const cursor of ['garbage', Buffer.from('[1,"x"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
        expect((await rejection(service.list(accountId, { cursor }))).toBody()).toMatchObject({
          statusCode: 400,
          code: 'VALIDATION_FAILED',
          details: [{ path: '/query/cursor' }],
        });
      }
    });
  });
});
