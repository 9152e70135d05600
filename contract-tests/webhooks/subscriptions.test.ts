import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REDIRECT, authorizedCode, bearer, exchangeCode, registeredApp } from '../support/oauth.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  // Subscriptions here name public URLs; deliveries to them are refused before any lookup leaves this machine.
  server = await startServer({ env: { OUTBOUND_LOOPBACK_ONLY: 'true' } });
});
afterAll(async () => {
  await server?.stop();
});

const PUBLIC_URL = 'https://hooks.example.com/tasks';

describe('webhook subscriptions (decisions §16)', () => {
  it('a new webhook answers 201 with its secret once; reading it back never shows the secret', async () => {
    const { client } = await signedInClient(server);
    const created = await client.createWebhook({ url: PUBLIC_URL, events: ['task.created', 'task.deleted'], description: 'mirror' });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe(`/webhooks/${created.data!.id}`);
    expect(created.data).toMatchObject({ url: PUBLIC_URL, events: ['task.created', 'task.deleted'], description: 'mirror', enabled: true, disabledReason: null });
    expect(created.data!.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.data!.secret.slice('whsec_'.length), 'base64')).toHaveLength(32);

    const listed = (await client.listWebhooks()).data!.items;
    expect(listed).toHaveLength(1);
    expect(listed[0]).not.toHaveProperty('secret');
    const fetched = (await client.getWebhook(created.data!.id)).data!;
    expect(fetched).not.toHaveProperty('secret');
    expect(JSON.stringify(fetched)).not.toContain(created.data!.secret.slice(6));
  });

  it('rotating gives a different secret, shown once', async () => {
    const { client } = await signedInClient(server);
    const created = (await client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).data!;
    const rotated = await client.rotateWebhookSecret(created.id);
    expect(rotated.response.status).toBe(200);
    expect(rotated.data!.secret).toMatch(/^whsec_/);
    expect(rotated.data!.secret).not.toBe(created.secret);
  });

  it('PATCH changes the fields given and can turn a webhook off and on; DELETE removes it', async () => {
    const { client } = await signedInClient(server);
    const created = (await client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).data!;
    const changed = await client.updateWebhook(created.id, { events: ['task.updated', 'sync_job.finished'], enabled: false, description: null });
    expect(changed.data).toMatchObject({ url: PUBLIC_URL, events: ['task.updated', 'sync_job.finished'], enabled: false, description: null });
    expect((await client.updateWebhook(created.id, { enabled: true })).data!.enabled).toBe(true);
    expect((await client.deleteWebhook(created.id)).response.status).toBe(204);
    expect((await client.getWebhook(created.id)).error!.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it("another account's webhook is 404 for every operation, as if it did not exist", async () => {
    const owner = await signedInClient(server);
    const other = await signedInClient(server);
    const hook = (await owner.client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).data!;
    for (const result of [
      await other.client.getWebhook(hook.id),
      await other.client.updateWebhook(hook.id, { enabled: false }),
      await other.client.rotateWebhookSecret(hook.id),
      await other.client.pingWebhook(hook.id),
      await other.client.listWebhookDeliveries(hook.id),
      await other.client.deleteWebhook(hook.id),
    ]) {
      expect(result.error!.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
    expect((await owner.client.getWebhook(hook.id)).data!.enabled).toBe(true);
  });
});

describe('bad webhook input: each a clear 400 in the common body', () => {
  const cases: [string, Record<string, unknown>, string, RegExp][] = [
    ['plain http', { url: 'http://hooks.example.com/in', events: ['task.created'] }, '/body/url', /https/],
    ['a loopback address', { url: 'https://127.0.0.1:8443/in', events: ['task.created'] }, '/body/url', /loopback/],
    ['localhost', { url: 'https://localhost/in', events: ['task.created'] }, '/body/url', /loopback/],
    ...[
      'https://localhost.:8080/in',
      'https://LOCALHOST/in',
      'https://app.localhost./in',
      'https://127.1/in',
      'https://0x7f.0.0.1/in',
      'https://2130706433/in',
      'https://[::ffff:127.0.0.1]/in',
      'https://0.0.0.0/in',
      'https://[::]/in',
    ].map((url): [string, Record<string, unknown>, string, RegExp] => [`${url}, another spelling of a loopback host`, { url, events: ['task.created'] }, '/body/url', /loopback|unspecified/]),
    ['a private network name', { url: 'https://printer.local./in', events: ['task.created'] }, '/body/url', /private network name/],
    ['a private address', { url: 'https://10.0.0.7/in', events: ['task.created'] }, '/body/url', /private/],
    ['a link-local address (cloud metadata)', { url: 'https://169.254.169.254/latest', events: ['task.created'] }, '/body/url', /link-local/],
    ['credentials in the URL', { url: 'https://user:secret@hooks.example.com/in', events: ['task.created'] }, '/body/url', /credentials/],
    ['a URL over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2048)}`, events: ['task.created'] }, '/body/url', /2048/],
    ['an unknown event type', { url: PUBLIC_URL, events: ['task.created', 'task.exploded'] }, '/body/events/1', /allowed values/],
    ['an empty events list', { url: PUBLIC_URL, events: [] }, '/body/events', /fewer than 1/],
  ];
  for (const [what, body, path, message] of cases) {
    it(`refuses ${what}`, async () => {
      const { client } = await signedInClient(server);
      const response = await fetch(`${server.baseUrl}/webhooks`, {
        method: 'POST',
        headers: { authorization: `Bearer ${await tokenOf(client)}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(response.status).toBe(400);
      const error = (await response.json()) as { statusCode: number; code: string; message: string; details: { path: string; message: string }[] };
      expect(error).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
      const detail = error.details.find((entry) => entry.path === path);
      expect(detail, JSON.stringify(error)).toBeDefined();
      expect(`${error.message} ${detail!.message}`).toMatch(message);
      expect((await client.listWebhooks()).data!.items).toEqual([]);
    });
  }

  it('a PATCH to a private URL is refused the same way, and the webhook keeps its URL', async () => {
    const { client } = await signedInClient(server);
    const hook = (await client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).data!;
    const refused = await client.updateWebhook(hook.id, { url: 'https://192.168.1.1/in' });
    expect(refused.error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body/url' }] });
    expect((await client.getWebhook(hook.id)).data!.url).toBe(PUBLIC_URL);
  });
});

async function tokenOf(client: Awaited<ReturnType<typeof signedInClient>>['client']): Promise<string> {
  const token = await client.createApiToken({ name: 'hooks', scopes: ['webhooks:manage'] });
  return token.data!.token;
}

describe('the webhook cap (WEBHOOKS_MAX_PER_ACCOUNT, default 10)', () => {
  it('30 parallel creates on an empty account: exactly 10 are created and 20 refused with QUOTA_EXCEEDED', async () => {
    const { client } = await signedInClient(server);
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) => client.createWebhook({ url: `${PUBLIC_URL}/${i}`, events: ['task.created'] })));
    const statuses = responses.map((response) => response.response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 403)).toHaveLength(20);
    for (const { error } of responses.filter((response) => response.error)) {
      expect(error!.body).toEqual({ statusCode: 403, code: 'QUOTA_EXCEEDED', message: expect.any(String), quota: 'webhooks', limit: 10, used: 10 });
    }
    expect((await client.listWebhooks()).data!.items).toHaveLength(10);
  });

  it('deleting one makes room for another', async () => {
    const { client } = await signedInClient(server);
    const made = [];
    for (let i = 0; i < 10; i++) made.push((await client.createWebhook({ url: `${PUBLIC_URL}/${i}`, events: ['task.created'] })).data!);
    expect((await client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).response.status).toBe(403);
    await client.deleteWebhook(made[0]!.id);
    expect((await client.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).response.status).toBe(201);
  });
});

describe('the scope webhooks:manage', () => {
  it('a token without webhooks:manage gets 403 INSUFFICIENT_SCOPE naming it; one given it by name may manage webhooks', async () => {
    const { client } = await signedInClient(server);
    const byDefault = (await client.createApiToken({ name: 'default scopes' })).data!;
    expect(byDefault.scopes).not.toContain('webhooks:manage');
    const without = server.client({ accessToken: byDefault.token });
    for (const result of [await without.listWebhooks(), await without.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })]) {
      expect(result.error!.body).toEqual({
        statusCode: 403,
        code: 'INSUFFICIENT_SCOPE',
        message: expect.stringContaining('webhooks:manage'),
        requiredScope: 'webhooks:manage',
      });
    }
    const named = (await client.createApiToken({ name: 'hooks', scopes: ['webhooks:manage'] })).data!;
    const withScope = server.client({ accessToken: named.token });
    expect((await withScope.createWebhook({ url: PUBLIC_URL, events: ['task.created'] })).response.status).toBe(201);
    expect((await withScope.listWebhooks()).data!.items).toHaveLength(1);
  });
});

describe('webhooks made by an OAuth app', () => {
  async function appSignedIn(scope: string) {
    const { email, tokens, client: web } = await signedInClient(server);
    const appId = await registeredApp(server);
    const app = await authorizedCode(server, { clientId: appId, redirectUri: APP_REDIRECT, ...(scope ? { scope } : {}), email });
    const exchanged = await exchangeCode(server, appId, APP_REDIRECT, app.code, app.verifier);
    const appClient = server.client({ accessToken: exchanged.body.access_token as string });
    const withdraw = () => fetch(`${server.baseUrl}/oauth/authorizations/${appId}`, { method: 'DELETE', headers: bearer(tokens.accessToken) });
    return { web, appClient, withdraw, granted: exchanged.body.scope as string };
  }

  it('an app that names no scope is not given webhooks:manage', async () => {
    const { appClient, granted } = await appSignedIn('');
    expect(granted.split(' ')).not.toContain('webhooks:manage');
    expect((await appClient.listWebhooks()).error!.body).toMatchObject({ statusCode: 403, code: 'INSUFFICIENT_SCOPE', requiredScope: 'webhooks:manage' });
  });

  it("are deleted when the app's authorisation is withdrawn; the account's own stay", async () => {
    const { web, appClient, withdraw } = await appSignedIn('tasks:read webhooks:manage');
    const fromApp = (await appClient.createWebhook({ url: `${PUBLIC_URL}/app`, events: ['task.created'] })).data!;
    const own = (await web.createWebhook({ url: `${PUBLIC_URL}/own`, events: ['task.created'] })).data!;
    expect((await web.listWebhooks()).data!.items.map((item) => item.id).sort()).toEqual([fromApp.id, own.id].sort());

    expect((await withdraw()).status).toBe(204);
    expect((await web.listWebhooks()).data!.items.map((item) => item.id)).toEqual([own.id]);
  });
});
