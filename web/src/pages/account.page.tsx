import type { TaskApiError } from '@task-service/sdk';
import { useState } from 'preact/hooks';
import { client, fieldErrors } from '../api.js';
import { Field, Page, Problem } from '../ui.js';

export function AccountPage({ email, onDeleted }: { email: string; onDeleted: () => void }) {
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<TaskApiError>();
  const [busy, setBusy] = useState(false);
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase();

  const remove = async (event: Event) => {
    event.preventDefault();
    if (!confirmed) return;
    setBusy(true);
    const done = await client.deleteAccount({ password });
    setBusy(false);
    setError(done.error);
    if (!done.error) onDeleted();
  };

  return (
    <Page title="Account">
      <p>
        Signed in as <strong>{email}</strong>.
      </p>
      <h2>Delete the account</h2>
      <p>This deletes your tasks, connections, tokens, webhooks and the apps you allowed, for good.</p>
      <Problem error={error} />
      <form onSubmit={(event) => void remove(event)} noValidate>
        <Field id="delete-password" label="Password" type="password" autoComplete="current-password" value={password} onValue={setPassword} error={fieldErrors(error).password} />
        <Field id="delete-confirm" label={`Type your email (${email}) to confirm`} autoComplete="off" value={typed} onValue={setTyped} />
        <button type="submit" class="danger" disabled={!confirmed || busy}>
          Delete account
        </button>
      </form>
    </Page>
  );
}
