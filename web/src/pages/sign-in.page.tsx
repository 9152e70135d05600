import { useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { Field, Page, Problem } from '../ui.js';
import { fieldErrors } from '../words.js';

/** Sign in, or (mode `sign-up`) create an account: the same two fields, one form per page. */
export function SignInPage({ mode, notice, onSignedIn }: { mode: 'sign-in' | 'sign-up'; notice?: string | undefined; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const signUp = mode === 'sign-up';
  const fields = fieldErrors(action.error);

  const submit = async (event: Event) => {
    event.preventDefault();
    const result = await action.run(() => (signUp ? client.registerAccount({ email, password }) : client.login({ email, password })));
    if (result.ok) await onSignedIn();
  };

  return (
    <Page title={signUp ? 'Create an account' : 'Sign in'}>
      {notice && action.error === undefined && <p class="notice">{notice}</p>}
      <Problem error={action.error} attempt={action.attempt} />
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
        <button type="submit" disabled={action.busy}>
          {signUp ? 'Create account' : 'Sign in'}
        </button>
      </form>
      <p>{signUp ? <a href="#/sign-in">I have an account: sign in</a> : <a href="#/sign-up">Create an account</a>}</p>
    </Page>
  );
}
