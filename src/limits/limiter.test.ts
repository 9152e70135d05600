import { describe, expect, it } from 'vitest';
import type { Budget, Plan } from './budgets.js';
import { Limiter } from './limiter.js';
import { MemoryStore } from './memory.store.js';

const account: Budget = { name: 'account', burst: 5, sustained: 8 };
const client: Budget = { name: 'client', burst: 3, sustained: 100 };
const strict: Budget = { name: 'strict', burst: 2, sustained: 100 };

const authenticated = (clientId: string): Plan => ({
  governing: { budget: account, subject: 'acct-1' },
  client: { budget: client, subject: `acct-1:${clientId}` },
});

function limiterAt(startMs: number) {
  let now = startMs;
  const limiter = new Limiter(new MemoryStore(), () => now);
  return { limiter, advanceTo: (ms: number) => void (now = ms), advanceBy: (ms: number) => void (now += ms) };
}

const at = (minute: number, second: number, ms = 0) => Date.UTC(2030, 0, 1, 12, minute, second, ms);

describe('the limiter', () => {
  it('counts the burst window down after each request, then rejects with Retry-After to the end of the UTC minute', async () => {
    const { limiter } = limiterAt(at(0, 42, 300));
    const remaining: number[] = [];
    for (let i = 0; i < 2; i++) {
      const decision = await limiter.spend({ governing: { budget: strict, subject: 'login:1.2.3.4' } });
      expect(decision.allowed).toBe(true);
      remaining.push(decision.governing.burst.remaining);
    }
    expect(remaining).toEqual([1, 0]);
    const rejected = await limiter.spend({ governing: { budget: strict, subject: 'login:1.2.3.4' } });
    expect(rejected).toMatchObject({ allowed: false, rejectedBy: 'strict-burst', retryAfterSeconds: 18 });
    expect(rejected.governing.burst).toEqual({ name: 'strict-burst', limit: 2, windowSeconds: 60, remaining: 0, resetSeconds: 18 });
    expect(rejected.governing.sustained.remaining).toBe(98);
  });

  it('serves again in the next UTC minute, exactly when Retry-After said', async () => {
    const { limiter, advanceTo } = limiterAt(at(0, 59, 10));
    const plan: Plan = { governing: { budget: strict, subject: 'register:1.2.3.4' } };
    await limiter.spend(plan);
    await limiter.spend(plan);
    const rejected = await limiter.spend(plan);
    expect(rejected).toMatchObject({ allowed: false, retryAfterSeconds: 1 });
    advanceTo(at(0, 59, 999));
    expect((await limiter.spend(plan)).allowed).toBe(false);
    advanceTo(at(1, 0, 0));
    const served = await limiter.spend(plan);
    expect(served.allowed).toBe(true);
    expect(served.governing.burst).toMatchObject({ remaining: 1, resetSeconds: 60 });
  });

  it('counts one plan used again in new windows as each minute and hour begins (its windows are kept only within them)', async () => {
    const { limiter, advanceTo } = limiterAt(at(59, 59, 998));
    const plan = authenticated('web');
    for (let i = 0; i < 2; i++) await limiter.spend(plan);
    const beforeTheHour = await limiter.spend(plan);
    expect(beforeTheHour.governing.burst.remaining).toBe(2);
    expect(beforeTheHour.governing.sustained.remaining).toBe(5);
    expect(beforeTheHour.client?.burst.remaining).toBe(0);
    expect((await limiter.spend(plan)).allowed).toBe(false);
    // 13:00:00.000: a new minute and a new hour for every window of the same plan object.
    advanceTo(at(60, 0, 0));
    const served = await limiter.spend(plan);
    expect(served.allowed).toBe(true);
    expect(served.governing.burst).toMatchObject({ remaining: 4, resetSeconds: 60 });
    expect(served.governing.sustained).toMatchObject({ remaining: 7, resetSeconds: 3600 });
    expect(served.client?.burst).toMatchObject({ remaining: 2, resetSeconds: 60 });
    // A minute later within the hour: the burst windows start over, the sustained ones go on.
    advanceTo(at(61, 0, 0));
    const nextMinute = await limiter.spend(plan);
    expect(nextMinute.governing.burst.remaining).toBe(4);
    expect(nextMinute.governing.sustained.remaining).toBe(6);
    // Another plan for the same subjects counts in the same windows.
    expect((await limiter.spend(authenticated('web'))).governing.sustained.remaining).toBe(5);
  });

  it('reports Reset in whole seconds from 1 to the window length', async () => {
    const { limiter, advanceTo } = limiterAt(at(0, 0, 0));
    const plan: Plan = { governing: { budget: { name: 'anonymous', burst: 1000, sustained: 1000 }, subject: '1.2.3.4' } };
    const resets: [number, number][] = [];
    for (const moment of [at(0, 0, 0), at(0, 0, 1), at(0, 59, 0), at(0, 59, 999), at(59, 59, 999)]) {
      advanceTo(moment);
      const { governing } = await limiter.spend(plan);
      resets.push([governing.burst.resetSeconds, governing.sustained.resetSeconds]);
    }
    expect(resets).toEqual([
      [60, 3600],
      [60, 3600],
      [1, 3541],
      [1, 3541],
      [1, 1],
    ]);
  });

  it('when a client hammers its fence, the rejected requests leave the account budget to the other clients', async () => {
    const { limiter } = limiterAt(at(10, 5));
    const outcomes = [];
    for (let i = 0; i < 10; i++) outcomes.push(await limiter.spend(authenticated('api-token:script')));
    expect(outcomes.filter((decision) => decision.allowed)).toHaveLength(3);
    expect(outcomes.at(-1)).toMatchObject({ allowed: false, rejectedBy: 'client-burst', retryAfterSeconds: 55 });
    const web = await limiter.spend(authenticated('web'));
    expect(web.allowed).toBe(true);
    expect(web.governing.burst.remaining).toBe(5 - 3 - 1);
    expect(web.client?.burst.remaining).toBe(2);
  });

  it('when the account budget is spent, every client of the account is rejected on the account window', async () => {
    const { limiter } = limiterAt(at(10, 5));
    for (const clientId of ['web', 'web', 'web', 'cli', 'cli']) expect((await limiter.spend(authenticated(clientId))).allowed).toBe(true);
    const rejected = await limiter.spend(authenticated('mcp'));
    expect(rejected).toMatchObject({ allowed: false, rejectedBy: 'account-burst', retryAfterSeconds: 55 });
    expect(rejected.client?.burst.remaining).toBe(3);
  });

  it('when the sustained window is spent, Retry-After waits for the end of the UTC hour', async () => {
    const { limiter, advanceTo } = limiterAt(at(0, 0));
    for (let minute = 0; minute < 4; minute++) {
      advanceTo(at(minute, 1));
      for (const clientId of ['web', 'cli']) expect((await limiter.spend(authenticated(clientId))).allowed).toBe(true);
    }
    advanceTo(at(20, 0, 500));
    const rejected = await limiter.spend(authenticated('mcp'));
    expect(rejected).toMatchObject({ allowed: false, rejectedBy: 'account-sustained', retryAfterSeconds: 40 * 60 });
    expect(rejected.governing.burst.remaining).toBe(5);
    advanceTo(at(60, 0));
    expect((await limiter.spend(authenticated('mcp'))).allowed).toBe(true);
  });

  it('when several windows are exhausted, Retry-After waits until all have budget and names the last to free', async () => {
    const { limiter, advanceTo } = limiterAt(at(0, 0));
    const tightClient: Budget = { name: 'client', burst: 2, sustained: 4 };
    const plan: Plan = { governing: { budget: account, subject: 'acct-2' }, client: { budget: tightClient, subject: 'acct-2:web' } };
    for (const minute of [0, 0, 1, 1]) {
      advanceTo(at(minute, 0));
      expect((await limiter.spend(plan)).allowed).toBe(true);
    }
    advanceTo(at(1, 30));
    const rejected = await limiter.spend(plan);
    expect(rejected).toMatchObject({ allowed: false, rejectedBy: 'client-sustained', retryAfterSeconds: 58 * 60 + 30 });
  });

  it('peeks at the windows without spending', async () => {
    const { limiter } = limiterAt(at(3, 3));
    await limiter.spend(authenticated('web'));
    const first = await limiter.peek(authenticated('web'));
    const second = await limiter.peek(authenticated('web'));
    expect(second).toEqual(first);
    expect(first.governing.burst.remaining).toBe(4);
    expect(first.client?.burst.remaining).toBe(2);
  });
});
