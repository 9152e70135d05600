import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detachConnectorTasks, upsertExternalTasks, type ExternalTask } from './external-tasks.repository.js';
import { createTaskChangeRecorder } from './task-changes.js';
import { createMigratedDb, engines, insertAccount, insertConnectorAccount, type MigratedDb } from '../test-support/databases.js';

const item = (externalId: string, overrides: Partial<ExternalTask> = {}): ExternalTask => ({
  externalId,
  title: `Issue ${externalId}`,
  notes: null,
  status: 'open',
  completedAt: null,
  dueAt: null,
  url: `https://example.com/${externalId}`,
  ...overrides,
});
const items = (count: number, prefix = 'x') => Array.from({ length: count }, (_, i) => item(`${prefix}${i}`));

const changes = createTaskChangeRecorder();

describe.each(engines)('upsertExternalTasks on %s', (engine) => {
  let store: MigratedDb;
  beforeAll(async () => {
    store = await createMigratedDb(engine);
  });
  afterAll(async () => {
    await store.drop();
  });

  const setUp = async (taskCount = 0) => {
    const accountId = await insertAccount(store.db, taskCount);
    const connectorAccountId = await insertConnectorAccount(store.db, accountId);
    const sync = (batch: ExternalTask[], maxTasks = 10_000) =>
      upsertExternalTasks(store.db, { accountId, connectorAccountId, connectorType: 'github', maxTasks, items: batch }, changes);
    const taskCountOf = async () => Number((await store.db('accounts').where('id', accountId).first()).task_count);
    const rowsOf = () => store.db('tasks').where('account_id', accountId).orderBy('external_id');
    return { accountId, connectorAccountId, sync, taskCountOf, rowsOf };
  };

  it('inserts new items with their source and counts them in the account task counter', async () => {
    const { sync, taskCountOf, rowsOf, connectorAccountId } = await setUp();
    const counts = await sync([item('a', { dueAt: 1_700_000_000_000 }), item('b', { status: 'completed', completedAt: 1_600_000_000_000 })]);
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, droppedOverQuota: 0 });
    const rows = await rowsOf();
    expect(rows.map((row) => [row.external_id, row.status, Number(row.completed_at) || null, Number(row.due_at) || null])).toEqual([
      ['a', 'open', null, 1_700_000_000_000],
      ['b', 'completed', 1_600_000_000_000, null],
    ]);
    expect(rows.every((row) => row.connector_account_id === connectorAccountId && row.connector_type === 'github')).toBe(true);
    expect(await taskCountOf()).toBe(2);
  });

  it('a second sync of the same items changes nothing, and a changed item is updated in place', async () => {
    const { sync, rowsOf, taskCountOf } = await setUp();
    await sync([item('a'), item('b')]);
    const before = await rowsOf();
    expect(await sync([item('a'), item('b')])).toEqual({ created: 0, updated: 0, unchanged: 2, droppedOverQuota: 0 });

    const counts = await sync([item('a', { title: 'Renamed', status: 'completed', completedAt: 1_650_000_000_000 }), item('b')]);
    expect(counts).toEqual({ created: 0, updated: 1, unchanged: 1, droppedOverQuota: 0 });
    const after = await rowsOf();
    expect(after[0]).toMatchObject({ id: before[0].id, title: 'Renamed', status: 'completed' });
    expect(Number(after[0].completed_at)).toBe(1_650_000_000_000);
    expect(Number(after[0].updated_at)).toBeGreaterThanOrEqual(Number(before[0].updated_at));
    expect(after[1]).toEqual(before[1]);
    expect(await taskCountOf()).toBe(2);
  });

  it('reopening an item clears its completion time; a completed item without a time keeps the first one seen', async () => {
    const { sync, rowsOf } = await setUp();
    await sync([item('a', { status: 'completed' })]);
    const completedAt = Number((await rowsOf())[0].completed_at);
    expect(completedAt).toBeGreaterThan(0);
    expect(await sync([item('a', { status: 'completed' })])).toMatchObject({ unchanged: 1 });
    expect(Number((await rowsOf())[0].completed_at)).toBe(completedAt);
    expect(await sync([item('a', { status: 'open', completedAt: 123 })])).toMatchObject({ updated: 1 });
    expect((await rowsOf())[0]).toMatchObject({ status: 'open', completed_at: null });
  });

  it('at the cap, known items still update and new ones are counted as dropped', async () => {
    const { sync, taskCountOf, rowsOf } = await setUp();
    expect(await sync(items(4), 5)).toMatchObject({ created: 4 });
    const counts = await sync([item('x0', { title: 'changed' }), ...items(3, 'new')], 5);
    expect(counts).toEqual({ created: 1, updated: 1, unchanged: 0, droppedOverQuota: 2 });
    expect(await taskCountOf()).toBe(5);
    expect(await rowsOf()).toHaveLength(5);
    expect(await sync([item('x0', { title: 'changed again' }), item('new9')], 5)).toEqual({
      created: 0,
      updated: 1,
      unchanged: 0,
      droppedOverQuota: 1,
    });
  });

  it('an item repeated within a batch is stored once, with its last version', async () => {
    const { sync, rowsOf } = await setUp();
    expect(await sync([item('a', { title: 'first' }), item('a', { title: 'last' })])).toMatchObject({ created: 1 });
    expect((await rowsOf()).map((row) => row.title)).toEqual(['last']);
  });

  it('titles are trimmed to 500 characters and a blank one gets a placeholder', async () => {
    const { sync, rowsOf } = await setUp();
    await sync([item('a', { title: '😀'.repeat(600) }), item('b', { title: '   ' })]);
    const [long, blank] = await rowsOf();
    expect(Array.from(long.title)).toHaveLength(500);
    expect(blank.title).toBe('(untitled)');
  });

  it('notes are cut to the 10,000 characters the API accepts, on insert and on update', async () => {
    const { sync, rowsOf } = await setUp();
    await sync([item('a', { notes: '😀'.repeat(10_500) })]);
    expect(Array.from((await rowsOf())[0].notes)).toHaveLength(10_000);
    expect(await sync([item('a', { notes: `${'n'.repeat(10_000)}more` })])).toMatchObject({ updated: 1 });
    expect((await rowsOf())[0].notes).toBe('n'.repeat(10_000));
    expect(await sync([item('a', { notes: `${'n'.repeat(10_000)}other` })])).toMatchObject({ unchanged: 1 });
  });

  it('NUL characters, which PostgreSQL text refuses, are removed from title, notes, external id and url without failing the batch', async () => {
    const { sync, rowsOf } = await setUp();
    const counts = await sync([
      item('a\u0000', { title: 'Ti\u0000tle', notes: 'no\u0000tes', url: 'https://example.com/\u0000a' }),
      item('b', { title: '\u0000' }),
      item('a', { title: 'Title again' }),
    ]);
    expect(counts).toEqual({ created: 2, updated: 0, unchanged: 0, droppedOverQuota: 0 });
    const rows = await rowsOf();
    expect(rows.map((row) => [row.external_id, row.title, row.notes, row.external_url])).toEqual([
      ['a', 'Title again', null, 'https://example.com/a'],
      ['b', '(untitled)', null, 'https://example.com/b'],
    ]);
    expect(await sync([item('a', { title: 'Ti\u0000tle', notes: 'no\u0000tes' })])).toMatchObject({ updated: 1 });
    expect((await rowsOf())[0]).toMatchObject({ title: 'Title', notes: 'notes' });
  });

  it('parallel syncs of two connector accounts never take the account past its cap', async () => {
    const { accountId, sync, taskCountOf, rowsOf } = await setUp(90);
    const other = await insertConnectorAccount(store.db, accountId, 'ical');
    const syncOther = (batch: ExternalTask[]) =>
      upsertExternalTasks(store.db, { accountId, connectorAccountId: other, connectorType: 'ical', maxTasks: 100, items: batch }, changes);
    const results = await Promise.all([
      ...Array.from({ length: 4 }, (_, i) => sync(items(5, `g${i}-`), 100)),
      ...Array.from({ length: 4 }, (_, i) => syncOther(items(5, `i${i}-`))),
    ]);
    expect(results.reduce((sum, counts) => sum + counts.created, 0)).toBe(10);
    expect(results.reduce((sum, counts) => sum + counts.droppedOverQuota, 0)).toBe(30);
    expect(await taskCountOf()).toBe(100);
    expect(await rowsOf()).toHaveLength(10);
  });

  it('a sync of 10,000 items in batches of 500 creates each once; a second pass finds them unchanged, a third updates them', async () => {
    const { sync, taskCountOf, connectorAccountId } = await setUp();
    const all = items(10_000);
    const batches = Array.from({ length: 20 }, (_, i) => all.slice(i * 500, (i + 1) * 500));
    let created = 0;
    for (const batch of batches) created += (await sync(batch)).created;
    expect(created).toBe(10_000);
    let unchanged = 0;
    for (const batch of batches) unchanged += (await sync(batch)).unchanged;
    expect(unchanged).toBe(10_000);
    let updated = 0;
    for (const batch of batches) updated += (await sync(batch.map((one) => ({ ...one, dueAt: 1_800_000_000_000 })))).updated;
    expect(updated).toBe(10_000);
    expect(await store.db('tasks').where({ connector_account_id: connectorAccountId, due_at: 1_800_000_000_000 }).count({ n: '*' })).toEqual([
      { n: 10_000 },
    ]);
    expect(await taskCountOf()).toBe(10_000);
  });

  it('detaching a connector account keeps its tasks as local tasks and keeps them counted', async () => {
    const { accountId, sync, connectorAccountId, rowsOf, taskCountOf } = await setUp();
    await sync(items(3));
    expect(await store.db.transaction((trx) => detachConnectorTasks(trx, { accountId, connectorAccountId }, changes))).toBe(3);
    const rows = await rowsOf();
    expect(rows).toHaveLength(3);
    expect(rows.every((row) => row.connector_account_id === null && row.external_id === null && row.external_url === null)).toBe(true);
    expect(await taskCountOf()).toBe(3);
  });
});
