import type { ApiToken, ApiTokenCreated, Scope, TaskApiError } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client, fieldErrors } from '../api.js';
import { Field, Loading, Page, Problem, Secret, when } from '../ui.js';

const SCOPES: Scope[] = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage', 'webhooks:manage'];

export function TokensPage() {
  const [tokens, setTokens] = useState<ApiToken[]>();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['tasks:read', 'tasks:write']);
  const [created, setCreated] = useState<ApiTokenCreated>();
  const [error, setError] = useState<TaskApiError>();

  useEffect(() => {
    void client.listApiTokens().then((listed) => (listed.error ? setError(listed.error) : setTokens(listed.data.items)));
  }, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const made = await client.createApiToken({ name, scopes });
    setError(made.error);
    if (made.error) return;
    setCreated(made.data);
    setName('');
    setTokens((held) => [made.data, ...(held ?? [])]);
  };
  const revoke = async (token: ApiToken) => {
    const done = await client.revokeApiToken(token.id);
    if (done.error) return setError(done.error);
    setTokens((held) => held?.filter((other) => other.id !== token.id));
    if (created?.id === token.id) setCreated(undefined);
  };

  const fields = fieldErrors(error);
  return (
    <Page title="API tokens">
      <p class="muted">Tokens let scripts and tools act for you with the scopes you choose.</p>
      <Problem error={error} />
      <form onSubmit={(event) => void create(event)} noValidate>
        <Field id="token-name" label="Token name" value={name} onValue={setName} required maxLength={100} error={fields.name} />
        <fieldset>
          <legend>Scopes</legend>
          {SCOPES.map((scope) => (
            <label key={scope} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => setScopes((held) => (event.currentTarget.checked ? [...held, scope] : held.filter((other) => other !== scope)))}
              />
              {scope}
            </label>
          ))}
          {fields.scopes && <p class="field-error">{fields.scopes}</p>}
        </fieldset>
        <button type="submit">Create token</button>
      </form>
      {created && <Secret id="new-token" label={`New token “${created.name}”`} value={created.token} />}
      <h2>Your tokens</h2>
      {!tokens && !error && <Loading what="tokens" />}
      {tokens?.length === 0 && <p class="muted">No API tokens.</p>}
      <ul class="cards">
        {tokens?.map((token) => (
          <li key={token.id} class="card">
            <h3>{token.name}</h3>
            <p class="muted">
              <code>{token.prefix}…</code> · {token.scopes.join(', ')} · created {when(token.createdAt)} · last used {when(token.lastUsedAt)}
              {token.expiresAt && ` · expires ${when(token.expiresAt)}`}
            </p>
            <button type="button" class="danger" onClick={() => void revoke(token)} aria-label={`Revoke: ${token.name}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </Page>
  );
}
