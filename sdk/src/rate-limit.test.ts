import { describe, expect, it } from 'vitest';
import { rateLimitOf } from './rate-limit.js';

const headers = (fields: Record<string, string>) => new Headers(fields);

describe('rateLimitOf', () => {
  it('joins RateLimit to RateLimit-Policy by name, in the order of RateLimit', () => {
    expect(
      rateLimitOf(
        headers({
          'ratelimit-policy': '"account-burst";q=400;w=60, "client-burst";q=240;w=60',
          ratelimit: '"client-burst";r=3;t=17, "account-burst";r=380;t=17',
        }),
      ),
    ).toEqual([
      { name: 'client-burst', limit: 240, remaining: 3, resetSeconds: 17, windowSeconds: 60 },
      { name: 'account-burst', limit: 400, remaining: 380, resetSeconds: 17, windowSeconds: 60 },
    ]);
  });

  it('leaves out windows without a policy quota or without r and t, and the window length when w is absent', () => {
    expect(
      rateLimitOf(
        headers({
          'ratelimit-policy': '"a";q=10, "b";w=60',
          ratelimit: '"a";r=1;t=5, "b";r=1;t=5, "c";r=1;t=5, "a2";r=1',
        }),
      ),
    ).toEqual([{ name: 'a', limit: 10, remaining: 1, resetSeconds: 5 }]);
  });

  it('gives no windows, rather than throwing, when a field is missing or is not a Structured Fields list', () => {
    expect(rateLimitOf(headers({}))).toEqual([]);
    expect(rateLimitOf(headers({ ratelimit: '"a";r=1;t=5' }))).toEqual([]);
    expect(rateLimitOf(headers({ 'ratelimit-policy': '"a";q=1;w=60', ratelimit: '"a";r=1;t=5,,' }))).toEqual([]);
    expect(rateLimitOf(headers({ 'ratelimit-policy': '"a";q=1.5;w=60', ratelimit: '"a";r=-1;t=5' }))).toEqual([]);
  });
});
