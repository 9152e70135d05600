import type { Knex } from 'knex';
import { compiledQuery, type Queryable, type StepBuilder } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed';

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  payload: string;
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
  type: string;
  payload: string;
  createdAt: number;
}

const deliveries = 'webhook_deliveries';

/** One pending delivery of the event per webhook, due now; in the caller's transaction (the outbox). */
export async function insertDeliveries(trx: Knex, event: NewEvent, webhookIds: readonly string[], newId: () => string): Promise<DeliveryRow[]> {
  const rows = webhookIds.map((webhookId) => pendingRow(newId(), webhookId, event, event.createdAt));
  if (rows.length > 0) await trx(deliveries).insert(rows);
  return rows;
}

/**
 * One pending delivery of the event for each enabled webhook of the account that subscribes to its
 * type, due now, in one statement (the subscription check and the insert are one round trip on every
 * task write, subscribed or not); in the caller's transaction (the outbox). Answers how many it queued.
 */
export function insertForSubscribers(trx: Queryable, accountId: string, event: NewEvent): Promise<number> {
  return subscribersInsert.run(trx, subscribersInsertValues(accountId, event));
}

/** The values of `subscribersInsertSql`'s placeholders, in order. */
export const subscribersInsertValues = (accountId: string, event: NewEvent) => [event.id, event.type, event.payload, event.createdAt, accountId, JSON.stringify(event.type)] as const;

/**
 * The insert of `insertForSubscribers`, its values `$(0)`.. as `subscribersInsertValues` gives them. With
 * `onlyIf`, a step of a statement that makes a change (PostgreSQL's data-modifying WITH,
 * src/tasks/task-changes.ts): it inserts only when the WITH of that name has a row, and returns what it inserted.
 */
export const subscribersInsertSql: StepBuilder = (db, $, onlyIf) => {
  const postgres = isPostgres(db);
  // A v4 UUID per row: PostgreSQL's own; in SQLite from independent random pieces (randomblob is drawn per row).
  const newId = postgres
    ? 'gen_random_uuid()::text'
    : `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || substr('89ab', 1 + abs(random() % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
  return db.raw(
    `insert into webhook_deliveries (id, webhook_id, event_id, event_type, payload, status, attempts, created_at, next_attempt_at)
     select ${newId}, id, ?, ?, ?, 'pending', 0, ?, ? from webhooks
     where account_id = ? and enabled = ${postgres ? 'true' : '1'} and ${postgres ? 'strpos' : 'instr'}(events, ?) > 0${onlyIf ? ` and exists (select 1 from ${onlyIf}) returning 1` : ''}`,
    [$(0), $(1), $(2), $(3), $(3), $(4), $(5)],
  );
};

// Every task write runs it: compiled once (src/platform/compiled-query.ts).
const subscribersInsert = compiledQuery<ReturnType<typeof subscribersInsertValues>>((db, $) => subscribersInsertSql(db, $));

/** Another delivery of an event already stored (redeliver): the same id and body, due now. */
export async function insertRedelivery(db: Knex, original: DeliveryRow, id: string, now: number): Promise<DeliveryRow> {
  const inserted = pendingRow(id, original.webhook_id, { id: original.event_id, type: original.event_type, payload: original.payload, createdAt: now }, now);
  await db(deliveries).insert(inserted);
  return inserted;
}

function pendingRow(id: string, webhookId: string, event: NewEvent, now: number): DeliveryRow {
  return {
    id,
    webhook_id: webhookId,
    event_id: event.id,
    event_type: event.type,
    payload: event.payload,
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
  const claimed = await claim.all(db, [runnerId, now + leaseMs, now, limit]);
  if (claimed.length === 0) return [];
  const webhookIds = [...new Set(claimed.map((row) => row.webhook_id))];
  const webhooks = new Map((await sendersOf.all(db, [JSON.stringify(webhookIds)])).map((webhook) => [webhook.id, webhook]));
  return claimed.flatMap((row) => {
    // Deleted since the claim (its deliveries go with it): nothing to send.
    const webhook = webhooks.get(row.webhook_id);
    if (!webhook) return [];
    return [
      {
        id: row.id,
        webhookId: row.webhook_id,
        eventId: row.event_id,
        attempt: Number(row.attempts),
        url: webhook.url,
        secret: webhook.secret,
        previousSecret: webhook.previous_secret,
        previousSecretUntil: webhook.previous_secret_until === null ? null : Number(webhook.previous_secret_until),
        failedInARow: Number(webhook.failed_in_a_row),
        payload: row.payload,
      },
    ];
  });
}

// The worker claims after every burst of writes and records every batch of successes: compiled once.
const claim = compiledQuery<
  [runnerId: string, leaseUntil: number, now: number, limit: number],
  { id: string; webhook_id: string; event_id: string; payload: string; attempts: number }
>((db, $) => {
  const postgres = isPostgres(db);
  return db.raw(
    `update webhook_deliveries set runner_id = ?, lease_until = ?, attempts = attempts + 1, last_attempt_at = ?
     where id in (
       select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
       where d.status = 'pending' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until < ?)
         and w.enabled = ${postgres ? 'true' : '1'}
       order by d.next_attempt_at
       limit ?${postgres ? ' for update of d skip locked' : ''}
     )
     returning id, webhook_id, event_id, payload, attempts`,
    [$(0), $(1), $(2), $(2), $(2), $(3)],
  );
});

const sendersOf = compiledQuery<
  [webhookIdsJson: string],
  { id: string; url: string; secret: string; previous_secret: string | null; previous_secret_until: number | null; failed_in_a_row: number }
>((db, $) =>
  db('webhooks')
    .select(['id', 'url', 'secret', 'previous_secret', 'previous_secret_until', 'failed_in_a_row'])
    .whereRaw(`id in (${idsIn(db)})`, [$(0)]),
);

/**
 * The ids in a JSON array, as a subquery: one statement (compiled once) for any number of ids, where
 * `whereIn` with a list is a new statement for every length.
 */
function idsIn(db: Knex): string {
  return isPostgres(db) ? 'select json_array_elements_text(?::json)' : 'select value from json_each(?)';
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

/**
 * Many successful attempts of this runner at once (one statement per status code): a busy worker
 * records its successes in batches. Answers the ids still this runner's, the ones recorded.
 */
export async function recordSuccesses(db: Knex, runnerId: string, successes: readonly { id: string; statusCode: number }[]): Promise<string[]> {
  const recorded: string[] = [];
  const byCode = new Map<number, string[]>();
  for (const success of successes) byCode.set(success.statusCode, [...(byCode.get(success.statusCode) ?? []), success.id]);
  for (const [statusCode, ids] of byCode) {
    const rows = await successesRecord.all(db, [statusCode, runnerId, JSON.stringify(ids)]);
    recorded.push(...rows.map((row) => row.id));
  }
  return recorded;
}

const successesRecord = compiledQuery<[statusCode: number, runnerId: string, idsJson: string], { id: string }>((db, $) =>
  db(deliveries)
    .where({ runner_id: $(1), status: 'pending' })
    .whereRaw(`id in (${idsIn(db)})`, [$(2)])
    .update({ status: 'succeeded', last_status_code: $(0), last_error: null, next_attempt_at: null, runner_id: null, lease_until: null }, ['id']),
);

/** Gives a claimed attempt back unsent (the process is stopping): due again at once, the attempt not counted. */
export async function releaseClaim(db: Knex, claim: { id: string; runnerId: string; attempt: number }): Promise<void> {
  await db(deliveries)
    .where({ id: claim.id, runner_id: claim.runnerId, attempts: claim.attempt, status: 'pending' })
    .update({ runner_id: null, lease_until: null, attempts: claim.attempt - 1 });
}

/** Newest first, from just before `before` (a page's last row). */
export async function listDeliveryPage(
  db: Knex,
  webhookId: string,
  page: { before?: { createdAt: number; id: string }; limit: number },
): Promise<Omit<DeliveryRow, 'payload'>[]> {
  const query = db(deliveries).select(LOG_COLUMNS).where('webhook_id', webhookId);
  if (page.before) query.andWhereRaw('(created_at, id) < (?, ?)', [page.before.createdAt, page.before.id]);
  return query.orderBy([{ column: 'created_at', order: 'desc' }, { column: 'id', order: 'desc' }]).limit(page.limit);
}

export async function findDelivery(db: Knex, webhookId: string, id: string): Promise<DeliveryRow | undefined> {
  return db<DeliveryRow>(deliveries).where({ id, webhook_id: webhookId }).first();
}

const LOG_COLUMNS = ['id', 'webhook_id', 'event_id', 'event_type', 'status', 'attempts', 'created_at', 'next_attempt_at', 'last_attempt_at', 'last_status_code', 'last_error', 'runner_id', 'lease_until'];
