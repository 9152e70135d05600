import type { TaskApiError } from '@task-service/sdk';
import { useState } from 'preact/hooks';
import { client, fieldErrors } from '../api.js';
import { Field, Page, Problem } from '../ui.js';

/** Sign in, or (mode `sign-up`) create an account: the same two fields, one form per page. */
export function SignInPage({ mode, notice, onSignedIn }: { mode: 'sign-in' | 'sign-up'; notice?: string | undefined; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<TaskApiError>();
  const [busy, setBusy] = useState(false);
  const signUp = mode === 'sign-up';
  const fields = fieldErrors(error);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    const result = signUp ? await client.registerAccount({ email, password }) : await client.login({ email, password });
    setBusy(false);
    setError(result.error);
    if (!result.error) await onSignedIn();
  };

  return (
    <Page title={signUp ? 'Create an account' : 'Sign in'}>
      {notice && !error && <p role="status">{notice}</p>}
      <Problem error={error} />
      <form onSubmit={(event) => void submit(event)} noValidate>
        <Field id="email" label="Email" type="email" autoComplete="email" required value={email} onValue={setEmail} error={fields.email} />
        <Field
          id="password"
          label="Password"
          type="password"
          autoComplete={signUp ? 'new-password' : 'current-password'}
          required
          value={password}
          onValue={setPassword}
          error={fields.password}
        />
        <button type="submit" disabled={busy}>
          {signUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>{signUp ? <a href="#/sign-in">I have an account: sign in</a> : <a href="#/sign-up">Create an account</a>}</p>
    </Page>
  );
}
