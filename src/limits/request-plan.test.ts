import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Caller } from '../http/caller.js';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { operationTable } from '../http/operation-table.js';
import { budgetsFrom } from './budgets.js';
import { createPlanner, type RequestFacts } from './request-plan.js';

const budgets = budgetsFrom(loadConfig({ NODE_ENV: 'test' }));
const webCaller: Caller = { accountId: 'acct-1', clientId: 'web', kind: 'web', scopes: ['tasks:read'] };
const knownTokens = new Map([['rt-of-acct-7', 'acct-7']]);

function planner(lookup = async (token: string) => knownTokens.get(token)) {
  const lookupErrors: unknown[] = [];
  const lookups: string[] = [];
  const planFor = createPlanner(
    budgets,
    async (token) => {
      lookups.push(token);
      return lookup(token);
    },
    (err) => lookupErrors.push(err),
  );
  return { planFor, lookupErrors, lookups };
}

const table = operationTable(readOpenApiDocument().document);
/** A request to the operation at `method` and the document's `path` (its route found it: http/routes.ts); none there, a 404 or 405. */
const facts = (method: string, path: string, extra: Partial<RequestFacts> = {}): RequestFacts => ({
  budget: table.find((row) => row.method === method.toLowerCase() && row.path === path)?.budget,
  clientIp: () => '203.0.113.9',
  ...extra,
});

describe('which budgets a request spends', () => {
  it('gives register, login and the OAuth token endpoint each their own strict budget per client IP', async () => {
    const { planFor } = planner();
    const subjects = [];
    for (const path of ['/auth/register', '/auth/login', '/oauth/token']) {
      const plan = await planFor(facts('POST', path, { caller: webCaller }));
      expect(plan.governing.budget.name).toBe('strict');
      expect(plan.client).toBeUndefined();
      subjects.push(plan.governing.subject);
    }
    expect(new Set(subjects).size).toBe(3);
    expect(subjects.every((subject) => subject.endsWith(':203.0.113.9'))).toBe(true);
  });

  it('counts the OAuth consent page sign-in against the login budget, so a second door gives no extra guesses', async () => {
    const { planFor } = planner();
    const login = await planFor(facts('POST', '/auth/login'));
    const consent = await planFor(facts('POST', '/oauth/authorize'));
    expect(consent.governing).toEqual(login.governing);
  });

  it('counts the device verification page sign-in against the login budget, and gives the device endpoints strict budgets of their own', async () => {
    const { planFor } = planner();
    const login = await planFor(facts('POST', '/auth/login'));
    expect((await planFor(facts('POST', '/oauth/device'))).governing).toEqual(login.governing);
    const entering = await planFor(facts('GET', '/oauth/device'));
    const asking = await planFor(facts('POST', '/oauth/device_authorization'));
    for (const plan of [entering, asking]) expect(plan.governing.budget.name).toBe('strict');
    expect(new Set([login.governing.subject, entering.governing.subject, asking.governing.subject]).size).toBe(3);
  });

  it('keys the refresh budget by the account the refresh token belongs to, never spending the account budget', async () => {
    const { planFor } = planner();
    const plan = await planFor(facts('POST', '/auth/refresh', { caller: webCaller, body: { refreshToken: 'rt-of-acct-7' } }));
    expect(plan).toEqual({ governing: { budget: budgets.refresh, subject: 'account:acct-7' } });
  });

  it('keys the refresh budget by the account of the refresh cookie when the body has no token (a cookie session)', async () => {
    const { planFor, lookups } = planner();
    const plan = await planFor(facts('POST', '/auth/refresh', { body: {}, refreshCookie: () => 'rt-of-acct-7' }));
    expect(plan.governing).toEqual({ budget: budgets.refresh, subject: 'account:acct-7' });
    // The body's token, when there is one, is the one the refresh uses, and the one the budget keys on.
    await planFor(facts('POST', '/auth/refresh', { body: { refreshToken: 'nobody-issued-this' }, refreshCookie: () => 'rt-of-acct-7' }));
    expect(lookups).toEqual(['rt-of-acct-7', 'nobody-issued-this']);
  });

  it('keys the refresh budget by client IP when the token is unknown, missing or absurdly long', async () => {
    const { planFor, lookups } = planner();
    for (const body of [{ refreshToken: 'nobody-issued-this' }, undefined, { refreshToken: 42 }, { refreshToken: 'x'.repeat(5000) }]) {
      const plan = await planFor(facts('POST', '/auth/refresh', { body }));
      expect(plan.governing).toEqual({ budget: budgets.refresh, subject: 'ip:203.0.113.9' });
    }
    expect(lookups).toEqual(['nobody-issued-this']);
  });

  it('counts a refresh by client IP when the token look-up fails, and reports the failure', async () => {
    const { planFor, lookupErrors } = planner(async () => {
      throw new Error('database down');
    });
    const plan = await planFor(facts('POST', '/auth/refresh', { body: { refreshToken: 'rt-of-acct-7' } }));
    expect(plan.governing.subject).toBe('ip:203.0.113.9');
    expect(lookupErrors).toHaveLength(1);
  });

  it('spends the account budget and the caller\'s own client fence for authenticated requests', async () => {
    const { planFor } = planner();
    const token: Caller = { accountId: 'acct-1', clientId: 'api-token:t1', kind: 'api-token', scopes: ['tasks:read'] };
    const viaWeb = await planFor(facts('GET', '/tasks', { caller: webCaller }));
    const viaToken = await planFor(facts('POST', '/auth/logout', { caller: token }));
    expect(viaWeb.governing).toEqual({ budget: budgets.account, subject: 'acct-1' });
    expect(viaToken.governing).toEqual(viaWeb.governing);
    expect(viaWeb.client).toEqual({ budget: budgets.client, subject: 'acct-1:web' });
    expect(viaToken.client).toEqual({ budget: budgets.client, subject: 'acct-1:api-token:t1' });
  });

  it('plans once per caller: the same caller gets the same plan (the limiter keeps its windows by plan), another caller its own', async () => {
    const { planFor } = planner();
    const first = await planFor(facts('GET', '/tasks', { caller: webCaller }));
    expect(await planFor(facts('POST', '/tasks', { caller: webCaller }))).toBe(first);
    const sameIdsOtherCaller: Caller = { ...webCaller };
    const other = await planFor(facts('GET', '/tasks', { caller: sameIdsOtherCaller }));
    expect(other).not.toBe(first);
    expect(other).toEqual(first);
    const otherAccount = await planFor(facts('GET', '/tasks', { caller: { ...webCaller, accountId: 'acct-2' } }));
    expect(otherAccount.governing.subject).toBe('acct-2');
    expect(otherAccount.client?.subject).toBe('acct-2:web');
  });

  it('puts requests without a valid caller on the anonymous budget per client IP, with the account budget\'s numbers', async () => {
    const { planFor } = planner();
    const plan = await planFor(facts('GET', '/tasks'));
    expect(plan).toEqual({ governing: { budget: budgets.anonymous, subject: '203.0.113.9' } });
    expect([budgets.anonymous.burst, budgets.anonymous.sustained]).toEqual([400, 8000]);
    expect((await planFor(facts('GET', '/auth/login'))).governing.budget.name).toBe('anonymous');
  });
});
