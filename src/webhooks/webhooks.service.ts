import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/api.js';
import type { Caller } from '../http/caller.js';
import type { Db } from '../platform/db.js';
import { errors } from '../platform/errors.js';
import { findDelivery, insertRedelivery, listDeliveryPage, type DeliveryRow } from './deliveries.repository.js';
import { decodeCursor, encodeCursor } from '../platform/page-cursor.js';
import type { Outbox } from './outbox.js';
import { newWebhookSecret } from './webhook-signing.js';
import { checkWebhookUrl } from './webhook-url.js';
import {
  deleteWebhook,
  deleteWebhooksOfClient,
  findWebhook,
  insertWithinCap,
  listWebhooks,
  rotateSecret,
  updateWebhook,
  type WebhookRow,
} from './webhooks.repository.js';
import { knexTransaction } from '../platform/transaction.js';

type Schemas = components['schemas'];
type LoggedDelivery = Omit<DeliveryRow, 'payload'>;

/** How long a replaced secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;
const DEFAULT_LOG_PAGE = 20;

export interface WebhooksServiceDeps {
  db: Db;
  maxPerAccount: number;
  allowPrivateNetworks: boolean;
  outbox: Outbox;
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;

export function createWebhooksService({ db, maxPerAccount, allowPrivateNetworks, outbox }: WebhooksServiceDeps) {
  const owned = async (accountId: string, id: string): Promise<WebhookRow> => {
    const row = await findWebhook(db, accountId, id);
    if (!row) throw errors.notFound('Webhook');
    return row;
  };

  return {
    /** The new webhook with its secret; refused at the cap (exact under parallel creates, see insertWithinCap). */
    async create(caller: Caller, input: Schemas['WebhookCreate']): Promise<WebhookRow> {
      const now = Date.now();
      const row: WebhookRow = {
        id: randomUUID(),
        account_id: caller.accountId,
        url: checkWebhookUrl(input.url, allowPrivateNetworks),
        events: JSON.stringify(input.events),
        description: input.description ?? null,
        enabled: true,
        disabled_reason: null,
        secret: newWebhookSecret(),
        previous_secret: null,
        previous_secret_until: null,
        created_by_client_id: caller.kind === 'oauth' ? caller.clientId : null,
        failed_in_a_row: 0,
        created_at: now,
        updated_at: now,
      };
      const result = await knexTransaction(db, (trx) => insertWithinCap(trx, row, maxPerAccount));
      if (!result.inserted) {
        throw errors.quotaExceeded(
          'webhooks',
          maxPerAccount,
          result.used,
          `This account has reached its limit of ${maxPerAccount} webhooks; delete one to make room.`,
        );
      }
      return row;
    },

    list: (accountId: string) => listWebhooks(db, accountId),

    get: owned,

    async update(accountId: string, id: string, changes: Schemas['WebhookUpdate']): Promise<WebhookRow> {
      const row = await updateWebhook(
        db,
        accountId,
        id,
        {
          url: changes.url === undefined ? undefined : checkWebhookUrl(changes.url, allowPrivateNetworks),
          events: changes.events,
          description: changes.description,
          enabled: changes.enabled,
        },
        Date.now(),
      );
      if (!row) throw errors.notFound('Webhook');
      return row;
    },

    async remove(accountId: string, id: string): Promise<void> {
      if (!(await deleteWebhook(db, accountId, id))) throw errors.notFound('Webhook');
    },

    /** With the app's authorisation withdrawn, the webhooks it made go too. */
    removeMadeBy: (accountId: string, clientId: string) => deleteWebhooksOfClient(db, accountId, clientId),

    async rotateSecret(accountId: string, id: string): Promise<WebhookRow> {
      const now = Date.now();
      const row = await rotateSecret(db, accountId, id, newWebhookSecret(), now + ROTATION_OVERLAP_MS, now);
      if (!row) throw errors.notFound('Webhook');
      return row;
    },

    async ping(accountId: string, id: string): Promise<DeliveryRow> {
      const hook = await owned(accountId, id);
      const [delivery] = await knexTransaction(db, (trx) => outbox.recordFor(trx, { type: 'webhook.ping', data: { webhookId: hook.id } }, [hook.id]));
      return delivery!;
    },

    async deliveries(accountId: string, id: string, query: { limit?: number; cursor?: string }): Promise<{ items: LoggedDelivery[]; nextCursor: string | null }> {
      await owned(accountId, id);
      const limit = query.limit ?? DEFAULT_LOG_PAGE;
      const before = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
      const rows = await listDeliveryPage(db, id, { before, limit: limit + 1 });
      const items = rows.slice(0, limit);
      const last = items.at(-1);
      return { items, nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null };
    },

    /** A new delivery of the same event (the same webhook-id), due now. */
    async redeliver(accountId: string, id: string, deliveryId: string): Promise<DeliveryRow> {
      await owned(accountId, id);
      const original = await findDelivery(db, id, deliveryId);
      if (!original) throw errors.notFound('Delivery');
      const copy = await insertRedelivery(db, original, randomUUID(), Date.now());
      outbox.committed();
      return copy;
    },
  };
}
