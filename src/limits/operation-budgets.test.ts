import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Caller } from '../http/caller.js';
import { operationMatcher } from '../http/route-of.js';
import { budgetsFrom } from './budgets.js';
import { operationBudgetsOf } from './operation-budgets.js';
import { createPlanner, type RequestFacts } from './request-plan.js';

const budgets = budgetsFrom(loadConfig({ NODE_ENV: 'test' }));
const caller: Caller = { accountId: 'acct-1', clientId: 'web', kind: 'web', scopes: ['tasks:read'] };
const ip = '198.51.100.4';

const strict = (operationId: string, group: string) => ({ operationId, 'x-rate-limit-budget': 'strict', 'x-rate-limit-group': group });
const spends = (operationId: string, budget: string) => ({ operationId, 'x-rate-limit-budget': budget });

/** A made-up contract: a new sign-in door (`POST /passkeys/sign-in`) joins the login group by declaring it. */
const document = {
  paths: {
    '/auth/login': { post: strict('login', 'login') },
    '/passkeys/sign-in': { post: strict('signInWithPasskey', 'login') },
    '/auth/register': { post: strict('registerAccount', 'register') },
    '/auth/refresh': { post: spends('refreshTokens', 'refresh') },
    '/tasks': { get: spends('listTasks', 'account') },
    '/tasks/{taskId}': { get: spends('getTask', 'account') },
    '/docs': { get: spends('getDocs', 'public') },
    '/healthz': { get: spends('getHealth', 'none') },
  },
};

function plannerFor(doc: Record<string, unknown>) {
  const accounts = new Map([['rt-of-acct-7', 'acct-7']]);
  return createPlanner(budgets, async (token) => accounts.get(token), () => {}, doc);
}
const facts = (method: string, path: string, extra: Partial<RequestFacts> = {}): RequestFacts => ({ method, path, clientIp: () => ip, ...extra });

describe('the plan built from the budgets the document declares', () => {
  const planFor = plannerFor(document);

  it('gives every strict operation of one group one budget per client IP, and other groups their own', async () => {
    const login = await planFor(facts('POST', '/auth/login', { caller }));
    const passkey = await planFor(facts('POST', '/passkeys/sign-in'));
    const register = await planFor(facts('POST', '/auth/register'));
    expect(login).toEqual({ governing: { budget: budgets.strict, subject: `login:${ip}` } });
    expect(passkey).toEqual(login);
    expect(register.governing).toEqual({ budget: budgets.strict, subject: `register:${ip}` });
  });

  it('keys the refresh budget by the account of the body\'s refresh token, and by IP when the token is unknown', async () => {
    const known = await planFor(facts('POST', '/auth/refresh', { caller, body: { refreshToken: 'rt-of-acct-7' } }));
    const unknown = await planFor(facts('POST', '/auth/refresh', { body: { refreshToken: 'made-up' } }));
    expect(known).toEqual({ governing: { budget: budgets.refresh, subject: 'account:acct-7' } });
    expect(unknown).toEqual({ governing: { budget: budgets.refresh, subject: `ip:${ip}` } });
  });

  it('puts public operations on the anonymous budget by IP, and on the caller\'s account budget when there is a caller', async () => {
    expect(await planFor(facts('GET', '/docs'))).toEqual({ governing: { budget: budgets.anonymous, subject: ip } });
    const withCaller = await planFor(facts('GET', '/docs', { caller }));
    expect(withCaller.governing).toEqual({ budget: budgets.account, subject: 'acct-1' });
    expect(withCaller.client).toEqual({ budget: budgets.client, subject: 'acct-1:web' });
  });

  it('spends the account budget and client fence on account operations, with or without path parameters', async () => {
    for (const path of ['/tasks', '/tasks/7f3c']) {
      expect(await planFor(facts('GET', path, { caller }))).toEqual({
        governing: { budget: budgets.account, subject: 'acct-1' },
        client: { budget: budgets.client, subject: 'acct-1:web' },
      });
    }
    expect((await planFor(facts('GET', '/tasks/7f3c'))).governing).toEqual({ budget: budgets.anonymous, subject: ip });
  });

  it('matches paths as Express routes them: any case, trailing slashes ignored', async () => {
    for (const path of ['/Passkeys/Sign-In', '/passkeys/sign-in/', '/AUTH/LOGIN//']) {
      expect((await planFor(facts('POST', path))).governing.subject).toBe(`login:${ip}`);
    }
  });

  it('keeps today\'s budgets for what the document does not declare: other methods, other paths', async () => {
    expect((await planFor(facts('GET', '/auth/login'))).governing).toEqual({ budget: budgets.anonymous, subject: ip });
    expect((await planFor(facts('HEAD', '/passkeys/sign-in'))).governing.budget.name).toBe('anonymous');
    expect((await planFor(facts('GET', '/metrics', { caller }))).governing).toEqual({ budget: budgets.account, subject: 'acct-1' });
  });
});

describe('the declarations, read at start-up', () => {
  it('holds one per operation of the service\'s own document, the sign-in forms of the consent and device pages in the login group', async () => {
    const planFor = createPlanner(budgets, async () => undefined, () => {});
    const subjects = [];
    for (const [method, path] of [['POST', '/auth/login'], ['POST', '/oauth/authorize'], ['POST', '/oauth/device']]) {
      subjects.push((await planFor(facts(method!, path!))).governing.subject);
    }
    expect(subjects).toEqual([`login:${ip}`, `login:${ip}`, `login:${ip}`]);
  });

  it('counts a HEAD on the budget of the GET it is served as: user codes are tried at the strict pace either way', async () => {
    const planFor = createPlanner(budgets, async () => undefined, () => {});
    for (const method of ['GET', 'HEAD']) {
      expect((await planFor(facts(method, '/oauth/device'))).governing).toEqual({ budget: budgets.strict, subject: `device-verification:${ip}` });
    }
  });

  it('refuses a document with an operation that declares no budget, an unknown one, or a strict one without its group', () => {
    const refused = (operation: Record<string, unknown>) => () => operationBudgetsOf(operationMatcher({ paths: { '/x': { post: operation } } }));
    expect(refused({ operationId: 'bare' })).toThrow('OpenAPI operation bare: x-rate-limit-budget must be one of account, public, strict, refresh, none');
    expect(refused(spends('typo', 'acount'))).toThrow('x-rate-limit-budget must be one of');
    expect(refused(spends('loose', 'strict'))).toThrow('OpenAPI operation loose: a strict budget needs x-rate-limit-group');
    expect(refused({ ...spends('stray', 'public'), 'x-rate-limit-group': 'login' })).toThrow('x-rate-limit-group is for strict budgets only');
  });
});
