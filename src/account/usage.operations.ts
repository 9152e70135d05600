import type { ConnectorsComponent } from '../connectors/connectors.component.js';
import { operation, type OperationEntry, type OperationInput } from '../http/operations.js';
import type { LimitsComponent } from '../limits/limits.component.js';
import type { TasksComponent } from '../tasks/tasks.component.js';

export interface UsageParts {
  tasks: Pick<TasksComponent, 'usage'>;
  connectors: Pick<ConnectorsComponent, 'usage'>;
  limits: Pick<LimitsComponent, 'usage'>;
}

/** GET /me/usage: what the account uses of each cap, and its windows, from the components that own them. */
export function createUsageHandlers(parts: UsageParts) {
  return {
    getUsage: async ({ caller }: OperationInput<'getUsage'>) => {
      const [tasks, connectorAccounts, rateLimits] = await Promise.all([
        parts.tasks.usage(caller.accountId),
        parts.connectors.usage(caller.accountId),
        parts.limits.usage(caller),
      ]);
      return { status: 200 as const, body: { tasks, connectorAccounts, rateLimits } };
    },
  };
}

export type UsageHandlers = ReturnType<typeof createUsageHandlers>;

export const usageOperations = (handlers: UsageHandlers): OperationEntry[] => [operation('getUsage', handlers.getUsage)];
