import type { ConnectorAccount, ConnectorType, SyncJob, TaskApiError } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client, errorText, fieldErrors } from '../api.js';
import { Field, Loading, Page, Problem, when } from '../ui.js';

const FINISHED = new Set(['succeeded', 'failed']);

export function ConnectionsPage() {
  const [accounts, setAccounts] = useState<ConnectorAccount[]>();
  const [type, setType] = useState<ConnectorType>('github');
  const [credential, setCredential] = useState('');
  const [error, setError] = useState<TaskApiError>();
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const listed = await client.listConnectorAccounts();
    if (listed.error) return setError(listed.error);
    setAccounts(listed.data.items);
  };
  useEffect(() => void load(), []);

  const connect = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const connected = await client.connectAccount(type, type === 'github' ? { token: credential } : { url: credential });
    setBusy(false);
    setError(connected.error);
    if (connected.error) return;
    setCredential('');
    setAccounts((held) => [...(held ?? []).filter((account) => account.id !== connected.data.id), connected.data]);
  };

  const fields = fieldErrors(error);
  return (
    <Page title="Connections">
      <p class="muted">Bring issues from GitHub or events from an iCalendar feed in as tasks.</p>
      <Problem error={error} />
      <form onSubmit={(event) => void connect(event)} noValidate>
        <div class="field">
          <label for="connector-type">Connector</label>
          <select id="connector-type" value={type} onChange={(event) => (setType(event.currentTarget.value as ConnectorType), setCredential(''))}>
            <option value="github">GitHub</option>
            <option value="ical">iCalendar feed</option>
          </select>
        </div>
        {type === 'github' ? (
          <Field id="github-token" label="GitHub token" type="password" autoComplete="off" value={credential} onValue={setCredential} error={fields.token} />
        ) : (
          <Field id="ical-url" label="iCalendar URL" type="url" value={credential} onValue={setCredential} error={fields.url} />
        )}
        <button type="submit" disabled={busy}>
          Connect
        </button>
      </form>
      <h2>Connected accounts</h2>
      {!accounts && !error && <Loading what="connections" />}
      {accounts?.length === 0 && <p class="muted">Nothing connected yet.</p>}
      <ul class="cards">
        {accounts?.map((account) => (
          <ConnectionCard key={account.id} account={account} onGone={() => setAccounts((held) => held?.filter((other) => other.id !== account.id))} />
        ))}
      </ul>
    </Page>
  );
}

function ConnectionCard({ account, onGone }: { account: ConnectorAccount; onGone: () => void }) {
  const [job, setJob] = useState<SyncJob>();
  const [error, setError] = useState<TaskApiError>();
  const syncing = job !== undefined && !FINISHED.has(job.status);

  // Follows a running job once a second until it ends.
  useEffect(() => {
    if (!syncing) return;
    const timer = setTimeout(async () => {
      const current = await client.getSyncJob(job.id);
      if (current.error) return setError(current.error);
      setJob(current.data);
    }, 1000);
    return () => clearTimeout(timer);
  }, [job, syncing]);

  const sync = async () => {
    const started = await client.startSync(account.id);
    setError(started.error);
    if (started.data) setJob(started.data);
  };
  const disconnect = async () => {
    const done = await client.disconnectAccount(account.id);
    if (done.error) return setError(done.error);
    onGone();
  };

  return (
    <li class="card">
      <h3>{account.displayName}</h3>
      <p class="muted">
        {account.type === 'github' ? 'GitHub' : 'iCalendar'} · last synced {when(job?.finishedAt ?? account.lastSyncedAt)}
      </p>
      {job && (
        <p role="status" class={job.status === 'failed' ? 'problem' : undefined}>
          {syncing
            ? `Sync ${job.status}… ${job.fetched} fetched so far.`
            : `Sync ${job.status}: ${job.fetched} fetched, ${job.created} created, ${job.updated} updated, ${job.unchanged} unchanged, ${job.droppedOverQuota} dropped over quota.`}
          {job.error && ` ${job.error}`}
        </p>
      )}
      {error && (
        <p class="problem" role="alert">
          {errorText(error)}
        </p>
      )}
      <div class="row">
        <button type="button" disabled={syncing} onClick={() => void sync()} aria-label={`${syncing ? 'Syncing' : 'Sync now'}: ${account.displayName}`}>
          {syncing ? 'Syncing' : 'Sync now'}
        </button>
        <button type="button" class="danger" onClick={() => void disconnect()} aria-label={`Disconnect: ${account.displayName}`}>
          Disconnect
        </button>
      </div>
    </li>
  );
}
