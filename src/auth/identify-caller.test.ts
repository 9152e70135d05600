import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';
import type { ApiTokens } from './api-tokens.service.js';
import { createIdentifyCaller } from './identify-caller.js';

const settings = { secret: 'unit-test-secret-0123456789-abcdefghijklmnop', issuer: 'task-service', audience: 'task-service-api', lifetimeSeconds: 120 };
const subject = { accountId: 'account-1', clientId: 'web', scopes: ['tasks:read'] as const, sessionId: 'family-1' };
const noApiTokens = { authenticate: async () => undefined } as unknown as ApiTokens;

/** Runs the middleware on a request bearing `token` and says what it decided. */
async function identify(middleware: ReturnType<typeof createIdentifyCaller>, token: string) {
  const { req } = await run(middleware, token);
  return { caller: req.caller, failure: req.authFailure };
}

async function run(middleware: ReturnType<typeof createIdentifyCaller>, token: string) {
  const req = { headers: { authorization: `Bearer ${token}` }, get: () => undefined } as unknown as Request;
  (req as { res?: unknown }).res = {} as Response;
  await new Promise<void>((resolve, reject) => {
    void middleware(req, req.res!, (err?: unknown) => (err ? reject(err as Error) : resolve()));
  });
  return { req };
}

describe('identifyCaller', () => {
  it('accepts the same access token on every request, and refuses it once its exp has passed', async () => {
    const tokens = createAccessTokens({ ...settings, lifetimeSeconds: 1 });
    const middleware = createIdentifyCaller(tokens, noApiTokens);
    const token = tokens.sign(subject);
    const exp = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { exp: number }).exp * 1000;

    for (let i = 0; i < 3; i++) expect((await identify(middleware, token)).caller).toMatchObject({ accountId: 'account-1', kind: 'web' });

    await new Promise((resolve) => setTimeout(resolve, exp - Date.now() + 50));
    expect(await identify(middleware, token)).toEqual({ caller: undefined, failure: 'expired' });
  });

  it('refuses a token that differs from one it has accepted only in its signature', async () => {
    const tokens = createAccessTokens(settings);
    const middleware = createIdentifyCaller(tokens, noApiTokens);
    const token = tokens.sign(subject);
    expect((await identify(middleware, token)).caller).toBeDefined();

    const [header, payload, signature] = token.split('.') as [string, string, string];
    const forged = `${header}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await identify(middleware, forged)).toEqual({ caller: undefined, failure: 'invalid' });
    expect((await identify(middleware, token)).caller).toBeDefined();
  });
});

describe('identifyCaller when the database is down', () => {
  it('holds the failure of an API-token lookup back for after the rate limiter, instead of answering', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const failingApiTokens = { authenticate: async () => Promise.reject(outage) } as unknown as ApiTokens;
    const middleware = createIdentifyCaller(createAccessTokens(settings), failingApiTokens);
    const { req } = await run(middleware, 'tsk_0123456789abcdef');
    expect(req.deferredError).toBe(outage);
    expect(req.caller).toBeUndefined();
  });
});
