import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { callerFromJwt, createAccessTokens, parseScopes } from './access-tokens.js';

const settings = { secret: 'unit-test-secret-0123456789-abcdefghijklmnop', issuer: 'task-service', audience: 'task-service-api', lifetimeSeconds: 120 };
const subject = { accountId: 'account-1', clientId: 'web', scopes: ['tasks:read', 'connectors:read'] as const, sessionId: 'family-1' };

describe('access tokens', () => {
  it('never live less than their lifetime: exp is rounded up to the next whole second', () => {
    const tokens = createAccessTokens({ ...settings, lifetimeSeconds: 1 });
    const before = Date.now();
    const { exp } = jwt.decode(tokens.sign(subject)) as { exp: number };
    expect(exp * 1000).toBeGreaterThanOrEqual(before + 1000);
    expect(exp * 1000).toBeLessThanOrEqual(Date.now() + 2000);
  });

  it('describe their caller: web tokens are the web client, other clients are OAuth apps', () => {
    const tokens = createAccessTokens(settings);
    const web = jwt.verify(tokens.sign(subject), settings.secret, { complete: true });
    expect(callerFromJwt(web)).toEqual({ accountId: 'account-1', clientId: 'web', kind: 'web', scopes: ['tasks:read', 'connectors:read'], sessionId: 'family-1', audience: settings.audience });
    const app = jwt.verify(tokens.sign({ ...subject, clientId: 'taskctl' }), settings.secret, { complete: true });
    expect(callerFromJwt(app)).toMatchObject({ clientId: 'taskctl', kind: 'oauth' });
  });

  it('are recognised by their typ header only (at+jwt, also in its media-type spelling)', () => {
    const claims = { sub: 'a', cid: 'web', sid: 's', scope: 'tasks:read', iat: 1, exp: 2 };
    const decodedWith = (typ?: string) => ({ header: typ === undefined ? { alg: 'HS256' } : { alg: 'HS256', typ }, payload: claims });
    expect(callerFromJwt(decodedWith('at+jwt'))).toBeDefined();
    expect(callerFromJwt(decodedWith('application/at+JWT'))).toBeDefined();
    expect(callerFromJwt(decodedWith('JWT'))).toBeUndefined();
    expect(callerFromJwt(decodedWith())).toBeUndefined();
    expect(callerFromJwt({ header: { typ: 'at+jwt' }, payload: { ...claims, sub: 42 } })).toBeUndefined();
  });

  it('tell a genuine expired token from a forged or foreign one', () => {
    const tokens = createAccessTokens(settings);
    const expired = (overrides: object = {}, secret = settings.secret) =>
      jwt.sign({ sub: 'a', cid: 'web', sid: 's', scope: '', exp: Math.floor(Date.now() / 1000) - 1, iss: settings.issuer, aud: settings.audience, ...overrides }, secret, {
        header: { alg: 'HS256', typ: 'at+jwt' },
      });
    expect(tokens.isGenuineButExpired(expired())).toBe(true);
    expect(tokens.isGenuineButExpired(expired({ aud: 'elsewhere' }))).toBe(false);
    expect(tokens.isGenuineButExpired(expired({}, 'another-secret-0123456789-abcdefghijklmnop'))).toBe(false);
    expect(tokens.isGenuineButExpired(tokens.sign(subject))).toBe(false);
  });

  it('grant only the scopes we know, whatever else the scope claim lists', () => {
    expect(parseScopes('tasks:write admin tasks:read  ')).toEqual(['tasks:read', 'tasks:write']);
    expect(parseScopes('')).toEqual([]);
  });
});
