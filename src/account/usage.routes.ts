import { Router } from 'express';
import type { components } from '../../generated/api.js';
import type { ConnectorsComponent } from '../connectors/connectors.component.js';
import type { Caller } from '../http/caller.js';
import type { LimitsComponent } from '../limits/limits.component.js';
import type { TasksComponent } from '../tasks/tasks.component.js';

type Usage = components['schemas']['Usage'];

export interface UsageParts {
  tasks: Pick<TasksComponent, 'usage'>;
  connectors: Pick<ConnectorsComponent, 'usage'>;
  limits: Pick<LimitsComponent, 'usage'>;
}

/** GET /me/usage: what the account uses of each cap, and its windows, from the components that own them. */
export function createUsageRouter(parts: UsageParts): Router {
  const router = Router();
  router.get('/me/usage', async (req, res) => {
    res.json(await readUsage(parts, req.caller!));
  });
  return router;
}

/** The body of GET /me/usage for this caller. */
export async function readUsage(parts: UsageParts, caller: Caller): Promise<Usage> {
  const [tasks, connectorAccounts, rateLimits] = await Promise.all([
    parts.tasks.usage(caller.accountId),
    parts.connectors.usage(caller.accountId),
    parts.limits.usage(caller),
  ]);
  return { tasks, connectorAccounts, rateLimits };
}
