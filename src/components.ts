import { createHmac } from 'node:crypto';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Metric } from 'prom-client';
import { createUsageHandlers, usageOperations } from './account/account.component.js';
import { createAuthComponent, type IdentifyCaller } from './auth/auth.component.js';
import { createConnectorsComponent } from './connectors/connectors.component.js';
import type { CoreDeps } from './deps.js';
import type { OperationRoute } from './http/operation-table.js';
import type { OperationEntry } from './http/operations.js';
import { createOperationRunner } from './http/run-operation.js';
import { createLimitsComponent } from './limits/limits.component.js';
import { ALL_SCOPES, type Scope } from './http/caller.js';
import { createMcpComponent, mcpScopes } from './mcp/mcp.component.js';
import { createOAuthComponent, oauthPageHeaders } from './oauth/oauth.component.js';
import { createTasksComponent } from './tasks/tasks.component.js';
import { createWebhooksComponent } from './webhooks/webhooks.component.js';

export interface Components {
  identifyCaller: IdentifyCaller;
  rateLimit: RequestHandler;
  /** Every component's operations, by operationId, /mcp's included. */
  operations: OperationEntry[];
  /** The sign-in pages' security headers. */
  pageHeaders: RequestHandler;
  /** /mcp's DNS-rebinding protection, the first step of its routes. */
  mcpGuard: RequestHandler;
  /** /mcp's renderer of a refused `tools/call`. */
  mcpRefusal: ErrorRequestHandler;
  /** The scopes a token for /mcp can use: named in its resource metadata and its 401's challenge. */
  mcpScopes: readonly Scope[];
  /** undefined when Redis is not configured. */
  redisUp?: () => boolean;
  /** The components' counters, for GET /metrics. */
  metrics: Metric[];
  /** Background work (sync jobs, webhook deliveries) that starts once the server listens. */
  start: () => void;
  stop: () => Promise<void>;
}

/** Wires the business components together; each owns its routes, logic and data. */
export async function createComponents(deps: CoreDeps, openApi: { document: Record<string, unknown>; table: readonly OperationRoute[] }): Promise<Components> {
  const auth = createAuthComponent(deps);
  const limits = await createLimitsComponent(deps, { refreshTokenAccount: auth.refreshTokenAccount, refreshCookieOf: auth.refreshCookieOf });
  const webhooks = createWebhooksComponent(deps);
  const tasks = createTasksComponent(deps, {
    cursorKey: auth.deriveKey((secret) => createHmac('sha256', secret).update('task-change-cursor').digest()),
    taskChangeListener: webhooks.taskChangeListener,
  });
  const connectors = createConnectorsComponent(deps, tasks.sync, { onConnectorChange: webhooks.onConnectorChange });
  const usage = createUsageHandlers({ tasks, connectors, limits });
  const scopesOfMcp = mcpScopes(openApi.document, ALL_SCOPES);
  const oauth = createOAuthComponent(deps, auth, scopesOfMcp, connectors.fetchPublicDocument, webhooks.removeMadeByClient);
  const operations = [
    ...auth.operations,
    ...usageOperations(usage),
    ...tasks.operations,
    ...connectors.operations,
    ...oauth.operations,
    ...webhooks.operations,
  ];
  const mcp = createMcpComponent(deps, openApi.document, createOperationRunner(openApi.document, openApi.table, operations), tasks.byPrefix);
  return {
    identifyCaller: auth.identifyCaller,
    rateLimit: limits.rateLimit,
    operations: [...operations, ...mcp.operations],
    pageHeaders: oauthPageHeaders,
    mcpGuard: mcp.guard,
    mcpRefusal: mcp.renderRefusal,
    mcpScopes: scopesOfMcp,
    redisUp: limits.redisUp,
    metrics: [...limits.metrics, ...connectors.metrics, ...webhooks.metrics],
    start: () => {
      connectors.start();
      webhooks.start();
    },
    stop: async () => {
      await connectors.stop();
      await webhooks.stop();
      await limits.close();
    },
  };
}
