import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manyTodos, startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { startFakeGithub, type FakeGithub } from '../support/fakes/github.fake.js';
import { signedInClient, startServer, type TestServer, dataOf } from '../support/server.js';

// This server keeps the default CONNECTOR_ALLOW_PRIVATE_NETWORKS=false: the fakes on 127.0.0.1 are
// exactly the kind of address it must refuse.
let server: TestServer;
let feeds: FakeIcalFeeds;
let github: FakeGithub;
beforeAll(async () => {
  [server, feeds, github] = await Promise.all([startServer(), startFakeIcalFeeds(), startFakeGithub()]);
  feeds.setFeed('/feed.ics', manyTodos(3));
  github.addAccount('ghp_guarded', { id: 1, login: 'guarded' });
});
afterAll(async () => {
  await Promise.all([server?.stop(), feeds?.close(), github?.close()]);
});

describe('the private-address guard (on by default)', () => {
  it('refuses a feed on a loopback address with 400 naming the address, and never contacts it', async () => {
    const { client } = await signedInClient(server);
    const { error } = await client.connectAccount('ical', { url: feeds.url('/feed.ics') });
    expect(error!.body).toEqual({
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: `${feeds.url('/feed.ics')} is not allowed: 127.0.0.1 is a loopback address; this server only connects to public internet addresses.`,
      details: [{ path: '/body/url', message: expect.stringContaining('127.0.0.1 is a loopback address') }],
    });
    expect(feeds.requests).toEqual([]);
  });

  it('refuses a host name that resolves to loopback, IPv6 loopback, and the cloud metadata address', async () => {
    const { client } = await signedInClient(server);
    const byName = await client.connectAccount('ical', { url: `webcal://localhost:${feeds.port}/feed.ics` });
    expect(byName.error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body/url' }] });
    expect(byName.error!.message).toMatch(/localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
    const ipv6 = await client.connectAccount('ical', { url: `http://[::1]:${feeds.port}/feed.ics` });
    expect(ipv6.error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED' });
    const metadata = await client.connectAccount('ical', { url: 'http://169.254.169.254/latest/meta-data/' });
    expect(metadata.error!.message).toContain('169.254.169.254 is a link-local address');
    expect(feeds.requests).toEqual([]);
  });

  it('refuses a GitHub Enterprise baseUrl on a private address, naming baseUrl', async () => {
    const { client } = await signedInClient(server);
    const { error } = await client.connectAccount('github', { token: 'ghp_guarded', baseUrl: github.baseUrl });
    expect(error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body/baseUrl' }] });
    expect(github.requests).toEqual([]);
    expect(dataOf(await client.listConnectorAccounts()).items).toEqual([]);
  });
});
