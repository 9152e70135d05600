import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSafeFetch, OutboundError, redactUrl, type SafeFetch } from './safe-fetch.js';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const servers: Server[] = [];
const fetchers: SafeFetch[] = [];

async function serve(handler: Handler, host = '127.0.0.1'): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return `http://${host}:${(server.address() as AddressInfo).port}`;
}

function fetcher(options: Parameters<typeof createSafeFetch>[0]): SafeFetch {
  const created = createSafeFetch(options);
  fetchers.push(created);
  return created;
}

async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const err = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(OutboundError);
  return err as OutboundError;
}

let echo: string;
let silent: string;
beforeAll(async () => {
  echo = await serve((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, authorization: req.headers.authorization ?? null }));
  });
  silent = await serve(() => undefined);
});
afterAll(async () => {
  for (const server of servers) server.closeAllConnections();
  await Promise.all(fetchers.map((f) => f.close()));
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

// Only 127.0.0.3 counts as public here, so a local server on it can stand in for the internet.
const PUBLIC_STAND_IN = '127.0.0.3';
const onlyStandInIsPublic = (address: string) => (address === PUBLIC_STAND_IN ? null : 'a loopback address');

describe('the safe outgoing fetch', () => {
  it('refuses a loopback address given as a literal, before connecting', async () => {
    const err = await failure(fetcher({ allowPrivateNetworks: false }).get(`${echo}/feed.ics`));
    expect(err.failure).toBe('blocked-address');
    expect(err.message).toContain('127.0.0.1 is a loopback address');
  });

  it('refuses loopback written in the other forms URLs accept (decimal, hex, IPv4-mapped IPv6)', async () => {
    const port = new URL(echo).port;
    const safe = fetcher({ allowPrivateNetworks: false });
    for (const host of ['2130706433', '0x7f000001', '127.1', '[::ffff:127.0.0.1]']) {
      expect((await failure(safe.get(`http://${host}:${port}/`))).failure).toBe('blocked-address');
    }
  });

  it('refuses a host name that resolves to a loopback address', async () => {
    const port = new URL(echo).port;
    const err = await failure(fetcher({ allowPrivateNetworks: false }).get(`http://localhost:${port}/feed.ics`));
    expect(err.failure).toBe('blocked-address');
    expect(err.message).toMatch(/localhost \((127\.0\.0\.1|::1)\) is a loopback address/);
  });

  it('reaches private addresses when they are allowed', async () => {
    const response = await fetcher({ allowPrivateNetworks: true }).get(`${echo}/ok`, { headers: { Authorization: 'Bearer t' } });
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ path: '/ok', authorization: 'Bearer t' });
    expect(response.headers['content-type']).toBe('application/json');
  });

  it('loopback-only: reaches a loopback literal, and refuses host names (no DNS lookup), other addresses and redirects away', async () => {
    const port = new URL(echo).port;
    const safe = fetcher({ allowPrivateNetworks: true, loopbackOnly: true });
    expect((await safe.get(`${echo}/ok`)).status).toBe(200);
    for (const address of [`http://localhost:${port}/`, 'https://calendar.example.com/tasks.ics', 'http://10.0.0.1/', 'http://93.184.215.14/', 'http://[2001:db8::1]/']) {
      const err = await failure(safe.get(address));
      expect(err.failure).toBe('blocked-address');
      expect(err.message).toContain('loopback addresses only');
    }
    const redirecting = await serve((_req, res) => void res.writeHead(302, { location: 'http://192.168.1.1/feed.ics' }).end());
    expect((await failure(safe.get(`${redirecting}/away`))).failure).toBe('blocked-address');
  });

  it('re-checks every redirect hop: a redirect to a refused address is refused', async () => {
    const port = new URL(echo).port;
    const redirecting = await serve((req, res) => {
      if (req.url === '/stay') return void res.end('here');
      const target = req.url === '/to-literal' ? `http://127.0.0.1:${port}/` : `http://localhost:${port}/`;
      res.writeHead(302, { location: target }).end();
    }, PUBLIC_STAND_IN);
    const safe = fetcher({ allowPrivateNetworks: false, addressPolicy: onlyStandInIsPublic });
    expect((await safe.get(`${redirecting}/stay`)).body.toString()).toBe('here');
    expect((await failure(safe.get(`${redirecting}/to-literal`))).failure).toBe('blocked-address');
    expect((await failure(safe.get(`${redirecting}/to-name`))).failure).toBe('blocked-address');
  });

  it('follows up to 5 redirects and drops Authorization when the origin changes', async () => {
    let hops = 0;
    const redirecting = await serve((req, res) => {
      hops += 1;
      const n = Number(req.url?.slice(1));
      res.writeHead(301, { location: n > 1 ? `/${n - 1}` : `${echo}/landed` }).end();
    });
    const safe = fetcher({ allowPrivateNetworks: true });
    const response = await safe.get(`${redirecting}/4`, { headers: { authorization: 'Bearer secret' } });
    expect(hops).toBe(4);
    expect(response.url.href).toBe(`${echo}/landed`);
    expect(JSON.parse(response.body.toString())).toEqual({ path: '/landed', authorization: null });
    expect((await failure(safe.get(`${redirecting}/6`))).failure).toBe('too-many-redirects');
  });

  it('aborts a body larger than the cap, with or without Content-Length', async () => {
    const big = await serve((req, res) => {
      if (req.url === '/declared') res.setHeader('content-length', '5000');
      res.write('x'.repeat(2500));
      res.end('y'.repeat(2500));
    });
    const safe = fetcher({ allowPrivateNetworks: true, maxBytes: 4096 });
    expect((await failure(safe.get(`${big}/declared`))).failure).toBe('too-large');
    const streamed = await failure(safe.get(`${big}/streamed`));
    expect(streamed.failure).toBe('too-large');
    expect(streamed.message).toContain('more than 4096 bytes');
  });

  it('gives up on a server that never answers at the deadline', async () => {
    const started = Date.now();
    const err = await failure(fetcher({ allowPrivateNetworks: true, timeoutMs: 300 }).get(`${silent}/slow`));
    expect(err.failure).toBe('timeout');
    expect(err.message).toBe(`${silent}/slow did not answer within 0.3 s.`);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('refuses schemes other than http and https', async () => {
    expect((await failure(fetcher({ allowPrivateNetworks: true }).get('ftp://example.com/feed.ics'))).failure).toBe('unsupported-url');
  });

  it('reports an address nobody listens on as unreachable', async () => {
    const closed = await serve(() => undefined);
    const server = servers.pop()!;
    await new Promise((resolve) => server.close(resolve));
    const err = await failure(fetcher({ allowPrivateNetworks: true }).get(`${closed}/`));
    expect(err.failure).toBe('unreachable');
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('never shows user info or query in the addresses it names', () => {
    expect(redactUrl('https://me:pw@cal.example.com/feed.ics?token=s3cret#x')).toBe('https://cal.example.com/feed.ics');
  });
});
