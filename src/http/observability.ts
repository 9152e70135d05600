import type { RequestHandler } from 'express';
import type { CoreDeps } from '../deps.js';
import { createHttpMetrics, type Metric } from './metrics.js';
import { requestLog } from './request-log.js';
import { createRouteMatcher } from './route-of.js';

export type { Metric };

/**
 * Decisions §14 in the order a request meets it: its id (and, once it is done, its access-log line
 * and its timing), then GET /metrics (outside the rate limits, like the health probes).
 */
export function createObservability(options: CoreDeps & { document: Record<string, unknown>; metrics?: readonly Metric[] }): RequestHandler[] {
  const routeOf = createRouteMatcher(options.document);
  const metrics = createHttpMetrics({ db: options.db, collectors: options.metrics ?? [], token: options.config.METRICS_TOKEN });
  return [requestLog(options.logger, routeOf, metrics.record), metrics.serve];
}
