import type { AuthorizationList } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { announce } from '../live.js';
import { ConfirmButton, Loading, Page, Problem, when } from '../ui.js';

type Authorization = AuthorizationList['items'][number];

export function AppsPage() {
  const [apps, setApps] = useState<Authorization[]>();
  const action = useAction();

  useEffect(() => {
    void action.run(() => client.listAuthorizations()).then((listed) => listed.ok && setApps(listed.data.items));
  }, []);

  const revoke = async (app: Authorization) => {
    const done = await action.run(() => client.revokeAuthorization(app.clientId));
    if (!done.ok) return;
    setApps((held) => held?.filter((other) => other.clientId !== app.clientId));
    announce(`Revoked ${app.clientName ?? app.clientId}.`);
    document.getElementById('page-title')?.focus();
  };

  return (
    <Page title="Authorised apps">
      <p class="muted">Apps you allowed to act for you. Revoking ends every session they hold.</p>
      <Problem error={action.error} attempt={action.attempt} />
      {!apps && action.error === undefined && <Loading what="apps" />}
      {apps?.length === 0 && <p class="muted">No app has access to your account.</p>}
      <ul class="cards">
        {apps?.map((app) => {
          const name = app.clientName ?? app.clientId;
          return (
            <li key={app.clientId} class="card">
              <h3 class="wrap">{name}</h3>
              <p class="muted">
                {app.scopes.join(', ')} · allowed {when(app.authorizedAt)}
              </p>
              <ConfirmButton
                label="Revoke"
                name={`Revoke: ${name}`}
                question={`Revoke ${name}?`}
                detail="It is signed out everywhere at once and can do nothing more for you until you allow it again."
                confirm="Revoke access"
                busy={action.busy}
                onConfirm={() => void revoke(app)}
              />
            </li>
          );
        })}
      </ul>
    </Page>
  );
}
