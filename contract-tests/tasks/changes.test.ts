import { createHmac, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TaskChange, TaskClient } from '@task-service/sdk';
import { syncAndWait } from '../support/connectors.js';
import { manyIssues, startFakeGithub, type FakeGithub } from '../support/fakes/github.fake.js';
import { PASSWORD, signedInClient, startServer, TEST_JWT_SECRET, type TestServer } from '../support/server.js';

// The change feed and conditional requests of decisions §15, on the engine of this project run.

let server: TestServer;
let github: FakeGithub;
beforeAll(async () => {
  [server, github] = await Promise.all([startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }), startFakeGithub()]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), github?.close()]);
});

/** Follows the feed from `cursor` to its end: every change, and the cursor to keep. */
async function drain(client: TaskClient, cursor?: string, limit?: number) {
  const changes: TaskChange[] = [];
  const walk = client.followTaskChanges(cursor, { limit });
  let kept = cursor;
  for await (const page of walk) {
    changes.push(...page.changes);
    kept = page.cursor;
  }
  return { changes, cursor: kept! };
}

const summary = (change: TaskChange) =>
  change.kind === 'upserted' ? { kind: change.kind, id: change.task.id, version: change.task.version } : { kind: change.kind, id: change.taskId };

describe('the change feed', () => {
  it('starts empty for a new account with a cursor that later shows every create, in commit order', async () => {
    const { client } = await signedInClient(server);
    const empty = await client.listTaskChanges();
    expect(empty.data).toEqual({ changes: [], nextCursor: expect.any(String), hasMore: false });

    const first = (await client.createTask({ title: 'first' })).data!;
    const second = (await client.createTask({ title: 'second' })).data!;
    const next = await client.listTaskChanges({ cursor: empty.data!.nextCursor });
    expect(next.data!.changes).toEqual([
      { kind: 'upserted', task: first },
      { kind: 'upserted', task: second },
    ]);
    expect(next.data!.hasMore).toBe(false);

    const quiet = await client.listTaskChanges({ cursor: next.data!.nextCursor });
    expect(quiet.data).toMatchObject({ changes: [], hasMore: false });
  });

  it('an initial sync pages through every stored task once, and the cursor it ends with sees what comes after', async () => {
    const { client } = await signedInClient(server);
    const created = [];
    for (let i = 0; i < 7; i++) created.push((await client.createTask({ title: `task ${i}` })).data!);
    const pages: number[] = [];
    let cursor: string | undefined;
    for await (const page of client.followTaskChanges(undefined, { limit: 3 })) {
      pages.push(page.changes.length);
      cursor = page.cursor;
    }
    expect(pages).toEqual([3, 3, 1]);
    const later = (await client.createTask({ title: 'later' })).data!;
    const after = await drain(client, cursor);
    expect(after.changes).toEqual([{ kind: 'upserted', task: later }]);
    expect(created).toHaveLength(7);
  });

  it('sees a deletion as a tombstone with the task id and the time of the deletion', async () => {
    const { client } = await signedInClient(server);
    const task = (await client.createTask({ title: 'short-lived' })).data!;
    const { cursor } = await drain(client);
    const before = Date.now();
    expect((await client.deleteTask(task.id)).response.status).toBe(204);
    const { changes } = await drain(client, cursor);
    expect(changes).toEqual([{ kind: 'deleted', taskId: task.id, deletedAt: expect.any(String) }]);
    const deletedAt = Date.parse((changes[0] as { deletedAt: string }).deletedAt);
    expect(deletedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(deletedAt).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('a task changed three times between two calls appears once, in its latest state', async () => {
    const { client } = await signedInClient(server);
    const task = (await client.createTask({ title: 'v1' })).data!;
    const other = (await client.createTask({ title: 'other' })).data!;
    const { cursor } = await drain(client);
    await client.updateTask(task.id, { title: 'v2' });
    await client.updateTask(task.id, { title: 'v3' });
    const latest = (await client.updateTask(task.id, { title: 'v4', status: 'completed' })).data!;
    const { changes } = await drain(client, cursor);
    expect(changes).toEqual([{ kind: 'upserted', task: latest }]);
    expect(latest.version).toBe(4);

    // Changed and then deleted between two calls: only the deletion is left to see.
    const { cursor: caughtUp } = await drain(client, cursor);
    await client.updateTask(other.id, { title: 'changed' });
    await client.deleteTask(other.id);
    expect((await drain(client, caughtUp)).changes).toEqual([{ kind: 'deleted', taskId: other.id, deletedAt: expect.any(String) }]);
  });

  it('a sync\'s creates and updates and a connector disconnection are changes, each raising the version', async () => {
    const { client } = await signedInClient(server);
    const token = `ghp_${randomUUID().replaceAll('-', '')}`;
    github.addAccount(token, { id: Math.floor(Math.random() * 1e9), login: 'feed' }, manyIssues(3));
    const account = (await client.connectAccount('github', { token, baseUrl: github.baseUrl })).data!;
    const { cursor: start } = await drain(client);

    expect(await syncAndWait(client, account.id)).toMatchObject({ status: 'succeeded', created: 3 });
    const synced = await drain(client, start);
    expect(synced.changes.map(summary)).toEqual(synced.changes.map((change) => ({ kind: 'upserted', id: (change as { task: { id: string } }).task.id, version: 1 })));
    expect(synced.changes).toHaveLength(3);

    github.setIssues(token, manyIssues(3, 'Renamed'));
    expect(await syncAndWait(client, account.id)).toMatchObject({ status: 'succeeded', updated: 3 });
    const updated = await drain(client, synced.cursor);
    expect(updated.changes.map((change) => change.kind === 'upserted' && [change.task.title, change.task.version])).toEqual([
      ['Renamed 1', 2],
      ['Renamed 2', 2],
      ['Renamed 3', 2],
    ]);

    expect((await client.disconnectAccount(account.id)).response.status).toBe(204);
    const detached = await drain(client, updated.cursor);
    expect(detached.changes).toHaveLength(3);
    for (const change of detached.changes) expect(change).toMatchObject({ kind: 'upserted', task: { source: null, version: 3 } });
  });

  it('a cursor that no page issued is 400 VALIDATION_FAILED at /query/cursor: made up, altered, or another account\'s', async () => {
    const { client } = await signedInClient(server);
    const stranger = await signedInClient(server);
    await client.createTask({ title: 'x' });
    const { cursor } = await drain(client);
    // A fresh account's cursor (its number one byte) a day older: its time changed, its MAC kept.
    const older = Buffer.from(cursor, 'base64url');
    older.writeUIntBE(older.readUIntBE(1, 6) - 86_400_000, 1, 6);
    const firstFormat = `${Buffer.from(JSON.stringify([0, Date.now()])).toString('base64url')}.${'A'.repeat(22)}`;
    for (const forged of ['not-a-cursor', older.toString('base64url'), cursor.slice(0, -1), `${cursor}A`, `${cursor}.x`, firstFormat]) {
      const answer = await client.listTaskChanges({ cursor: forged });
      expect(answer.error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', body: { details: [{ path: '/query/cursor' }] } });
    }
    expect((await stranger.client.listTaskChanges({ cursor })).error).toMatchObject({ status: 400, code: 'VALIDATION_FAILED' });
  });

  it('a cursor of the first format (JSON, a dot, a 16-byte MAC), as releases before the short cursors issued it, is still followed', async () => {
    const { client } = await signedInClient(server);
    await client.createTask({ title: 'before' });
    await drain(client);
    const { id: accountId } = (await client.getMe()).data!;
    // What src/tasks/change-cursor.ts first issued, under the key src/components.ts derives from the JWT secret.
    const key = createHmac('sha256', TEST_JWT_SECRET).update('task-change-cursor').digest();
    const payload = Buffer.from(JSON.stringify([1, Date.now()])).toString('base64url');
    const firstFormat = `${payload}.${createHmac('sha256', key).update(`${accountId}.${payload}`).digest().subarray(0, 16).toString('base64url')}`;
    expect((await client.listTaskChanges({ cursor: firstFormat })).data).toEqual({ changes: [], nextCursor: expect.any(String), hasMore: false });
    const after = (await client.createTask({ title: 'after' })).data!;
    const answer = (await client.listTaskChanges({ cursor: firstFormat })).data!;
    expect(answer.changes).toEqual([{ kind: 'upserted', task: after }]);
    expect(answer.nextCursor).toMatch(/^[\w-]{26}$/);
  });

  // The validator's checks of the feed's query: the same refusals beside a kept cursor as without one.
  it('a limit outside 1 to 500 or not an integer, an empty value or an unknown query parameter is 400 naming it, also beside a good cursor', async () => {
    const { client, tokens } = await signedInClient(server);
    const { cursor } = await drain(client);
    const cases = [
      ['limit=0', '/query/limit', 'must be >= 1'],
      ['limit=501', '/query/limit', 'must be <= 500'],
      ['limit=ten', '/query/limit', 'must be integer'],
      ['limit=', '/query/limit', "Empty value found for query parameter 'limit'"],
      ['since=1', '/query/since', "Unknown query parameter 'since'"],
      ['Limit=5', '/query/Limit', "Unknown query parameter 'Limit'"],
    ] as const;
    for (const [query, path, message] of cases) {
      for (const url of [`${server.baseUrl}/tasks/changes?${query}`, `${server.baseUrl}/tasks/changes?cursor=${cursor}&${query}`]) {
        const answer = await fetch(url, { headers: { authorization: `Bearer ${tokens.accessToken}` } });
        expect(answer.status, url).toBe(400);
        expect(await answer.json(), url).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path, message }] });
      }
    }
    expect((await client.listTaskChanges({ cursor, limit: 500 })).data).toMatchObject({ changes: [], nextCursor: cursor, hasMore: false });
  });

  it('an account deleted with DELETE /me leaves no task, tombstone or counter behind', async () => {
    const { client, tokens } = await signedInClient(server);
    const me = (await client.getMe()).data!;
    const task = (await client.createTask({ title: 'gone with the account' })).data!;
    await client.createTask({ title: 'also gone' });
    await client.deleteTask(task.id);
    const knex = server.database.knex();
    expect(await knex('task_tombstones').where('account_id', me.id)).toHaveLength(1);
    const closed = await fetch(`${server.baseUrl}/me`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${tokens.accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ password: PASSWORD }),
    });
    expect(closed.status).toBe(204);
    expect(await knex('task_tombstones').where('account_id', me.id)).toEqual([]);
    expect(await knex('tasks').where('account_id', me.id)).toEqual([]);
    expect(await knex('accounts').where('id', me.id)).toEqual([]);
  });
});

describe('past the tombstone retention', () => {
  let shortLived: TestServer;
  beforeAll(async () => {
    // 0.00003 days is 2.6 seconds.
    shortLived = await startServer({ env: { TASK_TOMBSTONE_RETENTION_DAYS: '0.00003' } });
  });
  afterAll(async () => {
    await shortLived?.stop();
  });

  it('a cursor older than TASK_TOMBSTONE_RETENTION_DAYS is 410 CURSOR_EXPIRED, and starting again without one works', async () => {
    const { client } = await signedInClient(shortLived);
    const task = (await client.createTask({ title: 'kept' })).data!;
    const { cursor } = await drain(client);
    expect((await client.listTaskChanges({ cursor })).data).toMatchObject({ changes: [], hasMore: false });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const expired = await client.listTaskChanges({ cursor });
    expect(expired.response.status).toBe(410);
    expect(expired.error).toMatchObject({ status: 410, code: 'CURSOR_EXPIRED' });
    expect((await client.listTaskChanges()).data!.changes).toEqual([{ kind: 'upserted', task }]);
  });
});

describe('versions and conditional requests', () => {
  const raw = (token: string, path: string, init: RequestInit = {}) =>
    fetch(`${server.baseUrl}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...init.headers } });

  it('one task\'s answers carry its version as a strong ETag; the list and other operations carry none', async () => {
    const { client, tokens } = await signedInClient(server);
    const created = await client.createTask({ title: 'tagged' });
    expect(created.data!.version).toBe(1);
    expect(created.response.headers.get('etag')).toBe('"1"');
    expect(created.etag).toBe('"1"');
    const got = await client.getTask(created.data!.id);
    expect(got.etag).toBe('"1"');
    const changed = await client.updateTask(created.data!.id, { priority: 1 });
    expect(changed.data!.version).toBe(2);
    expect(changed.etag).toBe('"2"');
    for (const path of ['/tasks', '/tasks/changes', '/me', '/me/usage']) {
      const answer = await raw(tokens.accessToken, path, { headers: { 'if-none-match': '*' } });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('etag')).toBeNull();
    }
  });

  it('If-None-Match with the current ETag answers 304 without a body and spends the budget; an older one answers 200', async () => {
    const { client, tokens } = await signedInClient(server);
    const task = (await client.createTask({ title: 'cached' })).data!;
    const first = await raw(tokens.accessToken, `/tasks/${task.id}`, { headers: { 'if-none-match': '"1"' } });
    expect(first.status).toBe(304);
    expect(first.headers.get('etag')).toBe('"1"');
    expect(await first.text()).toBe('');
    const remainingAfterFirst = Number(first.headers.get('x-ratelimit-remaining'));
    const second = await raw(tokens.accessToken, `/tasks/${task.id}`, { headers: { 'if-none-match': 'W/"1"' } });
    expect(second.status).toBe(304);
    expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(remainingAfterFirst - 1);

    await client.updateTask(task.id, { title: 'changed' });
    const stale = await raw(tokens.accessToken, `/tasks/${task.id}`, { headers: { 'if-none-match': '"1"' } });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('etag')).toBe('"2"');
    expect(await stale.json()).toMatchObject({ title: 'changed', version: 2 });
  });

  it('If-Match that does not match is 412 PRECONDITION_FAILED with the current ETag, and changes nothing', async () => {
    const { client } = await signedInClient(server);
    const task = (await client.createTask({ title: 'guarded' })).data!;
    await client.updateTask(task.id, { title: 'moved on' });

    const refusedPatch = await client.updateTask(task.id, { title: 'lost update' }, { ifMatch: '"1"' });
    expect(refusedPatch.error).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    expect(refusedPatch.etag).toBe('"2"');
    const refusedDelete = await client.deleteTask(task.id, { ifMatch: 1 });
    expect(refusedDelete.error).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    expect(refusedDelete.etag).toBe('"2"');
    const weak = await client.updateTask(task.id, { title: 'weak' }, { ifMatch: 'W/"2"' });
    expect(weak.error).toMatchObject({ status: 412 });
    expect((await client.getTask(task.id)).data).toMatchObject({ title: 'moved on', version: 2 });

    const applied = await client.updateTask(task.id, { title: 'on top' }, { ifMatch: refusedPatch.etag });
    expect(applied.data).toMatchObject({ title: 'on top', version: 3 });
    expect((await client.updateTask(task.id, { title: 'any' }, { ifMatch: '*' })).data!.version).toBe(4);
    expect((await client.deleteTask(task.id, { ifMatch: 4 })).response.status).toBe(204);
    expect((await client.deleteTask(task.id, { ifMatch: 4 })).error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('10 parallel PATCHes with the same If-Match: exactly one 200 and nine 412', async () => {
    const { client } = await signedInClient(server);
    const task = (await client.createTask({ title: 'contested' })).data!;
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.updateTask(task.id, { title: `writer ${i}` }, { ifMatch: '"1"' })),
    );
    const statuses = answers.map((answer) => answer.response.status).sort();
    expect(statuses).toEqual([200, ...Array<number>(9).fill(412)]);
    const winner = answers.find((answer) => answer.data)!.data!;
    expect((await client.getTask(task.id)).data).toEqual(winner);
    expect(winner.version).toBe(2);
    for (const loser of answers.filter((answer) => answer.error)) expect(loser.etag).toBe('"2"');
  });

  it('10 parallel DELETEs with the same If-Match: exactly one 204, and the feed shows one deletion', async () => {
    const { client } = await signedInClient(server);
    const task = (await client.createTask({ title: 'contested delete' })).data!;
    const { cursor } = await drain(client);
    const answers = await Promise.all(Array.from({ length: 10 }, () => client.deleteTask(task.id, { ifMatch: 1 })));
    expect(answers.filter((answer) => answer.response.status === 204)).toHaveLength(1);
    expect(answers.filter((answer) => answer.response.status === 404)).toHaveLength(9);
    expect((await drain(client, cursor)).changes).toEqual([{ kind: 'deleted', taskId: task.id, deletedAt: expect.any(String) }]);
  });
});
