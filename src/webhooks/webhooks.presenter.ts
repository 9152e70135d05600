import type { components } from '../../generated/api.js';
import { toIso, toIsoOrNull } from '../platform/time.js';
import type { DeliveryRow } from './deliveries.repository.js';
import type { WebhookRow } from './webhooks.repository.js';

type Schemas = components['schemas'];

/** Never the secret: it is shown once, by the operations that make one. */
export function toWebhook(row: WebhookRow): Schemas['Webhook'] {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as Schemas['WebhookEventType'][],
    description: row.description,
    enabled: Boolean(row.enabled),
    disabledReason: row.disabled_reason,
    createdAt: toIso(Number(row.created_at)),
    updatedAt: toIso(Number(row.updated_at)),
  };
}

export function toWebhookWithSecret(row: WebhookRow): Schemas['WebhookCreated'] {
  return { ...toWebhook(row), secret: row.secret };
}

export function toDelivery(row: Omit<DeliveryRow, 'payload'>): Schemas['WebhookDelivery'] {
  return {
    id: row.id,
    eventId: row.event_id,
    eventType: row.event_type as Schemas['WebhookDelivery']['eventType'],
    status: row.status,
    attempts: Number(row.attempts),
    createdAt: toIso(Number(row.created_at)),
    lastAttemptAt: toIsoOrNull(row.last_attempt_at === null ? null : Number(row.last_attempt_at)),
    nextAttemptAt: row.status === 'pending' ? toIsoOrNull(row.next_attempt_at === null ? null : Number(row.next_attempt_at)) : null,
    lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
    lastError: row.last_error,
  };
}
