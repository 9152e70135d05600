import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import stringify from 'safe-stable-stringify';
import { errors } from '../platform/errors.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface StoredResponse<Body> {
  status: number;
  body: Body;
}

/**
 * Runs `work` at most once per (account, key) within the window. The key row is claimed in the same
 * transaction as the work, so a parallel request with the same key waits for it (PostgreSQL: the
 * unique index; SQLite: the single writer) and then answers the stored response; when the work
 * fails, the claim rolls back with it and a retry may try again.
 */
export async function onceForKey<Body>(
  db: Knex,
  request: { accountId: string; key: string; body: unknown; now: number },
  work: (trx: Knex.Transaction) => Promise<StoredResponse<Body>>,
): Promise<StoredResponse<Body> & { replayed: boolean }> {
  const requestHash = hashRequest(request.body);
  return db.transaction(async (trx) => {
    if (!(await claim(trx, request.accountId, request.key, requestHash, request.now))) {
      const stored: StoredRow | undefined = await trx('idempotency_keys').where({ account_id: request.accountId, key: request.key }).first();
      if (!stored || stored.response_status === null || stored.response_body === null) throw errors.internal();
      if (stored.request_hash !== requestHash) throw errors.idempotencyKeyReused();
      return { status: Number(stored.response_status), body: JSON.parse(stored.response_body) as Body, replayed: true };
    }
    const response = await work(trx);
    await trx('idempotency_keys')
      .where({ account_id: request.accountId, key: request.key })
      .update({ response_status: response.status, response_body: JSON.stringify(response.body) });
    return { ...response, replayed: false };
  });
}

/** Keys past the window are only dead weight: the claim already treats them as free. */
export async function forgetExpiredKeys(db: Knex, accountId: string, now: number): Promise<void> {
  await db('idempotency_keys').where('account_id', accountId).andWhere('created_at', '<', now - IDEMPOTENCY_WINDOW_MS).delete();
}

interface StoredRow {
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
}

/** True when this request owns the key: it was free, or its last use is older than the window. */
async function claim(trx: Knex.Transaction, accountId: string, key: string, requestHash: string, now: number): Promise<boolean> {
  const result: unknown = await trx.raw(
    `insert into idempotency_keys (account_id, "key", request_hash, response_status, response_body, created_at)
     values (?, ?, ?, null, null, ?)
     on conflict (account_id, "key") do update
       set request_hash = excluded.request_hash, response_status = null, response_body = null, created_at = excluded.created_at
       where idempotency_keys.created_at < ?
     returning account_id`,
    [accountId, key, requestHash, now, now - IDEMPOTENCY_WINDOW_MS],
  );
  // pg answers { rows }, better-sqlite3 an array of rows.
  const rows = Array.isArray(result) ? result : (result as { rows: unknown[] }).rows;
  return rows.length === 1;
}

/** Over JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same request. */
function hashRequest(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? 'null').digest('hex');
}
