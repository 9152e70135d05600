import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { components } from '../../generated/api.js';
import { toIso } from '../platform/time.js';
import { afterCommit, type AnyTransaction } from '../platform/transaction.js';
import type { StepBuilder } from '../platform/compiled-query.js';
import { insertDeliveries, insertForSubscribers, subscribersInsertSql, subscribersInsertValues, type DeliveryRow } from './deliveries.repository.js';
import { newEventId } from './webhook-signing.js';

type Schemas = components['schemas'];
export type EventType = Schemas['WebhookEventType'] | 'webhook.ping';

/** What an event says: its type and the REST shape of what changed (docs/webhooks.md). */
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
  record: (trx: AnyTransaction, accountId: string, event: WebhookEvent) => Promise<void>;
  /** An event for the given webhooks only (a ping), whatever they subscribe to. */
  recordFor: (trx: Knex, event: WebhookEvent, webhookIds: readonly string[]) => Promise<DeliveryRow[]>;
  /** Deliveries were queued outside a transaction of ours (a redelivery): look for them now. */
  committed: () => void;
  /**
   * `record` as a step of the statement that makes a change (src/tasks/task-changes.ts, TaskChangeStep):
   * the same insert, its values for an event, and what to do once a step that queued deliveries committed.
   */
  step: {
    build: StepBuilder;
    values: (accountId: string, event: WebhookEvent) => readonly unknown[];
    committed: () => void;
  };
}

/** `onCommitted` runs once a transaction that queued deliveries commits: the worker need not wait for its next look. */
export function createOutbox(onCommitted: () => void): Outbox {
  const newEvent = (event: WebhookEvent, now: number) => ({
    id: newEventId(),
    type: event.type,
    payload: JSON.stringify({ type: event.type, timestamp: toIso(now), data: event.data }),
    createdAt: now,
  });

  return {
    committed: onCommitted,
    async recordFor(trx, event, webhookIds) {
      const rows = await insertDeliveries(trx, newEvent(event, Date.now()), webhookIds, randomUUID);
      afterCommit(trx, onCommitted);
      return rows;
    },
    async record(trx, accountId, event) {
      if ((await insertForSubscribers(trx, accountId, newEvent(event, Date.now()))) > 0) afterCommit(trx, onCommitted);
    },
    step: {
      build: subscribersInsertSql,
      values: (accountId, event) => subscribersInsertValues(accountId, newEvent(event, Date.now())),
      committed: onCommitted,
    },
  };
}
