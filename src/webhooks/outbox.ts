import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { toIso } from '../platform/time.js';
import { insertEvent, type DeliveryRow } from './deliveries.repository.js';
import { newEventId } from './webhook-signing.js';
import { enabledSubscriptions } from './webhooks.repository.js';

type Schemas = components['schemas'];
export type EventType = Schemas['WebhookEventType'] | 'webhook.ping';

/** What an event says: its type and the REST shape of what changed (decisions §16). */
export type WebhookEvent =
  | { type: 'task.created' | 'task.updated'; data: Schemas['Task'] }
  | { type: 'task.deleted'; data: { taskId: string; deletedAt: string } }
  | { type: 'sync_job.finished'; data: Schemas['SyncJob'] }
  | { type: 'connector_account.connected' | 'connector_account.disconnected'; data: Schemas['ConnectorAccount'] }
  | { type: 'webhook.ping'; data: { webhookId: string } };

export interface Outbox {
  /**
   * In the change's own transaction: the event and a pending delivery for each enabled webhook of the
   * account that subscribes to it (nothing at all when none does), so the change and its event commit
   * or roll back together and a crash between the change and the send loses nothing.
   */
  record: (trx: Knex.Transaction, accountId: string, event: WebhookEvent) => Promise<void>;
  /** An event for the given webhooks only (a ping), whatever they subscribe to. */
  recordFor: (trx: Knex, accountId: string, event: WebhookEvent, webhookIds: readonly string[]) => Promise<DeliveryRow[]>;
  /** Deliveries were queued outside a transaction of ours (a redelivery): look for them now. */
  committed: () => void;
}

/** `onCommitted` runs once a transaction that queued deliveries commits: the worker need not wait for its next look. */
export function createOutbox(onCommitted: () => void): Outbox {
  // A sync batch reports hundreds of changes in one transaction: the account's subscriptions are read once per transaction.
  const subscriptionsByTransaction = new WeakMap<Knex.Transaction, Map<string, Promise<{ id: string; events: string[] }[]>>>();

  const subscriptions = (trx: Knex.Transaction, accountId: string) => {
    let byAccount = subscriptionsByTransaction.get(trx);
    if (!byAccount) {
      byAccount = new Map();
      subscriptionsByTransaction.set(trx, byAccount);
    }
    let found = byAccount.get(accountId);
    if (!found) {
      found = enabledSubscriptions(trx, accountId).then((rows) => rows.map((row) => ({ id: row.id, events: JSON.parse(row.events) as string[] })));
      byAccount.set(accountId, found);
    }
    return found;
  };

  const recordFor: Outbox['recordFor'] = async (trx, accountId, event, webhookIds) => {
    const now = Date.now();
    const payload = JSON.stringify({ type: event.type, timestamp: toIso(now), data: event.data });
    const rows = await insertEvent(trx, { id: newEventId(), accountId, type: event.type, payload, createdAt: now }, webhookIds, randomUUID);
    const completion = (trx as unknown as Partial<Knex.Transaction>).executionPromise;
    if (completion) completion.then(onCommitted, () => undefined);
    else onCommitted();
    return rows;
  };

  return {
    recordFor,
    committed: onCommitted,
    async record(trx, accountId, event) {
      const subscribed = (await subscriptions(trx, accountId)).filter((hook) => hook.events.includes(event.type)).map((hook) => hook.id);
      if (subscribed.length > 0) await recordFor(trx, accountId, event, subscribed);
    },
  };
}
