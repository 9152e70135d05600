import type { Webhook, WebhookCreated, WebhookDelivery, WebhookEventType } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { ConfirmButton, Field, Loading, Page, Problem, Secret, when } from '../ui.js';
import { fieldErrors } from '../words.js';

const EVENTS: WebhookEventType[] = [
  'task.created',
  'task.updated',
  'task.deleted',
  'sync_job.finished',
  'connector_account.connected',
  'connector_account.disconnected',
];

export function WebhooksPage() {
  const [hooks, setHooks] = useState<Webhook[]>();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<WebhookEventType[]>(['task.created', 'task.updated', 'task.deleted']);
  const [created, setCreated] = useState<WebhookCreated>();
  const listing = useAction();
  const creating = useAction();

  useEffect(() => {
    void listing.run(() => client.listWebhooks()).then((listed) => listed.ok && setHooks(listed.data.items));
  }, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const made = await creating.run(() => client.createWebhook({ url, events, description: description || null }));
    if (!made.ok) return;
    announce('Created the webhook. Copy its signing secret now: it is shown this once.');
    setCreated(made.data);
    setUrl('');
    setDescription('');
    setHooks((held) => [...(held ?? []), made.data]);
  };

  const fields = fieldErrors(creating.error);
  return (
    <Page title="Webhooks">
      <p class="muted">The service posts signed events to your URL as they happen.</p>
      <Problem error={listing.error} attempt={listing.attempt} />
      <form onSubmit={(event) => void create(event)} noValidate>
        <Problem error={creating.error} attempt={creating.attempt} />
        <Field id="webhook-url" label="Payload URL" type="url" value={url} onValue={setUrl} required error={fields.url} />
        <Field id="webhook-description" label="Description" value={description} onValue={setDescription} error={fields.description} />
        <fieldset>
          <legend>Events</legend>
          {EVENTS.map((name) => (
            <label key={name} class="check">
              <input
                type="checkbox"
                checked={events.includes(name)}
                onChange={(event) => setEvents((held) => (event.currentTarget.checked ? [...held, name] : held.filter((other) => other !== name)))}
              />
              {name}
            </label>
          ))}
          {fields.events && <p class="field-error">{fields.events}</p>}
        </fieldset>
        <button type="submit" disabled={creating.busy}>
          Create webhook
        </button>
      </form>
      {created && <Secret id="new-secret" label={`Signing secret for ${created.url}`} value={created.secret} />}
      <h2>Your webhooks</h2>
      {!hooks && listing.error === undefined && <Loading what="webhooks" />}
      {hooks?.length === 0 && <p class="muted">No webhooks yet.</p>}
      <ul class="cards">
        {hooks?.map((hook) => (
          <WebhookCard key={hook.id} hook={hook} onGone={() => setHooks((held) => held?.filter((other) => other.id !== hook.id))} />
        ))}
      </ul>
    </Page>
  );
}

function WebhookCard({ hook, onGone }: { hook: Webhook; onGone: () => void }) {
  const [deliveries, setDeliveries] = useState<WebhookDelivery[]>();
  const [secret, setSecret] = useState<string>();
  const action = useAction();

  const loadDeliveries = async () => {
    const listed = await action.run(() => client.listWebhookDeliveries(hook.id));
    if (listed.ok) setDeliveries(listed.data.items);
  };
  const ping = async () => {
    if ((await action.run(() => client.pingWebhook(hook.id))).ok) {
      announce('Ping sent.');
      await loadDeliveries();
    }
  };
  const rotate = async () => {
    const rotated = await action.run(() => client.rotateWebhookSecret(hook.id));
    if (!rotated.ok) return;
    setSecret(rotated.data.secret);
    announce('New signing secret made: copy it now. The old one keeps signing for 24 hours.');
  };
  const remove = async () => {
    if (!(await action.run(() => client.deleteWebhook(hook.id))).ok) return;
    announce(`Deleted the webhook to ${hook.url}.`);
    document.getElementById('page-title')?.focus();
    onGone();
  };
  const redeliver = async (delivery: WebhookDelivery) => {
    if ((await action.run(() => client.redeliverWebhookDelivery(hook.id, delivery.id))).ok) {
      announce('Redelivery queued.');
      await loadDeliveries();
    }
  };

  return (
    <li class="card">
      <h3 class="wrap">{hook.url}</h3>
      <p class="muted">
        {hook.enabled ? 'Enabled' : `Disabled${hook.disabledReason ? `: ${hook.disabledReason}` : ''}`} · {hook.events.join(', ')}
        {hook.description && ` · ${hook.description}`}
      </p>
      <Problem error={action.error} attempt={action.attempt} />
      {secret && <Secret id={`secret-${hook.id}`} label="New signing secret" value={secret} />}
      <div class="row">
        <button type="button" onClick={() => void ping()} aria-label={`Ping: ${hook.url}`}>
          Ping
        </button>
        <button type="button" onClick={() => void loadDeliveries()} aria-label={`${deliveries ? 'Refresh deliveries' : 'Deliveries'}: ${hook.url}`}>
          {deliveries ? 'Refresh deliveries' : 'Deliveries'}
        </button>
        <button type="button" class="secondary" onClick={() => void rotate()} aria-label={`Rotate secret: ${hook.url}`}>
          Rotate secret
        </button>
        <ConfirmButton
          label="Delete"
          name={`Delete: ${hook.url}`}
          question="Delete this webhook?"
          detail={`Events stop going to ${hook.url}, and its delivery log is deleted. This cannot be undone.`}
          confirm="Delete webhook"
          onConfirm={() => void remove()}
        />
      </div>
      {deliveries && deliveries.length === 0 && <p class="muted">No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="scroll">
          <table class="stacked">
            <caption>Deliveries to {hook.url}</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Status</th>
                <th scope="col">Attempts</th>
                <th scope="col">Last answer</th>
                <th scope="col">When</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td data-label="Event">{delivery.eventType}</td>
                  <td data-label="Status">{delivery.status}</td>
                  <td data-label="Attempts">{delivery.attempts}</td>
                  <td data-label="Last answer">{lastAnswer(delivery)}</td>
                  <td data-label="When">{when(delivery.lastAttemptAt ?? delivery.createdAt)}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => void redeliver(delivery)} aria-label={`Redeliver ${delivery.eventType} of ${when(delivery.createdAt)}`}>
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </li>
  );
}

/** The receiver's answer in words: its HTTP status, or that it could not be reached (never an errno). */
function lastAnswer(delivery: WebhookDelivery): string {
  if (delivery.lastStatusCode !== null && delivery.lastStatusCode !== undefined) return String(delivery.lastStatusCode);
  if (!delivery.lastError) return '–';
  if (/time|timed out/i.test(delivery.lastError)) return 'No answer in time';
  return /reach|refused|resolve|address/i.test(delivery.lastError) ? 'Could not be reached' : 'Failed';
}
