import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

describe('the SDK keeps a cached task current with getTask({ ifNoneMatch })', () => {
  it('a task still at the version held answers notModified, with its etag and budget and neither data nor an error', async () => {
    const { client } = await signedInClient(server);
    const created = await client.createTask({ title: 'cached' });
    const sent: (string | null)[] = [];
    const watching = server.client({
      accessToken: client.accessToken,
      fetch: (request) => {
        sent.push(request.headers.get('if-none-match'));
        return globalThis.fetch(request);
      },
    });

    const byEtag = await watching.getTask(created.data!.id, { ifNoneMatch: created.etag });
    expect(byEtag).toMatchObject({ notModified: true, etag: '"1"' });
    expect(byEtag.data).toBeUndefined();
    expect(byEtag.error).toBeUndefined();
    expect(byEtag.response.status).toBe(304);
    expect(byEtag.rateLimit.map((window) => window.name)).toContain('account-burst');
    const byVersion = await watching.getTask(created.data!.id, { ifNoneMatch: created.data!.version });
    expect(byVersion).toMatchObject({ notModified: true, etag: '"1"' });
    expect(byVersion.rateLimit.find((window) => window.name === 'account-burst')!.remaining).toBe(
      byEtag.rateLimit.find((window) => window.name === 'account-burst')!.remaining - 1,
    );
    expect(sent).toEqual(['"1"', '"1"']);
  });

  it('a task changed since answers its new state and etag, and a read without ifNoneMatch is a plain read', async () => {
    const { client } = await signedInClient(server);
    const created = (await client.createTask({ title: 'cached' })).data!;
    await client.updateTask(created.id, { title: 'changed elsewhere' });

    const read = await client.getTask(created.id, { ifNoneMatch: created.version });
    expect(read.notModified).toBeFalsy();
    expect(read.data).toMatchObject({ title: 'changed elsewhere', version: 2 });
    expect(read.etag).toBe('"2"');
    expect(await client.getTask(created.id, { ifNoneMatch: read.etag })).toMatchObject({ notModified: true, etag: '"2"' });

    const plain = await client.getTask(created.id);
    expect(plain.response.status).toBe(200);
    expect(plain).toMatchObject({ data: { version: 2 }, etag: '"2"' });
    expect(plain).not.toHaveProperty('notModified');
  });

  it('a task that is gone is an error, whatever ifNoneMatch names', async () => {
    const { client } = await signedInClient(server);
    const created = (await client.createTask({ title: 'short-lived' })).data!;
    await client.deleteTask(created.id);
    const read = await client.getTask(created.id, { ifNoneMatch: created.version });
    expect(read.notModified).toBeFalsy();
    expect(read.error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
