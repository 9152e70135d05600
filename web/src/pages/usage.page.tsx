import type { Usage, WindowUsage } from '@task-service/sdk';
import { useEffect, useState } from 'preact/hooks';
import { useAction } from '../action.js';
import { client } from '../api.js';
import { Loading, Page, Problem } from '../ui.js';

export function UsagePage() {
  const [usage, setUsage] = useState<Usage>();
  const action = useAction();
  const load = async () => {
    const read = await action.run(() => client.getUsage());
    if (read.ok) setUsage(read.data);
  };
  useEffect(() => void load(), []);

  return (
    <Page title="Usage">
      <Problem error={action.error} attempt={action.attempt} />
      {!usage && action.error === undefined && <Loading what="usage" />}
      {usage && (
        <>
          <h2>Caps</h2>
          <ul class="bars">
            <Bar id="cap-tasks" label="Tasks" used={usage.tasks.used} limit={usage.tasks.limit} />
            {usage.connectorAccounts.map((cap) => (
              <Bar key={cap.type} id={`cap-${cap.type}`} label={`${cap.type === 'github' ? 'GitHub' : 'iCalendar'} connections`} used={cap.used} limit={cap.limit} />
            ))}
          </ul>
          <h2>Request budgets</h2>
          <ul class="bars">
            <Window id="account-burst" label="Account, per burst window" window={usage.rateLimits.account.burst} />
            <Window id="account-sustained" label="Account, per sustained window" window={usage.rateLimits.account.sustained} />
            <Window id="client-burst" label="This app, per burst window" window={usage.rateLimits.client.burst} />
            <Window id="client-sustained" label="This app, per sustained window" window={usage.rateLimits.client.sustained} />
          </ul>
          <button type="button" onClick={() => void load()}>
            Refresh
          </button>
        </>
      )}
    </Page>
  );
}

function Window({ id, label, window }: { id: string; label: string; window: WindowUsage }) {
  return <Bar id={id} label={label} used={window.limit - window.remaining} limit={window.limit} note={`resets in ${window.resetSeconds} s`} />;
}

function Bar({ id, label, used, limit, note }: { id: string; label: string; used: number; limit: number; note?: string }) {
  return (
    <li class="bar">
      <label for={id}>{label}</label>
      <meter id={id} min={0} max={limit} value={used} high={limit * 0.8} optimum={0} />
      <span class="muted">
        {used} of {limit} used{note && `, ${note}`}
      </span>
    </li>
  );
}
