import { useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { Field, Page, Problem } from '../ui.js';
import { fieldErrors, isApiError } from '../words.js';

export function AccountPage({ email, onDeleted }: { email: string; onDeleted: () => void }) {
  const [password, setPassword] = useState('');
  const [typed, setTyped] = useState('');
  const action = useAction();
  const confirmed = typed.trim().toLowerCase() === email.toLowerCase();
  // Here a wrong password is about this form only, not a sign-in (words.ts says that one).
  const wrongPassword = isApiError(action.error) && action.error.code === 'INVALID_CREDENTIALS';

  const remove = async (event: Event) => {
    event.preventDefault();
    if (!confirmed) return;
    const done = await action.run(() => client.deleteAccount({ password }));
    if (done.ok) onDeleted();
  };

  return (
    <Page title="Account">
      <p>
        Signed in as <strong class="wrap">{email}</strong>.
      </p>
      <h2>Delete the account</h2>
      <p>This deletes your tasks, connections, tokens, webhooks and the apps you allowed, for good.</p>
      <Problem error={wrongPassword ? 'The password is wrong.' : action.error} attempt={action.attempt} />
      <form onSubmit={(event) => void remove(event)} noValidate>
        <Field id="delete-password" label="Password" type="password" autoComplete="current-password" value={password} onValue={setPassword} error={fieldErrors(action.error).password} />
        <Field id="delete-confirm" label={`Type your email (${email}) to confirm`} autoComplete="off" value={typed} onValue={setTyped} />
        <button type="submit" class="danger" disabled={!confirmed || action.busy}>
          Delete account
        </button>
      </form>
    </Page>
  );
}
