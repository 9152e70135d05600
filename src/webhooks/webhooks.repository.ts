import type { Knex } from 'knex';
import { isPostgres } from '../platform/db.js';

export interface WebhookRow {
  id: string;
  account_id: string;
  url: string;
  /** JSON array of event types. */
  events: string;
  description: string | null;
  enabled: boolean | number;
  disabled_reason: string | null;
  secret: string;
  previous_secret: string | null;
  previous_secret_until: number | null;
  created_by_client_id: string | null;
  failed_in_a_row: number;
  created_at: number;
  updated_at: number;
}

/** The fields a PATCH may set; `undefined` leaves a field as it is. */
export interface WebhookChanges {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

const table = 'webhooks';

/**
 * Inserts the webhook unless the account already has `max`; answers how many it has when refused.
 * PostgreSQL: the account row's lock orders parallel creates of one account, so the count each sees
 * includes the others' inserts. SQLite: its one pooled connection runs one transaction at a time.
 */
export async function insertWithinCap(trx: Knex.Transaction, row: WebhookRow, max: number): Promise<{ inserted: true } | { inserted: false; used: number }> {
  if (isPostgres(trx)) await trx('accounts').select('id').where('id', row.account_id).forUpdate();
  const counted: { n?: number | string } | undefined = await trx(table).count({ n: '*' }).where('account_id', row.account_id).first();
  const used = Number(counted?.n ?? 0);
  if (used >= max) return { inserted: false, used };
  await trx(table).insert(row);
  return { inserted: true };
}

export async function listWebhooks(db: Knex, accountId: string): Promise<WebhookRow[]> {
  return db<WebhookRow>(table).where('account_id', accountId).orderBy([{ column: 'created_at' }, { column: 'id' }]);
}

export async function findWebhook(db: Knex, accountId: string, id: string): Promise<WebhookRow | undefined> {
  return db<WebhookRow>(table).where({ id, account_id: accountId }).first();
}

export async function updateWebhook(db: Knex, accountId: string, id: string, changes: WebhookChanges, now: number): Promise<WebhookRow | undefined> {
  const set: Record<string, unknown> = { updated_at: now };
  if (changes.url !== undefined) set.url = changes.url;
  if (changes.events !== undefined) set.events = JSON.stringify(changes.events);
  if (changes.description !== undefined) set.description = changes.description;
  // Turned on again: the failure count starts over; turned off by hand: no reason of ours to show.
  if (changes.enabled !== undefined) Object.assign(set, { enabled: changes.enabled, disabled_reason: null, failed_in_a_row: 0 });
  const rows: WebhookRow[] = await db(table).where({ id, account_id: accountId }).update(set, '*');
  return rows[0];
}

/** The new secret signs from now on; the one it replaces still signs beside it until `previousUntil`. */
export async function rotateSecret(db: Knex, accountId: string, id: string, secret: string, previousUntil: number, now: number): Promise<WebhookRow | undefined> {
  const rows: WebhookRow[] = await db(table)
    .where({ id, account_id: accountId })
    .update({ previous_secret: db.ref('secret'), previous_secret_until: previousUntil, secret, updated_at: now }, '*');
  return rows[0];
}

export async function deleteWebhook(db: Knex, accountId: string, id: string): Promise<boolean> {
  return (await db(table).where({ id, account_id: accountId }).delete()) === 1;
}

export async function deleteWebhooksOfClient(db: Knex, accountId: string, clientId: string): Promise<number> {
  return db(table).where({ account_id: accountId, created_by_client_id: clientId }).delete();
}

/** Turns a webhook off for a reason of ours (the receiver answered 410, or too many deliveries failed in a row). */
export async function disableWebhook(db: Knex, id: string, reason: string, now: number): Promise<void> {
  await db(table).where({ id, enabled: true }).update({ enabled: false, disabled_reason: reason, updated_at: now });
}

/** After a delivery failed for good: one more in a row; the count it reached. */
export async function countFailedDelivery(db: Knex, id: string): Promise<number> {
  const rows: { failed_in_a_row: number }[] = await db(table).where({ id }).increment('failed_in_a_row', 1).returning('failed_in_a_row');
  return Number(rows[0]?.failed_in_a_row ?? 0);
}

export async function resetFailedDeliveries(db: Knex, id: string): Promise<void> {
  await db(table).where({ id }).andWhere('failed_in_a_row', '>', 0).update({ failed_in_a_row: 0 });
}
