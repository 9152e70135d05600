import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { countdown, describeWindow, waitingOnThrottle, type ThrottleNotice } from './throttle.js';

let server: Server | undefined;
afterEach(() => server?.close());

/** A local HTTP server answering 429 (Retry-After: `retryAfter`) to the first `refusals` requests, then 200. */
async function throttlingServer(refusals: number, retryAfter: string): Promise<{ url: string; arrivals: number[] }> {
  const arrivals: number[] = [];
  server = createServer((_req, res) => {
    arrivals.push(Date.now());
    if (arrivals.length <= refusals) {
      res.writeHead(429, { 'retry-after': retryAfter, 'content-type': 'application/json' });
      return res.end(JSON.stringify({ statusCode: 429, code: 'RATE_LIMIT_EXCEEDED', message: 'slow down', retryAfterSeconds: Number(retryAfter), window: 'client-burst' }));
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}/tasks`, arrivals };
}

const realWait = (notices: ThrottleNotice[]) => async (notice: ThrottleNotice) => {
  notices.push(notice);
  await new Promise((resolve) => setTimeout(resolve, notice.seconds * 1000));
};

describe('waiting on 429', () => {
  it('waits what Retry-After asks, never less, then sends the request again', async () => {
    const { url, arrivals } = await throttlingServer(1, '1');
    const notices: ThrottleNotice[] = [];
    const send = waitingOnThrottle((request) => fetch(request), 5, realWait(notices));
    const response = await send(new Request(url, { method: 'POST', body: 'same body twice' }));
    expect(response.status).toBe(200);
    expect(notices).toEqual([{ window: 'client-burst', seconds: 1 }]);
    expect(arrivals).toHaveLength(2);
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990);
  });

  it('hands the 429 back at once when the wait would pass --max-wait', async () => {
    const { url, arrivals } = await throttlingServer(5, '30');
    const notices: ThrottleNotice[] = [];
    const response = await waitingOnThrottle((request) => fetch(request), 10, realWait(notices))(new Request(url));
    expect(response.status).toBe(429);
    expect(notices).toEqual([]);
    expect(arrivals).toHaveLength(1);
  });

  it('counts every wait against --max-wait, so repeated refusals end', async () => {
    const { url, arrivals } = await throttlingServer(10, '1');
    const response = await waitingOnThrottle((request) => fetch(request), 2, realWait([]))(new Request(url));
    expect(response.status).toBe(429);
    expect(arrivals).toHaveLength(3);
  });
});

describe('the countdown', () => {
  it('rewrites one line every second on a terminal, and clears it at the end', async () => {
    const writes: string[] = [];
    const stream = Object.assign(new Writable({ write: (chunk, _encoding, done) => (writes.push(String(chunk)), done()) }), { isTTY: true });
    await countdown({ window: 'account-burst', seconds: 2 }, stream as unknown as NodeJS.WriteStream);
    expect(writes).toHaveLength(3);
    expect(writes[0]!.startsWith('\r\x1b[KRate limited: this account\'s request budget')).toBe(true);
    expect(writes[0]).toMatch(/account-burst.* Trying again in 2 s/);
    expect(writes[1]).toContain('Trying again in 1 s');
    expect(writes[2]).toBe('\r\x1b[K');
  });

  it('names each budget in words', () => {
    expect(describeWindow('client-sustained')).toContain("taskctl's own request budget");
    expect(describeWindow('client-sustained')).toContain('per hour');
    expect(describeWindow('account-burst')).toContain('per minute');
    expect(describeWindow(undefined)).toBe('a rate-limit window');
  });
});
