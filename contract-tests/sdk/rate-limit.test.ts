// The SDK's result.rateLimit against the real server: the windows of RateLimit-Policy and RateLimit
// (decisions §17), on served, refused and unbudgeted answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { awayFromMinuteEnd, limitHeaders } from '../support/limits.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '2', RATE_LIMIT_REFRESH_BURST_PER_MINUTE: '5' } });
});
afterAll(async () => {
  await server?.stop();
});

describe('result.rateLimit', () => {
  it('gives every window of an answer, agreeing with X-RateLimit-*, counting down, and the refusing one at 0 on a 429', async () => {
    await awayFromMinuteEnd();
    const { client } = await signedInClient(server);
    const first = await client.getMe();
    expect(first.rateLimit).toEqual([
      { name: 'account-burst', limit: 400, remaining: 399, resetSeconds: expect.any(Number), windowSeconds: 60 },
      { name: 'account-sustained', limit: 8000, remaining: 7999, resetSeconds: expect.any(Number), windowSeconds: 3600 },
      { name: 'client-burst', limit: 2, remaining: 1, resetSeconds: expect.any(Number), windowSeconds: 60 },
      { name: 'client-sustained', limit: 4000, remaining: 3999, resetSeconds: expect.any(Number), windowSeconds: 3600 },
    ]);
    const x = limitHeaders(first.response);
    const [burst, sustained, clientBurst] = first.rateLimit;
    expect([burst!.resetSeconds, sustained!.resetSeconds, clientBurst!.resetSeconds]).toEqual([x.reset, x['reset-sustained'], x['reset-client']]);

    const second = await client.getMe();
    expect(second.rateLimit.map((window) => window.remaining)).toEqual([398, 7998, 0, 3998]);

    const refused = await client.getMe();
    expect(refused.error?.body?.window).toBe('client-burst');
    const refusing = refused.rateLimit.find((window) => window.name === 'client-burst')!;
    expect(refusing.remaining).toBe(0);
    expect(refused.error!.retryAfterSeconds).toBeGreaterThanOrEqual(refusing.resetSeconds);
  });

  it('gives the refresh and anonymous windows of those answers, and none for health', async () => {
    const { tokens } = await signedInClient(server);
    const anonymous = server.client();
    const refreshed = await anonymous.refreshTokens({ refreshToken: tokens.refreshToken });
    expect(refreshed.rateLimit.map((window) => [window.name, window.limit, window.remaining])).toEqual([
      ['refresh-burst', 5, 4],
      ['refresh-sustained', 2400, 2399],
    ]);
    const metadata = await anonymous.getAuthorizationServerMetadata();
    expect(metadata.rateLimit.map((window) => window.name)).toEqual(['anonymous-burst', 'anonymous-sustained']);
    expect(metadata.rateLimit[0]!.remaining).toBe(limitHeaders(metadata.response).remaining);
    expect((await anonymous.getHealth()).rateLimit).toEqual([]);
  });
});
