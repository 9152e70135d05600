import type { Command } from 'commander';
import type { components } from '@task-service/sdk';
import type { Context } from '../context.js';
import { usageError } from '../errors.js';
import { when } from '../output.js';
import { wholeNumber } from './tasks.js';

type EventType = components['schemas']['WebhookEventType'];
type WithContext = (action: (context: Context, ...args: never[]) => Promise<void>) => (...args: unknown[]) => Promise<void>;

const EVENT_TYPES: readonly EventType[] = [
  'task.created',
  'task.updated',
  'task.deleted',
  'sync_job.finished',
  'connector_account.connected',
  'connector_account.disconnected',
];

export function webhookCommands(program: Command, run: WithContext): void {
  const webhooks = program.command('webhooks').description('Send your changes to a URL as they happen (signed Standard Webhooks), and see what was sent');

  webhooks
    .command('create')
    .description('Subscribe a URL to events; the signing secret is shown once')
    .argument('<url>', 'where to POST the events (https)')
    .option('--event <type>', `an event to send (repeat for several; default: every one): ${EVENT_TYPES.join(', ')}`, (value: string, previous: string[]) => [...previous, value], [])
    .option('--description <text>', 'a note to recognise it by')
    .addHelpText('after', '\nExamples:\n  taskctl webhooks create https://example.com/hooks --event task.created --event task.deleted\n  SECRET=$(taskctl webhooks create https://example.com/hooks --json | jq -r .secret)')
    .action(
      run(async (context, url: string, options: { event: string[]; description?: string }) => {
        const events = options.event.length > 0 ? options.event : [...EVENT_TYPES];
        const unknown = events.filter((event) => !(EVENT_TYPES as readonly string[]).includes(event));
        if (unknown.length > 0) throw usageError(`Unknown event type ${unknown.join(', ')}: use ${EVENT_TYPES.join(', ')}.`);
        const created = await context.unwrap(
          await context.client().createWebhook({ url, events: events as EventType[], ...(options.description !== undefined ? { description: options.description } : {}) }),
        );
        context.output.result(created, () => {
          context.output.line(created.secret);
          context.output.note(`Created webhook ${created.id} for ${created.events.join(', ')}. The signing secret above is shown only now: store it safely.`);
        });
      }),
    );

  webhooks
    .command('list')
    .description('List the webhooks (never their secrets)')
    .action(
      run(async (context) => {
        const list = await context.unwrap(await context.client().listWebhooks());
        context.output.result(list, () =>
          context.output.table(
            list.items,
            [
              { title: 'ID', value: (item) => item.id, max: 36 },
              { title: 'URL', value: (item) => item.url, max: 60 },
              { title: 'EVENTS', value: (item) => item.events.join(' '), max: 60 },
              { title: 'ENABLED', value: (item) => (item.enabled ? 'yes' : `no${item.disabledReason ? ` (${item.disabledReason})` : ''}`), max: 60 },
            ],
            'No webhooks. Add one with `taskctl webhooks create <url>`.',
          ),
        );
      }),
    );

  webhooks
    .command('rm')
    .description('Delete a webhook; its deliveries stop')
    .argument('<webhookId>', "the webhook's id (see taskctl webhooks list)")
    .action(
      run(async (context, webhookId: string) => {
        await context.unwrap(await context.client().deleteWebhook(webhookId));
        context.output.result({ id: webhookId, deleted: true }, () => context.output.line(`Deleted webhook ${webhookId}.`));
      }),
    );

  webhooks
    .command('ping')
    .description('Send a webhook.ping event to a webhook (see it with taskctl webhooks deliveries)')
    .argument('<webhookId>', "the webhook's id")
    .action(
      run(async (context, webhookId: string) => {
        const delivery = await context.unwrap(await context.client().pingWebhook(webhookId));
        context.output.result(delivery, () => context.output.line(`Queued ping ${delivery.eventId} (delivery ${delivery.id}).`));
      }),
    );

  webhooks
    .command('deliveries')
    .description("A webhook's delivery log, newest first")
    .argument('<webhookId>', "the webhook's id")
    .option('--limit <n>', 'entries per page (1-100)', '20')
    .option('--cursor <cursor>', 'the nextCursor of the previous page')
    .action(
      run(async (context, webhookId: string, options: { limit: string; cursor?: string }) => {
        const limit = wholeNumber(options.limit, '--limit', 1, 100);
        const page = await context.unwrap(await context.client().listWebhookDeliveries(webhookId, { limit, cursor: options.cursor }));
        context.output.result(page, () => {
          context.output.table(
            page.items,
            [
              { title: 'ID', value: (item) => item.id, max: 36 },
              { title: 'EVENT', value: (item) => item.eventType },
              { title: 'STATUS', value: (item) => item.status },
              { title: 'ATTEMPTS', value: (item) => item.attempts },
              { title: 'LAST', value: (item) => (item.lastStatusCode === null ? '' : String(item.lastStatusCode)) },
              { title: 'LAST ATTEMPT', value: (item) => when(item.lastAttemptAt) },
              { title: 'NEXT', value: (item) => when(item.nextAttemptAt) },
              { title: 'ERROR', value: (item) => item.lastError ?? '', max: 60 },
            ],
            'No deliveries yet.',
          );
          if (page.nextCursor) context.output.note(`More: --cursor ${page.nextCursor}`);
        });
      }),
    );
}
