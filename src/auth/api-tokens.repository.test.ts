import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createMigratedDb, insertAccount } from '../test-support/databases.js';
import { createApiTokensRepository, type ApiTokenRow } from './api-tokens.repository.js';

const tokenOf = (accountId: string, oauthClientId: string | null): ApiTokenRow => ({
  id: randomUUID(),
  account_id: accountId,
  name: 'test',
  token_hash: randomUUID(),
  prefix: 'tsk_test',
  scopes: 'tasks:read',
  created_at: Date.now(),
  expires_at: null,
  last_used_at: null,
  revoked_at: null,
  oauth_client_id: oauthClientId,
});

describe('revokeForOAuthClient on PostgreSQL', () => {
  it("also revokes a token minted from one of the app's tokens while the revoking UPDATE was under way", async () => {
    const { db, drop } = await createMigratedDb('postgres');
    try {
      const repository = createApiTokensRepository(db);
      const accountId = await insertAccount(db);
      const parent = tokenOf(accountId, 'app-1');
      const own = tokenOf(accountId, null);
      await repository.insert(parent);
      await repository.insert(own);

      // Holding the parent's row makes the revoking UPDATE take its snapshot and then wait on it.
      const holder = await db.transaction();
      await holder('api_tokens').select('id').where({ id: parent.id }).forUpdate();
      const revoking = repository.revokeForOAuthClient(accountId, 'app-1', Date.now());
      await until(async () => (await db.raw("select 1 from pg_stat_activity where wait_event_type = 'Lock' and query like 'update %api_tokens%'")).rows.length > 0);

      // A token minted from the parent now: its maker still looks live to the minting check.
      const child = tokenOf(accountId, 'app-1');
      await repository.insert(child);
      expect(await repository.isRevoked(parent.id)).toBe(false);

      await holder.commit();
      await revoking;
      expect(await repository.isRevoked(parent.id)).toBe(true);
      expect(await repository.isRevoked(child.id)).toBe(true);
      expect(await repository.isRevoked(own.id)).toBe(false);
    } finally {
      await drop();
    }
  });
});

async function until(condition: () => Promise<boolean>): Promise<void> {
  for (let tries = 0; tries < 100; tries++) {
    if (await condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the revoking UPDATE never waited on the held row');
}
