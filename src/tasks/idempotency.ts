import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import stringify from 'safe-stable-stringify';
import { compiledQuery } from '../platform/compiled-query.js';
import { errors } from '../platform/errors.js';
import { transaction, type Transaction } from '../platform/transaction.js';

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
  work: (trx: Transaction) => Promise<StoredResponse<Body>>,
): Promise<StoredResponse<Body> & { replayed: boolean }> {
  const requestHash = hashRequest(request.body);
  return transaction(db, async (trx) => {
    if (!(await claim(trx, request.accountId, request.key, requestHash, request.now))) {
      const stored = await storedResponse.first(trx, [request.accountId, request.key]);
      if (!stored || stored.response_status === null || stored.response_body === null) throw errors.internal();
      if (stored.request_hash !== requestHash) throw errors.idempotencyKeyReused();
      return { status: Number(stored.response_status), body: JSON.parse(stored.response_body) as Body, replayed: true };
    }
    const response = await work(trx);
    await storeResponse.run(trx, [request.accountId, request.key, response.status, JSON.stringify(response.body)]);
    return { ...response, replayed: false };
  });
}

/** Keys past the window are only dead weight: the claim already treats them as free. */
export async function forgetExpiredKeys(db: Knex, accountId: string, now: number): Promise<void> {
  await expiredKeysForgotten.run(db, [accountId, now - IDEMPOTENCY_WINDOW_MS]);
}

interface StoredRow {
  request_hash: string;
  response_status: number | null;
  response_body: string | null;
}

/** True when this request owns the key: it was free, or its last use is older than the window. */
async function claim(trx: Transaction, accountId: string, key: string, requestHash: string, now: number): Promise<boolean> {
  return (await claimKey.run(trx, [accountId, key, requestHash, now, now - IDEMPOTENCY_WINDOW_MS])) === 1;
}

// A create with a key runs these; compiled and prepared once (src/platform/compiled-query.ts).
const claimKey = compiledQuery<[accountId: string, key: string, requestHash: string, now: number, expiredBefore: number], never>((db, $) =>
  db.raw(
    `insert into idempotency_keys (account_id, "key", request_hash, response_status, response_body, created_at)
     values (?, ?, ?, null, null, ?)
     on conflict (account_id, "key") do update
       set request_hash = excluded.request_hash, response_status = null, response_body = null, created_at = excluded.created_at
       where idempotency_keys.created_at < ?
     returning account_id`,
    [$(0), $(1), $(2), $(3), $(4)],
  ),
);

const storedResponse = compiledQuery<[accountId: string, key: string], StoredRow>((db, $) =>
  db('idempotency_keys').select('request_hash', 'response_status', 'response_body').where('account_id', $(0)).andWhere('key', $(1)).limit(1),
);

const storeResponse = compiledQuery<[accountId: string, key: string, status: number, body: string], never>((db, $) =>
  db('idempotency_keys').where('account_id', $(0)).andWhere('key', $(1)).update({ response_status: $(2), response_body: $(3) }),
);

const expiredKeysForgotten = compiledQuery<[accountId: string, before: number], never>((db, $) =>
  db('idempotency_keys').where('account_id', $(0)).andWhere('created_at', '<', $(1)).delete(),
);

/** Over JSON with object keys sorted, so `{a, b}` and `{b, a}` are the same request. */
function hashRequest(body: unknown): string {
  return createHash('sha256').update(stringify(body) ?? 'null').digest('hex');
}
