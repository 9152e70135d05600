import type { Express } from 'express';
import { createApp, type AppParts } from './app.js';
import { createComponents, type Components } from './components.js';
import type { Config } from './config.js';
import { readOpenApiDocument } from './http/openapi-document.js';
import { operationTable } from './http/operation-table.js';
import { createDb, isDbReachable, migrate, type Db } from './platform/db.js';
import type { Logger } from './platform/logger.js';

export interface Service {
  readonly app: Express;
  readonly db: Db;
  readonly components: Components;
}

/** What a bench may swap to measure one piece against a baseline: the limiter, or observability off. */
export type ServiceOverrides = Partial<Pick<AppParts, 'rateLimit' | 'observe'>>;

/**
 * Settings → the contract → migrated database → components → app: the one wiring of the service, so
 * the process entry and the benches measure the same app.
 */
export async function createService(config: Config, logger: Logger, overrides: ServiceOverrides = {}): Promise<Service> {
  const openApi = readOpenApiDocument();
  const db = createDb(config.database);
  await migrate(db);
  const table = operationTable(openApi.document);
  const components = await createComponents({ config, db, logger }, { document: openApi.document, table });
  const app = createApp({
    config,
    db,
    logger,
    openApi,
    table,
    readiness: { database: () => isDbReachable(db), redis: components.redisUp },
    identifyCaller: components.identifyCaller,
    rateLimit: components.rateLimit,
    operations: components.operations,
    metrics: components.metrics,
    pageHeaders: components.pageHeaders,
    mcpGuard: components.mcpGuard,
    mcpRefusal: components.mcpRefusal,
    mcpScopes: components.mcpScopes,
    ...overrides,
  });
  return { app, db, components };
}
