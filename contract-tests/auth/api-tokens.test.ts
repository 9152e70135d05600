import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const ALL_SCOPES = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write'];

async function createToken(client: Awaited<ReturnType<typeof signedInClient>>['client'], body: Parameters<typeof client.createApiToken>[0]) {
  const created = await client.createApiToken(body);
  if (created.error) throw created.error;
  return created;
}

describe('API tokens', () => {
  it('are created with a tsk_ secret shown once, stored only as a hash, and listed without it', async () => {
    const { client } = await signedInClient(server);
    const created = await createToken(client, { name: 'nightly export' });
    expect(created.response.status).toBe(201);
    const token = created.data;
    expect(created.response.headers.get('location')).toBe(`/api-tokens/${token.id}`);
    expect(token.token).toMatch(/^tsk_[A-Za-z0-9_-]{43}$/);
    expect(token).toMatchObject({ name: 'nightly export', scopes: ALL_SCOPES, expiresAt: null, lastUsedAt: null });
    expect(token.token.startsWith(token.prefix)).toBe(true);
    expect(token.prefix.length).toBeLessThan(16);

    const listed = dataOf(await client.listApiTokens()).items;
    expect(listed).toEqual([{ id: token.id, name: 'nightly export', prefix: token.prefix, scopes: ALL_SCOPES, createdAt: token.createdAt, expiresAt: null, lastUsedAt: null }]);

    const row = await server.database.knex()('api_tokens').where({ id: token.id }).first();
    expect(row.token_hash).toBe(sha256(token.token));
    expect(JSON.stringify(row)).not.toContain(token.token);
  });

  it('work as bearer tokens for their account, and keep lastUsedAt', async () => {
    const { client } = await signedInClient(server);
    const me = dataOf(await client.getMe());
    const token = (await createToken(client, { name: 'script' })).data;
    const script = server.client({ accessToken: token.token });
    const before = Date.now();
    expect((await script.getMe()).data).toEqual(me);
    const listed = dataOf(await client.listApiTokens()).items.find((item) => item.id === token.id)!;
    expect(Date.parse(listed.lastUsedAt!)).toBeGreaterThanOrEqual(before - 1000);
  });

  it('lists the account’s tokens newest first, and none of another account', async () => {
    const { client } = await signedInClient(server);
    const other = await signedInClient(server);
    await createToken(other.client, { name: 'theirs' });
    const first = (await createToken(client, { name: 'first' })).data;
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await createToken(client, { name: 'second' })).data;
    expect(dataOf(await client.listApiTokens()).items.map((item) => item.id)).toEqual([second.id, first.id]);
  });

  it('carry only the scopes they were given: a tasks:read token gets 403 INSUFFICIENT_SCOPE on POST /tasks', async () => {
    const { client } = await signedInClient(server);
    const readOnly = (await createToken(client, { name: 'reader', scopes: ['tasks:read'] })).data;
    expect(readOnly.scopes).toEqual(['tasks:read']);
    const reader = server.client({ accessToken: readOnly.token });
    const created = await reader.createTask({ title: 'not allowed', priority: 2 });
    expect(created.response.status).toBe(403);
    expect(created.error!.body).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });
    const listed = await reader.listTasks();
    expect([401, 403]).not.toContain(listed.response.status);
  });

  it('cannot mint a token with more scopes than their own; without scopes the new one gets the creator’s but tokens:manage', async () => {
    const { client } = await signedInClient(server);
    const readOnly = (await createToken(client, { name: 'reader', scopes: ['tasks:read', 'tokens:manage'] })).data;
    const reader = server.client({ accessToken: readOnly.token });

    const stronger = await reader.createApiToken({ name: 'escalate', scopes: ['tasks:read', 'tasks:write'] });
    expect(stronger.response.status).toBe(403);
    expect(stronger.error!.body).toMatchObject({ code: 'INSUFFICIENT_SCOPE', requiredScope: 'tasks:write' });

    const inherited = await reader.createApiToken({ name: 'child' });
    expect(inherited.response.status).toBe(201);
    expect(dataOf(inherited).scopes).toEqual(['tasks:read']);
  });

  it('with expiresInDays expire then: an expired token is refused with 401 UNAUTHENTICATED', async () => {
    const { client } = await signedInClient(server);
    const token = (await createToken(client, { name: 'short-lived', expiresInDays: 30 })).data;
    const expected = Date.parse(token.createdAt) + 30 * 86_400_000;
    expect(Date.parse(token.expiresAt!)).toBe(expected);
    const script = server.client({ accessToken: token.token });
    expect((await script.getMe()).response.status).toBe(200);

    await server.database.knex()('api_tokens').where({ id: token.id }).update({ expires_at: Date.now() - 1 });
    const refused = await script.getMe();
    expect(refused.response.status).toBe(401);
    expect(refused.error!.code).toBe('UNAUTHENTICATED');
  });

  it('revoked stop working at once, leave the list, and a second revoke is 404', async () => {
    const { client } = await signedInClient(server);
    const token = (await createToken(client, { name: 'to revoke' })).data;
    const script = server.client({ accessToken: token.token });
    expect((await script.getMe()).response.status).toBe(200);

    const revoked = await client.revokeApiToken(token.id);
    expect(revoked.response.status).toBe(204);
    const refused = await script.getMe();
    expect(refused.response.status).toBe(401);
    expect(refused.error!.code).toBe('UNAUTHENTICATED');
    expect(refused.response.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(dataOf(await client.listApiTokens()).items).toEqual([]);

    const again = await client.revokeApiToken(token.id);
    expect(again.response.status).toBe(404);
    expect(again.error!.code).toBe('NOT_FOUND');
  });

  it('of another account cannot be revoked (404) and keep working', async () => {
    const owner = await signedInClient(server);
    const stranger = await signedInClient(server);
    const token = (await createToken(owner.client, { name: 'mine' })).data;
    const attempt = await stranger.client.revokeApiToken(token.id);
    expect(attempt.response.status).toBe(404);
    expect((await server.client({ accessToken: token.token }).getMe()).response.status).toBe(200);
  });
});
