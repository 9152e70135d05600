import { Router } from 'express';
import type { components } from '../../generated/api.js';
import type { ConnectorsComponent } from '../connectors/connectors.component.js';
import type { LimitsComponent } from '../limits/limits.component.js';
import type { TasksComponent } from '../tasks/tasks.component.js';

type Usage = components['schemas']['Usage'];

/** GET /me/usage: what the account uses of each cap, and its windows, from the components that own them. */
export function createUsageRouter(parts: {
  tasks: Pick<TasksComponent, 'usage'>;
  connectors: Pick<ConnectorsComponent, 'usage'>;
  limits: Pick<LimitsComponent, 'usage'>;
}): Router {
  const router = Router();
  router.get('/me/usage', async (req, res) => {
    const caller = req.caller!;
    const [tasks, connectorAccounts, rateLimits] = await Promise.all([
      parts.tasks.usage(caller.accountId),
      parts.connectors.usage(caller.accountId),
      parts.limits.usage(caller),
    ]);
    const body: Usage = { tasks, connectorAccounts, rateLimits };
    res.json(body);
  });
  return router;
}
