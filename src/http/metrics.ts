import { timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { collectDefaultMetrics, Counter, Gauge, Registry, type Metric } from 'prom-client';
import { poolCounts, type Db } from '../platform/db.js';
import { errors, type AppError } from '../platform/errors.js';
import type { FinishedRequest } from './request-log.js';
import { RequestDurations } from './request-durations.js';

export type { Metric };

export const REQUEST_DURATION_NAME = 'task_service_http_request_duration_seconds';
export const REQUEST_DURATION_HELP = 'Time from the first middleware to the last byte written, by operationId and status.';
/** 1 ms to 10 s: a fast read and a request stuck behind a slow database both land in a bucket of their own. */
export const REQUEST_DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export interface HttpMetrics {
  readonly registry: Registry;
  /** Times a finished request by operationId and status, and counts the refusal the error handler rendered. */
  readonly record: (request: FinishedRequest) => void;
  /** GET /metrics in the Prometheus text format; behind `token` when one is set. */
  readonly serve: RequestHandler;
}

/** One registry per app (not prom-client's global one): process, requests, database pool and the components' `collectors`. */
export function createHttpMetrics(options: {
  db: Db;
  collectors: readonly Metric[];
  token: string | undefined;
}): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  for (const collector of options.collectors) registry.registerMetric(collector);

  const durations = new RequestDurations(REQUEST_DURATION_NAME, REQUEST_DURATION_HELP, REQUEST_DURATION_BUCKETS);
  // Written by the registry as its own Histogram would be (src/http/request-durations.ts); its types list only its own metrics.
  registry.registerMetric(durations as unknown as Metric);
  const quotaRefusals = new Counter({
    name: 'task_service_quota_refusals_total',
    help: 'Requests refused with 403 QUOTA_EXCEEDED, by cap.',
    labelNames: ['quota'] as const,
    registers: [registry],
  });
  const lockedRefusals = new Counter({
    name: 'task_service_login_lockout_refusals_total',
    help: 'Sign-ins refused with 429 ACCOUNT_LOCKED because the email is locked out.',
    registers: [registry],
  });
  registerPoolGauges(registry, options.db);

  const record = ({ res, route, seconds }: FinishedRequest) => {
    durations.observe(route, res.statusCode, seconds);
    const refusal = res.locals.error as AppError | undefined;
    if (refusal?.code === 'QUOTA_EXCEEDED') quotaRefusals.inc({ quota: refusal.extras.quota ?? 'unknown' });
    else if (refusal?.code === 'ACCOUNT_LOCKED') lockedRefusals.inc();
  };

  const serve: RequestHandler = async function serveMetrics(req, res, next) {
    if (options.token !== undefined && !bearerMatches(req.headers.authorization, options.token)) {
      return next(errors.unauthenticated('This endpoint needs the metrics token (METRICS_TOKEN) as a bearer token.'));
    }
    try {
      const text = await registry.metrics();
      res.type(registry.contentType).send(text);
    } catch (err) {
      next(err);
    }
  };
  return { registry, record, serve };
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer +(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const offered = Buffer.from(match[1]!);
  const expected = Buffer.from(token);
  return offered.length === expected.length && timingSafeEqual(offered, expected);
}

function registerPoolGauges(registry: Registry, db: Db): void {
  new Gauge({
    name: 'task_service_db_pool_connections',
    help: 'Database pool connections by state: used, free, and pending (acquisitions waiting for one).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const counts = poolCounts(db);
      this.set({ state: 'used' }, counts.used);
      this.set({ state: 'free' }, counts.free);
      this.set({ state: 'pending' }, counts.pending);
    },
  });
  new Gauge({
    name: 'task_service_db_pool_max_connections',
    help: 'The most connections the database pool opens.',
    registers: [registry],
    collect() {
      this.set(poolCounts(db).max);
    },
  });
}
