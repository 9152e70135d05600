import type { ApiToken, ApiTokenCreated, Scope } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { ConfirmButton, Field, Loading, Page, Problem, Secret, when } from '../ui.js';
import { fieldErrors } from '../words.js';

const SCOPES: Scope[] = ['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write', 'tokens:manage', 'webhooks:manage'];

export function TokensPage() {
  const [tokens, setTokens] = useState<ApiToken[]>();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>(['tasks:read', 'tasks:write']);
  const [created, setCreated] = useState<ApiTokenCreated>();
  const listing = useAction();
  const creating = useAction();
  const revoking = useAction();

  useEffect(() => {
    void listing.run(() => client.listApiTokens()).then((listed) => listed.ok && setTokens(listed.data.items));
  }, []);

  const create = async (event: Event) => {
    event.preventDefault();
    const made = await creating.run(() => client.createApiToken({ name, scopes }));
    if (!made.ok) return;
    setCreated(made.data);
    setName('');
    setTokens((held) => [made.data, ...(held ?? [])]);
    announce(`Created the token “${made.data.name}”. Copy it now: it is shown this once.`);
  };
  const revoke = async (token: ApiToken) => {
    const done = await revoking.run(() => client.revokeApiToken(token.id));
    if (!done.ok) return;
    setTokens((held) => held?.filter((other) => other.id !== token.id));
    if (created?.id === token.id) setCreated(undefined);
    announce(`Revoked the token “${token.name}”.`);
    document.getElementById('page-title')?.focus();
  };

  const fields = fieldErrors(creating.error);
  return (
    <Page title="API tokens">
      <p class="muted">Tokens let scripts and tools act for you with the scopes you choose.</p>
      <Problem error={listing.error} attempt={listing.attempt} />
      <form onSubmit={(event) => void create(event)} noValidate>
        <Problem error={creating.error} attempt={creating.attempt} />
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
        <button type="submit" disabled={creating.busy}>
          Create token
        </button>
      </form>
      {created && <Secret id="new-token" label={`New token “${created.name}”`} value={created.token} />}
      <h2>Your tokens</h2>
      <Problem error={revoking.error} attempt={revoking.attempt} />
      {!tokens && listing.error === undefined && <Loading what="tokens" />}
      {tokens?.length === 0 && <p class="muted">No API tokens.</p>}
      <ul class="cards">
        {tokens?.map((token) => (
          <li key={token.id} class="card">
            <h3 class="wrap">{token.name}</h3>
            <p class="muted wrap">
              <code>{token.prefix}…</code> · {token.scopes.join(', ')} · created {when(token.createdAt)} · last used {when(token.lastUsedAt)}
              {token.expiresAt && ` · expires ${when(token.expiresAt)}`}
            </p>
            <ConfirmButton
              label="Revoke"
              name={`Revoke: ${token.name}`}
              question={`Revoke the token “${token.name}”?`}
              detail="Scripts and tools using it stop working at once. This cannot be undone."
              confirm="Revoke token"
              onConfirm={() => void revoke(token)}
            />
          </li>
        ))}
      </ul>
    </Page>
  );
}
