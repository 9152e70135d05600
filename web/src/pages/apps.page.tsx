import type { AuthorizationList, TaskApiError } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { client } from '../api.js';
import { Loading, Page, Problem, when } from '../ui.js';

type Authorization = AuthorizationList['items'][number];

export function AppsPage() {
  const [apps, setApps] = useState<Authorization[]>();
  const [error, setError] = useState<TaskApiError>();

  useEffect(() => {
    void client.listAuthorizations().then((listed) => (listed.error ? setError(listed.error) : setApps(listed.data.items)));
  }, []);

  const revoke = async (app: Authorization) => {
    const done = await client.revokeAuthorization(app.clientId);
    if (done.error) return setError(done.error);
    setApps((held) => held?.filter((other) => other.clientId !== app.clientId));
  };

  return (
    <Page title="Authorised apps">
      <p class="muted">Apps you allowed to act for you. Revoking ends every session they hold.</p>
      <Problem error={error} />
      {!apps && !error && <Loading what="apps" />}
      {apps?.length === 0 && <p class="muted">No app has access to your account.</p>}
      <ul class="cards">
        {apps?.map((app) => (
          <li key={app.clientId} class="card">
            <h3>{app.clientName ?? app.clientId}</h3>
            <p class="muted">
              {app.scopes.join(', ')} · allowed {when(app.authorizedAt)}
            </p>
            <button type="button" class="danger" onClick={() => void revoke(app)} aria-label={`Revoke: ${app.clientName ?? app.clientId}`}>
              Revoke
            </button>
          </li>
        ))}
      </ul>
    </Page>
  );
}
