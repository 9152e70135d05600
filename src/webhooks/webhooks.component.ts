import type { Knex } from 'knex';
import { Counter, type Metric } from 'prom-client';
import { createSafeFetch, type ConnectorChange } from '../connectors/connectors.component.js';
import type { CoreDeps } from '../deps.js';
import type { OperationEntry } from '../http/operations.js';
import type { AnyTransaction } from '../platform/transaction.js';
import type { TaskChangeListener } from '../tasks/tasks.component.js';
import { createDeliveryWorker } from './delivery-worker.js';
import { createOutbox, type WebhookEvent } from './outbox.js';
import { taskChangeListener } from './task-events.js';
import { webhooksOperations } from './webhooks.operations.js';
import { createWebhooksService } from './webhooks.service.js';

export type { WebhookEvent } from './outbox.js';

export interface WebhooksComponent {
  /** /webhooks and its delivery log. */
  operations: OperationEntry[];
  /** Writes an event into the outbox, in the transaction of the change it reports. */
  record: (trx: AnyTransaction, accountId: string, event: WebhookEvent) => Promise<void>;
  /** The tasks' listener: every create, update and delete (API, MCP, taskctl, sync) as an event. */
  taskChangeListener: TaskChangeListener;
  /** The connectors' listener: connects, disconnects and finished sync jobs as events. */
  onConnectorChange: (trx: Knex.Transaction, change: ConnectorChange) => Promise<void>;
  /** An OAuth app's authorisation was withdrawn: the webhooks it made go with it. */
  removeMadeByClient: (accountId: string, clientId: string) => Promise<number>;
  /** Starts the delivery worker. */
  start: () => void;
  /** Stops claiming deliveries; those in flight finish or go back unsent. */
  stop: () => Promise<void>;
  metrics: Metric[];
}

/** Webhooks (docs/webhooks.md): subscriptions, the outbox written with each change, and the delivery worker. */
export function createWebhooksComponent({ config, db, logger }: CoreDeps): WebhooksComponent {
  const fetch = createSafeFetch({
    allowPrivateNetworks: config.CONNECTOR_ALLOW_PRIVATE_NETWORKS,
    loopbackOnly: config.OUTBOUND_LOOPBACK_ONLY,
    connections: config.WEBHOOK_DELIVERY_CONCURRENCY,
  });
  const attempts = new Counter({
    name: 'task_service_webhook_attempts_total',
    help: 'Webhook delivery attempts sent by this process, by outcome (succeeded, retry, failed, lost to another runner).',
    labelNames: ['outcome'] as const,
    registers: [],
  });
  const worker = createDeliveryWorker({
    db,
    logger,
    fetch,
    concurrency: config.WEBHOOK_DELIVERY_CONCURRENCY,
    retryScale: config.WEBHOOK_RETRY_SCALE,
    onAttempt: (outcome) => attempts.inc({ outcome }),
  });
  const outbox = createOutbox(worker.nudge);
  const service = createWebhooksService({
    db,
    maxPerAccount: config.WEBHOOKS_MAX_PER_ACCOUNT,
    allowPrivateNetworks: config.CONNECTOR_ALLOW_PRIVATE_NETWORKS,
    outbox,
  });

  return {
    operations: webhooksOperations(service),
    record: outbox.record,
    taskChangeListener: taskChangeListener(outbox),
    onConnectorChange: (trx, change) => outbox.record(trx, change.accountId, connectorEvent(change)),
    removeMadeByClient: service.removeMadeBy,
    start: worker.start,
    stop: async () => {
      await worker.stop();
      await fetch.close();
    },
    metrics: [attempts],
  };
}

function connectorEvent(change: ConnectorChange): WebhookEvent {
  switch (change.kind) {
    case 'connected':
      return { type: 'connector_account.connected', data: change.connectorAccount };
    case 'disconnected':
      return { type: 'connector_account.disconnected', data: change.connectorAccount };
    case 'sync-job-finished':
      return { type: 'sync_job.finished', data: change.job };
  }
}
