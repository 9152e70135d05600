import type { RequestHandler } from 'express';
import type { CoreDeps } from '../deps.js';
import { createHttpMetrics, type Metric } from './metrics.js';
import { ownResponse, type OperationEntry } from './operations.js';
import { requestLog } from './request-log.js';

export type { Metric };

/**
 * Every request's id (and, once it is done, its access-log line and its timing), as
 * the app's first step; and GET /metrics, an operation of the table (outside the rate limits, like
 * the health probes).
 */
export function createObservability(options: CoreDeps & { metrics?: readonly Metric[] }): { requestLog: RequestHandler; operations: OperationEntry[] } {
  const metrics = createHttpMetrics({ db: options.db, collectors: options.metrics ?? [], token: options.config.METRICS_TOKEN });
  return { requestLog: requestLog(options.logger, metrics.record), operations: [ownResponse('getMetrics', metrics.serve)] };
}
