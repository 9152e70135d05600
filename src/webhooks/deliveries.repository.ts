import type { Knex } from 'knex';
import { isPostgres } from '../platform/db.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  status: DeliveryStatus;
  attempts: number;
  created_at: number;
  next_attempt_at: number | null;
  last_attempt_at: number | null;
  last_status_code: number | null;
  last_error: string | null;
  runner_id: string | null;
  lease_until: number | null;
}

/** A delivery this runner holds the lease of, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  /** The attempt this claim is (1 for the first). */
  attempt: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: number | null;
  failedInARow: number;
  payload: string;
}

export interface NewEvent {
  id: string;
  accountId: string;
  type: string;
  payload: string;
  createdAt: number;
}

const deliveries = 'webhook_deliveries';

/** The event and one pending delivery per webhook, due now; in the caller's transaction (the outbox). */
export async function insertEvent(trx: Knex, event: NewEvent, webhookIds: readonly string[], newId: () => string): Promise<DeliveryRow[]> {
  await trx('webhook_events').insert({ id: event.id, account_id: event.accountId, type: event.type, payload: event.payload, created_at: event.createdAt });
  const rows = webhookIds.map((webhookId) => pendingRow(newId(), webhookId, event.id, event.type, event.createdAt));
  if (rows.length > 0) await trx(deliveries).insert(rows);
  return rows;
}

/** Another delivery of an event already stored (redeliver). */
export async function insertDelivery(db: Knex, row: { id: string; webhookId: string; eventId: string; eventType: string; now: number }): Promise<DeliveryRow> {
  const inserted = pendingRow(row.id, row.webhookId, row.eventId, row.eventType, row.now);
  await db(deliveries).insert(inserted);
  return inserted;
}

function pendingRow(id: string, webhookId: string, eventId: string, eventType: string, now: number): DeliveryRow {
  return {
    id,
    webhook_id: webhookId,
    event_id: eventId,
    event_type: eventType,
    status: 'pending',
    attempts: 0,
    created_at: now,
    next_attempt_at: now,
    last_attempt_at: null,
    last_status_code: null,
    last_error: null,
    runner_id: null,
    lease_until: null,
  };
}

/**
 * Takes up to `limit` due deliveries of enabled webhooks for this runner, each for one attempt under a
 * lease: one conditional UPDATE, so two runners never hold the same attempt (PostgreSQL: rows another
 * runner is claiming are skipped, not waited for; SQLite: one writer at a time). A lease that lapses
 * (its process died mid-send) makes the delivery due again for anyone.
 */
export async function claimDue(db: Knex, runnerId: string, now: number, leaseMs: number, limit: number): Promise<ClaimedDelivery[]> {
  const postgres = isPostgres(db);
  const claimed = rowsOf<{ id: string; attempts: number }>(
    await db.raw(
      `update webhook_deliveries set runner_id = ?, lease_until = ?, attempts = attempts + 1, last_attempt_at = ?
       where id in (
         select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
         where d.status = 'pending' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until < ?)
           and w.enabled = ${postgres ? 'true' : '1'}
         order by d.next_attempt_at
         limit ?${postgres ? ' for update of d skip locked' : ''}
       )
       returning id, attempts`,
      [runnerId, now + leaseMs, now, now, now, limit],
    ),
  );
  if (claimed.length === 0) return [];
  const attempts = new Map(claimed.map((row) => [row.id, Number(row.attempts)]));
  const rows: {
    id: string;
    webhook_id: string;
    event_id: string;
    url: string;
    secret: string;
    previous_secret: string | null;
    previous_secret_until: number | null;
    failed_in_a_row: number;
    payload: string;
  }[] = await db(`${deliveries} as d`)
    .join('webhooks as w', 'w.id', 'd.webhook_id')
    .join('webhook_events as e', 'e.id', 'd.event_id')
    .select('d.id', 'd.webhook_id', 'd.event_id', 'w.url', 'w.secret', 'w.previous_secret', 'w.previous_secret_until', 'w.failed_in_a_row', 'e.payload')
    .whereIn('d.id', [...attempts.keys()]);
  return rows.map((row) => ({
    id: row.id,
    webhookId: row.webhook_id,
    eventId: row.event_id,
    attempt: attempts.get(row.id)!,
    url: row.url,
    secret: row.secret,
    previousSecret: row.previous_secret,
    previousSecretUntil: row.previous_secret_until === null ? null : Number(row.previous_secret_until),
    failedInARow: Number(row.failed_in_a_row),
    payload: row.payload,
  }));
}

/** What an attempt ended in; applied only while this runner still holds that attempt. */
export type AttemptOutcome =
  | { status: 'succeeded'; statusCode: number }
  | { status: 'pending'; statusCode: number | null; error: string; nextAttemptAt: number }
  | { status: 'failed'; statusCode: number | null; error: string | null };

/** False when the attempt is no longer this runner's (its lease lapsed and another runner took the delivery). */
export async function recordAttempt(db: Knex, claim: { id: string; runnerId: string; attempt: number }, outcome: AttemptOutcome): Promise<boolean> {
  const changed = await db(deliveries)
    .where({ id: claim.id, runner_id: claim.runnerId, attempts: claim.attempt, status: 'pending' })
    .update({
      status: outcome.status,
      last_status_code: outcome.statusCode,
      last_error: outcome.status === 'succeeded' ? null : outcome.error,
      next_attempt_at: outcome.status === 'pending' ? outcome.nextAttemptAt : null,
      runner_id: null,
      lease_until: null,
    });
  return changed === 1;
}

/** Gives a claimed attempt back unsent (the process is stopping): due again at once, the attempt not counted. */
export async function releaseClaim(db: Knex, claim: { id: string; runnerId: string; attempt: number }): Promise<void> {
  await db(deliveries)
    .where({ id: claim.id, runner_id: claim.runnerId, attempts: claim.attempt, status: 'pending' })
    .update({ runner_id: null, lease_until: null, attempts: claim.attempt - 1 });
}

/** Newest first, from just before `before` (a page's last row). */
export async function listDeliveryPage(db: Knex, webhookId: string, page: { before?: { createdAt: number; id: string }; limit: number }): Promise<DeliveryRow[]> {
  const query = db<DeliveryRow>(deliveries).where('webhook_id', webhookId);
  if (page.before) query.andWhereRaw('(created_at, id) < (?, ?)', [page.before.createdAt, page.before.id]);
  return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit);
}

export async function findDelivery(db: Knex, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return db<DeliveryRow>(deliveries).where({ id, webhook_id: webhookId }).first();
}

/** PostgreSQL answers a raw statement with `{ rows }`, better-sqlite3 with the rows. */
function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
