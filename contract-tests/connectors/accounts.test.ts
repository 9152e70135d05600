import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTasks, syncAndWait } from '../support/connectors.js';
import { startFakeGithub, manyIssues, type FakeGithub } from '../support/fakes/github.fake.js';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

let server: TestServer;
let github: FakeGithub;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, github, feeds] = await Promise.all([
    startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }),
    startFakeGithub(),
    startFakeIcalFeeds(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), github?.close(), feeds?.close()]);
});

let tokenCounter = 0;
const newToken = () => `ghp_${Date.now().toString(36)}${(++tokenCounter).toString().padStart(6, '0')}SECRETtokenXYZ`;

describe('connector types', () => {
  it('lists github and ical with the per-account limit', async () => {
    const { client } = await signedInClient(server);
    const { data } = await client.listConnectors();
    expect(data!.items).toEqual([
      { type: 'github', name: 'GitHub', maxAccounts: 5 },
      { type: 'ical', name: 'iCalendar feed', maxAccounts: 5 },
    ]);
  });
});

describe('connecting an account', () => {
  it('connects a GitHub account: 201 with Location, the GitHub identity, and usage counts it', async () => {
    const { client } = await signedInClient(server);
    const token = newToken();
    github.addAccount(token, { id: 583231, login: 'octocat' });
    const { data, response } = await client.connectAccount('github', { token, baseUrl: github.baseUrl });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`/connector-accounts/${data!.id}`);
    expect(data).toEqual({
      id: expect.any(String),
      type: 'github',
      externalId: `583231@127.0.0.1:${github.port}`,
      displayName: 'octocat',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      lastSyncedAt: null,
    });
    expect((await client.getConnectorAccount(data!.id)).data).toEqual(data);
    expect(dataOf(await client.getUsage()).connectorAccounts).toEqual([
      { type: 'github', limit: 5, used: 1 },
      { type: 'ical', limit: 5, used: 0 },
    ]);
  });

  it('connects an iCalendar feed named by its calendar, its secret query not shown', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/named.ics', manyTodos(1), { calendarName: 'Home chores' });
    const { data, response } = await client.connectAccount('ical', { url: `${feeds.url('/named.ics')}?token=feedsecret123` });
    expect(response.status).toBe(201);
    expect(data!.displayName).toBe('Home chores');
    expect(data!.externalId).toMatch(new RegExp(`^${feeds.url('/named.ics')}#access-[0-9a-f]{16}$`));
    expect(JSON.stringify(data)).not.toContain('feedsecret123');
  });

  it('re-authorising a connected account at the cap answers 200 with the same account and its new credentials in use', async () => {
    const { client } = await signedInClient(server);
    const oldToken = newToken();
    const newerToken = newToken();
    github.addAccount(oldToken, { id: 9001, login: 'reauth' }, manyIssues(2));
    github.addAccount(newerToken, { id: 9001, login: 'reauth-renamed' }, manyIssues(2));
    const first = await client.connectAccount('github', { token: oldToken, baseUrl: github.baseUrl });
    for (let i = 1; i <= 4; i++) {
      const token = newToken();
      github.addAccount(token, { id: 9001 + i, login: `other${i}` });
      expect((await client.connectAccount('github', { token, baseUrl: github.baseUrl })).response.status).toBe(201);
    }
    const again = await client.connectAccount('github', { token: newerToken, baseUrl: github.baseUrl });
    expect(again.response.status).toBe(200);
    expect(again.response.headers.get('location')).toBeNull();
    expect(again.data).toMatchObject({ id: dataOf(first).id, externalId: dataOf(first).externalId, displayName: 'reauth-renamed' });
    expect(dataOf(await client.listConnectorAccounts()).items).toHaveLength(5);

    await syncAndWait(client, dataOf(first).id);
    const issueCalls = github.requests.filter((request) => request.path.startsWith('/issues'));
    expect(issueCalls.at(-1)!.headers.authorization).toBe(`Bearer ${newerToken}`);
  });

  it('8 parallel connects of distinct feeds: exactly 5 are created and 3 refused with QUOTA_EXCEEDED', async () => {
    const { client } = await signedInClient(server);
    for (let i = 1; i <= 8; i++) feeds.setFeed(`/parallel/${i}.ics`, manyTodos(1));
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.connectAccount('ical', { url: feeds.url(`/parallel/${i + 1}.ics`) })),
    );
    const statuses = responses.map((response) => response.response.status).sort();
    expect(statuses).toEqual([201, 201, 201, 201, 201, 403, 403, 403]);
    for (const { error } of responses.filter((response) => response.error)) {
      expect(error!.body).toEqual({ statusCode: 403, code: 'QUOTA_EXCEEDED', message: expect.any(String), quota: 'connectorAccounts', limit: 5, used: 5 });
    }
    expect(dataOf(await client.listConnectorAccounts()).items).toHaveLength(5);
    expect(dataOf(await client.getUsage()).connectorAccounts).toContainEqual({ type: 'ical', limit: 5, used: 5 });
  });

  it('two parallel connects of the same new account: one creates it (201), the other re-authorises it (200)', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/twice.ics', manyTodos(1));
    const responses = await Promise.all([1, 2].map(() => client.connectAccount('ical', { url: feeds.url('/twice.ics') })));
    expect(responses.map((response) => response.response.status).sort()).toEqual([200, 201]);
    expect(dataOf(responses[0]!).id).toBe(dataOf(responses[1]!).id);
    expect(dataOf(await client.getUsage()).connectorAccounts).toContainEqual({ type: 'ical', limit: 5, used: 1 });
  });

  it('6 parallel connects of the same new account for the last place: one creates it (201), the others re-authorise it (200)', async () => {
    const { client } = await signedInClient(server);
    for (let i = 1; i <= 4; i++) {
      const token = newToken();
      github.addAccount(token, { id: 6100 + i, login: `present${i}` });
      expect((await client.connectAccount('github', { token, baseUrl: github.baseUrl })).response.status).toBe(201);
    }
    const token = newToken();
    github.addAccount(token, { id: 6200, login: 'last-place' });
    github.gatherUserRequests(token, 6);
    const responses = await Promise.all(Array.from({ length: 6 }, () => client.connectAccount('github', { token, baseUrl: github.baseUrl })));
    expect(responses.map((response) => response.response.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
    expect(new Set(responses.map((response) => dataOf(response).id)).size).toBe(1);
    expect(dataOf(await client.listConnectorAccounts()).items).toHaveLength(5);
    expect(dataOf(await client.getUsage()).connectorAccounts).toContainEqual({ type: 'github', limit: 5, used: 5 });
  });

  it('refused credentials answer 422 CONNECTOR_AUTH_FAILED with what the provider said, and connect nothing', async () => {
    const { client } = await signedInClient(server);
    const github401 = await client.connectAccount('github', { token: 'ghp_wrong', baseUrl: github.baseUrl });
    expect(github401.error!.body).toEqual({ statusCode: 422, code: 'CONNECTOR_AUTH_FAILED', message: 'GitHub refused the token (401).' });
    feeds.setFeed('/login-page', [], { raw: { body: '<html><body>Please log in</body></html>', contentType: 'text/html' } });
    const notAFeed = await client.connectAccount('ical', { url: feeds.url('/login-page') });
    expect(notAFeed.error!.body).toMatchObject({ statusCode: 422, code: 'CONNECTOR_AUTH_FAILED', message: `${feeds.url('/login-page')} did not serve an iCalendar feed.` });
    feeds.setFeed('/locked.ics', manyTodos(1), { basicAuth: 'ada:right' });
    const wrongPassword = await client.connectAccount('ical', { url: feeds.url('/locked.ics').replace('//', '//ada:wrong@') });
    expect(wrongPassword.error!.body).toMatchObject({ statusCode: 422, code: 'CONNECTOR_AUTH_FAILED' });
    expect(wrongPassword.error!.message).not.toContain('wrong');
    expect(dataOf(await client.listConnectorAccounts()).items).toEqual([]);
  });

  it('a provider that cannot be reached answers 502 CONNECTOR_UNAVAILABLE', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/down.ics', [], { status: 503 });
    const down = await client.connectAccount('ical', { url: feeds.url('/down.ics') });
    expect(down.error!.body).toMatchObject({ statusCode: 502, code: 'CONNECTOR_UNAVAILABLE' });
    const limitedToken = newToken();
    github.addAccount(limitedToken, { id: 777, login: 'limited' });
    github.exhaustRateLimit(limitedToken, 600);
    const limited = await client.connectAccount('github', { token: limitedToken, baseUrl: github.baseUrl });
    expect(limited.error!.body).toMatchObject({ statusCode: 502, code: 'CONNECTOR_UNAVAILABLE', message: expect.stringMatching(/rate limit .* retry after/) });
    const closed = await client.connectAccount('github', { token: 'ghp_x', baseUrl: 'http://127.0.0.1:1' });
    expect(closed.error!.body).toMatchObject({ statusCode: 502, code: 'CONNECTOR_UNAVAILABLE', message: expect.stringContaining('could not be reached') });
  });

  it('a body of the other type answers 400 VALIDATION_FAILED naming the fields', async () => {
    const { client } = await signedInClient(server);
    const { error } = await client.connectAccount('github', { url: feeds.url('/x.ics') });
    expect(error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    expect(error!.body!.details).toEqual(
      expect.arrayContaining([
        { path: '/body/token', message: 'is required for a github account' },
        { path: '/body/url', message: 'is not a field of a github account' },
      ]),
    );
    const icalWithToken = await client.connectAccount('ical', { token: 'ghp_x' });
    expect(icalWithToken.error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    const ftp = await client.connectAccount('ical', { url: 'ftp://example.com/feed.ics' });
    expect(ftp.error!.body!.details).toEqual([{ path: '/body/url', message: 'must be an http, https or webcal address' }]);
  });
});

describe('connected accounts of other users', () => {
  it('are 404 for every operation, as if they did not exist', async () => {
    const owner = await signedInClient(server);
    const stranger = await signedInClient(server);
    feeds.setFeed('/owned.ics', manyTodos(1));
    const account = dataOf(await owner.client.connectAccount('ical', { url: feeds.url('/owned.ics') }));
    const job = dataOf(await owner.client.startSync(account.id));
    for (const response of [
      await stranger.client.getConnectorAccount(account.id),
      await stranger.client.disconnectAccount(account.id),
      await stranger.client.startSync(account.id),
      await stranger.client.listSyncJobs(account.id),
      await stranger.client.getSyncJob(job.id),
    ]) {
      expect(response.error!.body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    }
    expect(dataOf(await stranger.client.listConnectorAccounts()).items).toEqual([]);
    expect((await owner.client.getConnectorAccount(account.id)).response.status).toBe(200);
  });
});

describe('credentials', () => {
  it('never appear in a response, a log line or the stored rows', async () => {
    const { client } = await signedInClient(server);
    const token = newToken();
    github.addAccount(token, { id: 4242, login: 'secretive' }, manyIssues(3));
    const feedSecret = 'icalsecret-7d1f0c9a';
    feeds.setFeed('/secret.ics', manyTodos(2));
    const bodies: unknown[] = [];
    const connected = await client.connectAccount('github', { token, baseUrl: github.baseUrl });
    const feed = await client.connectAccount('ical', { url: `${feeds.url('/secret.ics')}?key=${feedSecret}` });
    bodies.push(connected.data, feed.data);
    const job = await syncAndWait(client, dataOf(connected).id);
    expect(job.status).toBe('succeeded');
    bodies.push(job, (await client.listConnectorAccounts()).data, (await client.getConnectorAccount(dataOf(connected).id)).data);
    bodies.push((await client.listSyncJobs(dataOf(connected).id)).data, await allTasks(client));
    const shown = JSON.stringify(bodies);
    expect(shown).not.toContain(token);
    expect(shown).not.toContain(feedSecret);

    const rows = await server.database.knex()('connector_accounts').select('*');
    const stored = JSON.stringify(rows);
    expect(stored).toContain('secretive');
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(feedSecret);
    const jobs = JSON.stringify(await server.database.knex()('sync_jobs').select('*'));
    expect(jobs).not.toContain(token);
    expect(server.logs.join('\n')).not.toContain(token);
    expect(server.logs.join('\n')).not.toContain(feedSecret);
  });
});

describe('disconnecting', () => {
  it('keeps the synced tasks as local tasks (source null) and frees the place under the cap', async () => {
    const { client } = await signedInClient(server);
    feeds.setFeed('/leaving.ics', manyTodos(3));
    const account = dataOf(await client.connectAccount('ical', { url: feeds.url('/leaving.ics') }));
    expect((await syncAndWait(client, account.id)).created).toBe(3);
    expect((await allTasks(client)).map((task) => task.source?.connectorAccountId)).toEqual([account.id, account.id, account.id]);

    const { response } = await client.disconnectAccount(account.id);
    expect(response.status).toBe(204);
    const tasks = await allTasks(client);
    expect(tasks).toHaveLength(3);
    expect(tasks.map((task) => task.source)).toEqual([null, null, null]);
    expect(tasks.map((task) => task.title).sort()).toEqual(['Todo 1', 'Todo 2', 'Todo 3']);
    expect((await client.getConnectorAccount(account.id)).response.status).toBe(404);
    expect(dataOf(await client.getUsage()).connectorAccounts).toContainEqual({ type: 'ical', limit: 5, used: 0 });
    expect(dataOf(await client.getUsage()).tasks.used).toBe(3);
    expect((await client.disconnectAccount(account.id)).response.status).toBe(404);
  });
});
