import type { ConnectorAccount, ConnectorType, SyncJob } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { ConfirmButton, Field, Loading, Page, Problem, when } from '../ui.js';
import { fieldErrors, syncProblem } from '../words.js';

const FINISHED = new Set(['succeeded', 'failed']);

export function ConnectionsPage() {
  const [accounts, setAccounts] = useState<ConnectorAccount[]>();
  const [type, setType] = useState<ConnectorType>('github');
  const [credential, setCredential] = useState('');
  const listing = useAction();
  const connecting = useAction();

  useEffect(() => {
    void listing.run(() => client.listConnectorAccounts()).then((listed) => listed.ok && setAccounts(listed.data.items));
  }, []);

  const connect = async (event: Event) => {
    event.preventDefault();
    const connected = await connecting.run(() => client.connectAccount(type, type === 'github' ? { token: credential } : { url: credential }));
    if (!connected.ok) return;
    setCredential('');
    setAccounts((held) => [...(held ?? []).filter((account) => account.id !== connected.data.id), connected.data]);
    announce(`Connected ${connected.data.displayName}.`);
  };

  const fields = fieldErrors(connecting.error);
  return (
    <Page title="Connections">
      <p class="muted">Bring issues from GitHub or events from an iCalendar feed in as tasks.</p>
      <Problem error={listing.error} attempt={listing.attempt} />
      <form onSubmit={(event) => void connect(event)} noValidate>
        <Problem error={connecting.error} attempt={connecting.attempt} />
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
        <button type="submit" disabled={connecting.busy}>
          Connect
        </button>
      </form>
      <h2>Connected accounts</h2>
      {!accounts && listing.error === undefined && <Loading what="connections" />}
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
  const action = useAction();
  const following = useAction();
  const syncing = job !== undefined && !FINISHED.has(job.status);

  // Follows a running job once a second until it ends (a lost connection is shown, and the next tick tries again).
  useEffect(() => {
    if (!syncing) return;
    const timer = setTimeout(
      () =>
        void following.run(() => client.getSyncJob(job.id)).then((current) => {
          if (!current.ok) return setJob({ ...job });
          setJob(current.data);
          if (FINISHED.has(current.data.status)) announce(`Sync of ${account.displayName} ${current.data.status}: ${current.data.created} created, ${current.data.updated} updated.`);
        }),
      1000,
    );
    return () => clearTimeout(timer);
  }, [job, syncing]);

  const sync = async () => {
    const started = await action.run(() => client.startSync(account.id));
    if (started.ok) setJob(started.data);
  };
  const disconnect = async () => {
    const done = await action.run(() => client.disconnectAccount(account.id));
    if (!done.ok) return;
    announce(`Disconnected ${account.displayName}. Its tasks stay, as your own.`);
    document.getElementById('page-title')?.focus();
    onGone();
  };

  return (
    <li class="card">
      <h3>{account.displayName}</h3>
      <p class="muted">
        {account.type === 'github' ? 'GitHub' : 'iCalendar'} · last synced {when(job?.finishedAt ?? account.lastSyncedAt)}
      </p>
      {job && (
        <p class={job.status === 'failed' ? 'problem' : undefined}>
          {syncing
            ? `Sync ${job.status}… ${job.fetched} fetched so far.`
            : `Sync ${job.status}: ${job.fetched} fetched, ${job.created} created, ${job.updated} updated, ${job.unchanged} unchanged, ${job.droppedOverQuota} dropped over quota.`}
          {job.error && ` ${syncProblem(job.error)}`}
        </p>
      )}
      <Problem error={action.error ?? following.error} attempt={action.attempt + following.attempt} />
      <div class="row">
        <button type="button" aria-disabled={syncing ? 'true' : undefined} onClick={() => !syncing && void sync()} aria-label={`${syncing ? 'Syncing' : 'Sync now'}: ${account.displayName}`}>
          {syncing ? 'Syncing' : 'Sync now'}
        </button>
        <ConfirmButton
          label="Disconnect"
          name={`Disconnect: ${account.displayName}`}
          question={`Disconnect ${account.displayName}?`}
          detail="Its tasks stay as your own tasks; they are no longer updated from it."
          confirm="Disconnect"
          busy={action.busy}
          onConfirm={() => void disconnect()}
        />
      </div>
    </li>
  );
}
