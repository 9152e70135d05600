import { operation, type OperationEntry } from '../http/operations.js';
import { toDelivery, toWebhook, toWebhookWithSecret } from './webhooks.presenter.js';
import type { WebhooksService } from './webhooks.service.js';

/** /webhooks and its log: thin handlers over the service. */
export function webhooksOperations(service: WebhooksService): OperationEntry[] {
  return [
    operation('listWebhooks', async ({ caller }) => ({ status: 200, body: { items: (await service.list(caller.accountId)).map(toWebhook) } })),
    operation('createWebhook', async ({ caller, body }) => {
      const row = await service.create(caller, body);
      return { status: 201, headers: { Location: `/webhooks/${row.id}` }, body: toWebhookWithSecret(row) };
    }),
    operation('getWebhook', async ({ caller, params }) => ({ status: 200, body: toWebhook(await service.get(caller.accountId, params.webhookId)) })),
    operation('updateWebhook', async ({ caller, params, body }) => ({
      status: 200,
      body: toWebhook(await service.update(caller.accountId, params.webhookId, body)),
    })),
    operation('deleteWebhook', async ({ caller, params }) => {
      await service.remove(caller.accountId, params.webhookId);
      return { status: 204 };
    }),
    operation('rotateWebhookSecret', async ({ caller, params }) => ({
      status: 200,
      body: toWebhookWithSecret(await service.rotateSecret(caller.accountId, params.webhookId)),
    })),
    operation('pingWebhook', async ({ caller, params }) => ({ status: 202, body: toDelivery(await service.ping(caller.accountId, params.webhookId)) })),
    operation('listWebhookDeliveries', async ({ caller, params, query }) => {
      const page = await service.deliveries(caller.accountId, params.webhookId, query);
      return { status: 200, body: { items: page.items.map(toDelivery), nextCursor: page.nextCursor } };
    }),
    operation('redeliverWebhookDelivery', async ({ caller, params }) => ({
      status: 202,
      body: toDelivery(await service.redeliver(caller.accountId, params.webhookId, params.deliveryId)),
    })),
  ];
}
