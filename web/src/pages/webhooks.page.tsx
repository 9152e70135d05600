import type { TaskApiError, Webhook, WebhookCreated, WebhookDelivery, WebhookEventType } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client, errorText, fieldErrors } from '../api.js';
import { Field, Loading, Page, Problem, Secret, when } from '../ui.js';

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
  const [error, setError] = useState<TaskApiError>();

  useEffect(() => {
    void client.listWebhooks().then((listed) => (listed.error ? setError(listed.error) : setHooks(listed.data.items)));
  }, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const made = await client.createWebhook({ url, events, description: description || null });
    setError(made.error);
    if (made.error) return;
    setCreated(made.data);
    setUrl('');
    setDescription('');
    setHooks((held) => [...(held ?? []), made.data]);
  };

  const fields = fieldErrors(error);
  return (
    <Page title="Webhooks">
      <p class="muted">The service posts signed events to your URL as they happen.</p>
      <Problem error={error} />
      <form onSubmit={(event) => void create(event)} noValidate>
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
        <button type="submit">Create webhook</button>
      </form>
      {created && <Secret id="new-secret" label={`Signing secret for ${created.url}`} value={created.secret} />}
      <h2>Your webhooks</h2>
      {!hooks && !error && <Loading what="webhooks" />}
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
  const [notice, setNotice] = useState<string>();
  const [error, setError] = useState<TaskApiError>();

  const loadDeliveries = async () => {
    const listed = await client.listWebhookDeliveries(hook.id);
    if (listed.error) return setError(listed.error);
    setDeliveries(listed.data.items);
  };
  const act = async (run: () => Promise<{ error?: TaskApiError | undefined }>, done: string) => {
    const result = await run();
    setError(result.error);
    if (!result.error) setNotice(done);
    return !result.error;
  };
  const ping = async () => {
    if (await act(() => client.pingWebhook(hook.id), 'Ping sent.')) await loadDeliveries();
  };
  const rotate = async () => {
    const rotated = await client.rotateWebhookSecret(hook.id);
    setError(rotated.error);
    if (rotated.data) setSecret(rotated.data.secret);
  };
  const remove = async () => {
    if (await act(() => client.deleteWebhook(hook.id), 'Deleted.')) onGone();
  };
  const redeliver = async (delivery: WebhookDelivery) => {
    if (await act(() => client.redeliverWebhookDelivery(hook.id, delivery.id), 'Redelivery queued.')) await loadDeliveries();
  };

  return (
    <li class="card">
      <h3 class="wrap">{hook.url}</h3>
      <p class="muted">
        {hook.enabled ? 'Enabled' : `Disabled${hook.disabledReason ? `: ${hook.disabledReason}` : ''}`} · {hook.events.join(', ')}
        {hook.description && ` · ${hook.description}`}
      </p>
      {notice && <p role="status">{notice}</p>}
      {error && (
        <p class="problem" role="alert">
          {errorText(error)}
        </p>
      )}
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
        <button type="button" class="danger" onClick={() => void remove()} aria-label={`Delete: ${hook.url}`}>
          Delete
        </button>
      </div>
      {deliveries && deliveries.length === 0 && <p class="muted">No deliveries yet.</p>}
      {deliveries && deliveries.length > 0 && (
        <div class="scroll">
          <table>
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
                  <td>{delivery.eventType}</td>
                  <td>{delivery.status}</td>
                  <td>{delivery.attempts}</td>
                  <td>{delivery.lastStatusCode ?? delivery.lastError ?? '–'}</td>
                  <td>{when(delivery.lastAttemptAt ?? delivery.createdAt)}</td>
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
