import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import type { Caller } from '../http/caller.js';
import { readOpenApiDocument } from '../http/openapi-document.js';
import { operationTable, type OperationRoute } from '../http/operation-table.js';
import { budgetsFrom } from './budgets.js';
import { createPlanner, type RequestFacts } from './request-plan.js';

const budgets = budgetsFrom(loadConfig({ NODE_ENV: 'test' }));
const caller: Caller = { accountId: 'acct-1', clientId: 'web', kind: 'web', scopes: ['tasks:read'] };
const ip = '198.51.100.4';

const strict = (operationId: string, group: string) => ({ operationId, 'x-rate-limit-budget': 'strict', 'x-rate-limit-group': group, responses: {} });
const spends = (operationId: string, budget: string) => ({ operationId, 'x-rate-limit-budget': budget, responses: {} });

/** A made-up contract: a new sign-in door (`POST /passkeys/sign-in`) joins the login group by declaring it. */
const document = {
  paths: {
    '/auth/login': { post: strict('login', 'login') },
    '/passkeys/sign-in': { post: strict('signInWithPasskey', 'login') },
    '/auth/register': { post: strict('registerAccount', 'register') },
    '/auth/refresh': { post: spends('refreshTokens', 'refresh') },
    '/tasks': { get: spends('listTasks', 'account') },
    '/docs': { get: spends('getDocs', 'public') },
    '/healthz': { get: spends('getHealth', 'none') },
  },
};

function plannerFor(doc: Record<string, unknown>) {
  const accounts = new Map([['rt-of-acct-7', 'acct-7']]);
  const rows = operationTable(doc);
  const planFor = createPlanner(budgets, async (token) => accounts.get(token), () => {});
  const route = (operationId: string): OperationRoute => rows.find((row) => row.operationId === operationId)!;
  return (operationId: string, extra: Partial<RequestFacts> = {}) => planFor({ budget: route(operationId).budget, clientIp: () => ip, ...extra });
}

describe('the plan built from the budgets the document declares', () => {
  const planFor = plannerFor(document);

  it('gives every strict operation of one group one budget per client IP, and other groups their own', async () => {
    const login = await planFor('login', { caller });
    const passkey = await planFor('signInWithPasskey');
    const register = await planFor('registerAccount');
    expect(login).toEqual({ governing: { budget: budgets.strict, subject: `login:${ip}` } });
    expect(passkey).toEqual(login);
    expect(register.governing).toEqual({ budget: budgets.strict, subject: `register:${ip}` });
  });

  it("keys the refresh budget by the account of the body's refresh token, and by IP when the token is unknown", async () => {
    const known = await planFor('refreshTokens', { caller, body: { refreshToken: 'rt-of-acct-7' } });
    const unknown = await planFor('refreshTokens', { body: { refreshToken: 'made-up' } });
    expect(known).toEqual({ governing: { budget: budgets.refresh, subject: 'account:acct-7' } });
    expect(unknown).toEqual({ governing: { budget: budgets.refresh, subject: `ip:${ip}` } });
  });

  it("puts public operations on the anonymous budget by IP, and on the caller's account budget when there is a caller", async () => {
    expect(await planFor('getDocs')).toEqual({ governing: { budget: budgets.anonymous, subject: ip } });
    const withCaller = await planFor('getDocs', { caller });
    expect(withCaller.governing).toEqual({ budget: budgets.account, subject: 'acct-1' });
    expect(withCaller.client).toEqual({ budget: budgets.client, subject: 'acct-1:web' });
  });

  it('spends the account budget and client fence on account operations, the anonymous one without a caller', async () => {
    expect(await planFor('listTasks', { caller })).toEqual({
      governing: { budget: budgets.account, subject: 'acct-1' },
      client: { budget: budgets.client, subject: 'acct-1:web' },
    });
    expect((await planFor('listTasks')).governing).toEqual({ budget: budgets.anonymous, subject: ip });
  });
});

describe('the declarations, read at start-up', () => {
  it("puts the sign-in forms of the consent and device pages in the login group of the service's own document", () => {
    const rows = operationTable(readOpenApiDocument().document);
    const groupOf = (operationId: string) => rows.find((row) => row.operationId === operationId)!.budget;
    for (const operationId of ['login', 'submitAuthorization', 'submitDeviceVerification']) expect(groupOf(operationId)).toEqual({ budget: 'strict', group: 'login' });
    expect(groupOf('showDeviceVerification')).toEqual({ budget: 'strict', group: 'device-verification' });
  });

  it('refuses a document with an operation that declares no budget, an unknown one, or a strict one without its group', () => {
    const refused = (operation: Record<string, unknown>) => () => operationTable({ paths: { '/x': { post: { responses: {}, ...operation } } } });
    expect(refused({ operationId: 'bare' })).toThrow('OpenAPI operation bare: x-rate-limit-budget must be one of account, public, strict, refresh, none');
    expect(refused(spends('typo', 'acount'))).toThrow('x-rate-limit-budget must be one of');
    expect(refused(spends('loose', 'strict'))).toThrow('OpenAPI operation loose: a strict budget needs x-rate-limit-group');
    expect(refused({ ...spends('stray', 'public'), 'x-rate-limit-group': 'login' })).toThrow('x-rate-limit-group is for strict budgets only');
  });
});
