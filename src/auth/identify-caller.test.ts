import type { Request, Response } from 'express';
import type { Identity } from '../http/request-state.js';
import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';
import type { ApiTokens } from './api-tokens.service.js';
import { createIdentifyCaller } from './identify-caller.js';

const settings = { secret: 'unit-test-secret-0123456789-abcdefghijklmnop', issuer: 'task-service', audience: 'task-service-api', lifetimeSeconds: 120 };
const subject = { accountId: 'account-1', clientId: 'web', scopes: ['tasks:read'] as const, sessionId: 'family-1' };
const noApiTokens = { authenticate: async () => undefined } as unknown as ApiTokens;
const account = { id: 'account-1', email: 'ada@example.com', name: null, createdAtMs: 0, lastTaskChange: 0 };
const checks = { audienceFits: () => true, accountOf: async () => account };

/** Identifies the caller of a request bearing `token` and says what it found. */
async function identify(identifyCaller: ReturnType<typeof createIdentifyCaller>, token: string) {
  const identity = await run(identifyCaller, token);
  return { caller: identity.kind === 'caller' ? identity.caller : undefined, failure: identity.kind === 'failure' ? identity.failure : undefined };
}

function run(identifyCaller: ReturnType<typeof createIdentifyCaller>, token: string, authorization = `Bearer ${token}`): Promise<Identity> {
  const req = { headers: { authorization }, get: () => undefined } as unknown as Request;
  (req as { res?: unknown }).res = {} as Response;
  return identifyCaller(req, 'api');
}

/** A middleware that has accepted a freshly signed token once, and the token's three parts. */
async function afterAcceptingOne() {
  const tokens = createAccessTokens(settings);
  const middleware = createIdentifyCaller(tokens, noApiTokens, checks);
  const token = tokens.sign(subject);
  expect((await identify(middleware, token)).caller).toBeDefined();
  const [header, payload, signature] = token.split('.') as [string, string, string];
  return { middleware, token, header, payload, signature };
}

describe('identifyCaller', () => {
  it('accepts the same access token on every request, and refuses it once its exp has passed', async () => {
    const tokens = createAccessTokens({ ...settings, lifetimeSeconds: 1 });
    const middleware = createIdentifyCaller(tokens, noApiTokens, checks);
    const token = tokens.sign(subject);
    const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

    for (let i = 0; i < 3; i++) expect((await identify(middleware, token)).caller).toMatchObject({ accountId: 'account-1', kind: 'web' });

    await new Promise((resolve) => setTimeout(resolve, exp - Date.now() + 50));
    expect(await identify(middleware, token)).toEqual({ caller: undefined, failure: 'expired' });
  });

  it('refuses a token that differs from one it has accepted only in its signature', async () => {
    const { middleware, token, header, payload, signature } = await afterAcceptingOne();
    const forged = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await identify(middleware, forged)).toEqual({ caller: undefined, failure: 'invalid' });
    expect((await identify(middleware, token)).caller).toBeDefined();
  });

  it('refuses a token that ends as one it has accepted (its signature) but differs before, and the accepted one behind another scheme or spacing only as BEARER reads it', async () => {
    const { middleware, token, header, payload, signature } = await afterAcceptingOne();
    const otherAccount = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: 'account-2' })).toString('base64url');
    expect(await identify(middleware, `${header}.${otherAccount}.${signature}`)).toEqual({ caller: undefined, failure: 'invalid' });
    const sent = async (authorization: string) => (await run(middleware, token, authorization)).kind;
    expect(await sent(`bearer   ${token}`)).toBe('caller');
    expect(await sent(`Basic ${token}`)).toBe('failure');
    expect(await sent(`Bearer ${token}`)).toBe('caller');
  });
});

describe('identifyCaller and the account behind an access token', () => {
  it('hands on the account it read, and refuses the token of an account that is gone', async () => {
    const tokens = createAccessTokens(settings);
    const token = tokens.sign(subject);
    expect(await run(createIdentifyCaller(tokens, noApiTokens, checks), token)).toMatchObject({ kind: 'caller', account });
    const closed = createIdentifyCaller(tokens, noApiTokens, { ...checks, accountOf: async () => undefined });
    expect(await run(closed, token)).toEqual({ kind: 'failure', failure: 'invalid' });
  });
});

describe('identifyCaller when the database is down', () => {
  it('returns the failure of an API-token lookup as its finding, for the count step to decide on, instead of answering', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failingApiTokens = { authenticate: async () => Promise.reject(outage) } as unknown as ApiTokens;
    const identifyCaller = createIdentifyCaller(createAccessTokens(settings), failingApiTokens, checks);
    expect(await run(identifyCaller, 'tsk_0123456789abcdef')).toEqual({ kind: 'error', error: outage });
  });

  it('returns the failure of the account check of an access token the same way', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const tokens = createAccessTokens(settings);
    const identifyCaller = createIdentifyCaller(tokens, noApiTokens, { ...checks, accountOf: () => Promise.reject(outage) });
    expect(await run(identifyCaller, tokens.sign(subject))).toEqual({ kind: 'error', error: outage });
  });
});
