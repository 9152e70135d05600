import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sha256Hex } from '../auth/auth.component.js';
import type { Db } from '../platform/db.js';
import { createMigratedDb, engines, insertAccount, type MigratedDb } from '../test-support/databases.js';
import { createSessionTokens } from '../test-support/session-tokens.js';
import { createAuthorizationCodesRepository, type AuthorizationCodesRepository } from './authorization-codes.repository.js';
import { TASKCTL } from './clients.service.js';
import { createOAuthLibraryAdapter, type OAuthLibraryAdapter } from './oauth-library.adapter.js';

const REDIRECT = 'http://127.0.0.1:50000/callback';
const verifier = 'v'.repeat(50);
const challenge = createHash('sha256').update(verifier).digest('base64url');
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': '100' };

describe.each(engines)('the OAuth library adapter on %s', (engine) => {
  let database: MigratedDb;
  let db: Db;
  let accountId: string;
  let codes: AuthorizationCodesRepository;
  /** Lets a test hold the redemption between saving its tokens and checking for a replay. */
  let beforeReplayCheck: () => Promise<void>;

  const adapter = (overrides: Partial<AuthorizationCodesRepository> = {}): OAuthLibraryAdapter => {
    const { accessTokens, tokenPairs } = createSessionTokens(db, { accessLifetimeSeconds: 120, refreshLifetimeSeconds: 3600, reuseIntervalSeconds: 0 });
    return createOAuthLibraryAdapter({
      findClient: async (id) => (id === TASKCTL.id ? TASKCTL : undefined),
      codes: { ...codes, ...overrides },
      tokenPairs,
      accessTokens,
      refreshLifetimeSeconds: 3600,
    });
  };
  const exchange = (server: OAuthLibraryAdapter, code: string) =>
    server.token({
      headers: FORM_HEADERS,
      method: 'POST',
      body: { grant_type: 'authorization_code', client_id: 'taskctl', redirect_uri: REDIRECT, code, code_verifier: verifier },
      baseUrl: 'http://127.0.0.1:3000',
    });
  const issue = (server: OAuthLibraryAdapter) =>
    server.issueCode({ client: TASKCTL, redirectUri: REDIRECT, codeChallenge: challenge, state: undefined, scopes: ['tasks:read'], resource: null }, accountId);

  beforeEach(async () => {
    database = await createMigratedDb(engine);
    db = database.db;
    accountId = await insertAccount(db);
    const repository = createAuthorizationCodesRepository(db);
    beforeReplayCheck = async () => undefined;
    codes = { ...repository, isRevoked: async (hash) => (await beforeReplayCheck(), repository.isRevoked(hash)) };
  });
  afterEach(async () => {
    await database.drop();
  });

  it('stores a code only as its digest, for 60 seconds, with the family it will issue named', async () => {
    const before = Date.now();
    const code = await issue(adapter());
    const row = await db('oauth_authorization_codes').first();
    expect(row).toMatchObject({ code_hash: sha256Hex(code), client_id: 'taskctl', account_id: accountId, scope: 'tasks:read', code_challenge: challenge });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(Number(row.expires_at)).toBeGreaterThanOrEqual(before + 59_000);
    expect(Number(row.expires_at)).toBeLessThanOrEqual(Date.now() + 60_000);
    const { ok } = await exchange(adapter(), code);
    expect(ok).toBe(true);
    expect(await db('refresh_tokens').where({ family_id: row.family_id }).count({ n: '*' }).first()).toMatchObject({ n: 1 });
  });

  it('a replay that lands while the first exchange is still saving its tokens revokes them all the same', async () => {
    const server = adapter();
    const code = await issue(server);
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((resolve) => (entered = resolve));
    beforeReplayCheck = () => {
      entered();
      return new Promise<void>((resolve) => (release = resolve));
    };
    const first = exchange(server, code);
    await held;
    beforeReplayCheck = async () => undefined;
    const replay = await exchange(server, code);
    expect(replay).toMatchObject({ ok: false, status: 400, body: { error: 'invalid_grant' } });
    release();
    expect(await first).toMatchObject({ ok: false, body: { error: 'invalid_grant', error_description: expect.stringContaining('more than once') } });
    const live = await db('refresh_tokens').where({ account_id: accountId }).whereNull('revoked_at');
    expect(live).toEqual([]);
  });

  it('a database failure inside the library reaches the error handler as itself, not as the library wrapping it', async () => {
    const outage = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const server = adapter({
      find: async () => {
        throw outage;
      },
    });
    await expect(exchange(server, 'some-code')).rejects.toBe(outage);
  });
});
