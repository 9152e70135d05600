import { z } from 'zod';

const integer = (fallback: number, min = 0) => z.coerce.number().int().min(min).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');
/** A flag whose default depends on other settings: unset stays undefined (a zod default inside `.optional()` would win). */
const flagWithoutDefault = () =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => (value === undefined ? undefined : value === 'true' || value === '1'));

const settingsSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: integer(3000).pipe(z.number().max(65535)),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url().optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  // The built web app served at /app/ (src/http/web-app.ts); unset, web/dist of the project.
  WEB_APP_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^(sqlite:.+|postgres(ql)?:\/\/.+)$/, 'must be sqlite:PATH or postgres://...')
    .optional(),
  // PostgreSQL: how long a statement may run, wait on a row lock, and wait for a pool connection (docs/production.md).
  DATABASE_STATEMENT_TIMEOUT_MS: integer(30_000, 1),
  DATABASE_LOCK_TIMEOUT_MS: integer(5_000, 1),
  DATABASE_ACQUIRE_TIMEOUT_MS: integer(10_000, 1),
  REDIS_URL: z.string().regex(/^rediss?:\/\/.+/, 'must be redis://...').optional(),
  // Every key this service writes starts with it: several deployments (or test servers) can share one Redis.
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('task-service:'),
  // REDIS_URL names one node of a Redis Cluster; the client finds the others.
  REDIS_CLUSTER: flag(false),
  // When set, GET /metrics wants it as a bearer token.
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((value): boolean | number | string => {
      if (value === 'true') return true;
      if (value === 'false' || value === '') return false;
      if (/^\d+$/.test(value)) return Number(value);
      return value;
    }),
  OPENAPI_VALIDATE_RESPONSES: flagWithoutDefault(),
  // docs/security.md: the origins whose browser apps may call the API; `*` (bearer tokens, never cookies) or a list.
  CORS_ALLOWED_ORIGINS: z
    .string()
    .default('*')
    .refine(isOriginList, 'must be * or a comma-separated list of origins (scheme://host[:port])')
    .transform((value): '*' | readonly string[] => (value.trim() === '*' ? '*' : Object.freeze(splitList(value)))),

  JWT_SECRET: z.string().min(1).optional(),
  JWT_ISSUER: z.string().min(1).default('task-service'),
  JWT_AUDIENCE: z.string().min(1).default('task-service-api'),
  JWT_ACCESS_EXPIRES: integer(120, 1),
  JWT_REFRESH_EXPIRES: integer(2_592_000, 60),
  /** A just-rotated refresh token presented again within this many seconds gets a pair of its session, not a revocation. */
  REFRESH_REUSE_INTERVAL_SECONDS: integer(5, 0).pipe(z.number().max(300)),

  /** Time a client has to send a request's headers, then its whole request (headers and body). */
  HTTP_HEADERS_TIMEOUT_SECONDS: integer(10, 1),
  HTTP_REQUEST_TIMEOUT_SECONDS: integer(30, 1),

  RATE_LIMITS_ENABLED: flag(true),
  RATE_LIMIT_BURST_PER_MINUTE: integer(400, 1),
  RATE_LIMIT_SUSTAINED_PER_HOUR: integer(8000, 1),
  RATE_LIMIT_CLIENT_BURST_PER_MINUTE: integer(240, 1),
  RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: integer(4000, 1),
  RATE_LIMIT_STRICT_BURST_PER_MINUTE: integer(40, 1),
  RATE_LIMIT_STRICT_SUSTAINED_PER_HOUR: integer(400, 1),
  RATE_LIMIT_REFRESH_BURST_PER_MINUTE: integer(120, 1),
  RATE_LIMIT_REFRESH_SUSTAINED_PER_HOUR: integer(2400, 1),

  LOGIN_MAX_FAILED_ATTEMPTS: integer(5, 1),
  LOGIN_LOCKOUT_MINUTES: integer(15, 1),

  TASKS_MAX_PER_ACCOUNT: integer(10_000, 0),
  /** Days a deleted task's tombstone is kept for the change feed; fractions allowed (tests lower it to seconds). */
  TASK_TOMBSTONE_RETENTION_DAYS: z.coerce.number().positive().max(3650).default(30),
  CONNECTOR_ACCOUNTS_MAX_PER_TYPE: integer(5, 0),
  CONNECTOR_SECRET_KEY: z
    .string()
    .regex(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, 'must be 32 bytes as 64 hex characters or base64')
    .optional(),
  CONNECTOR_ALLOW_PRIVATE_NETWORKS: flag(false),
  /** Outgoing requests to loopback IP literals only, no DNS (conformance runs against local fakes). */
  OUTBOUND_LOOPBACK_ONLY: flag(false),

  // docs/webhooks.md: the webhook cap, and a factor on the retry delays (tests shrink a day of retries to moments).
  WEBHOOKS_MAX_PER_ACCOUNT: integer(10, 0),
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(100).default(1),
  /** Deliveries one process sends at once. */
  WEBHOOK_DELIVERY_CONCURRENCY: integer(32, 1).pipe(z.number().max(256)),
});

export type Settings = z.infer<typeof settingsSchema>;

/** Every setting's name: docs/production.md must list exactly these (scripts/docs-links.test.ts). */
export const settingNames: readonly string[] = Object.freeze(Object.keys(settingsSchema.shape));

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** `*` alone, or origins exactly as a browser sends them in `Origin` (no path, no trailing slash). */
function isOriginList(value: string): boolean {
  if (value.trim() === '*') return true;
  const entries = splitList(value);
  return entries.length > 0 && entries.every((entry) => URL.canParse(entry) && new URL(entry).origin === entry && /^https?:$/.test(new URL(entry).protocol));
}

export interface Config extends Readonly<Omit<Settings, 'OPENAPI_VALIDATE_RESPONSES'>> {
  readonly OPENAPI_VALIDATE_RESPONSES: boolean;
  readonly database: DatabaseSettings;
}

export type DatabaseSettings =
  | { readonly client: 'sqlite'; readonly filename: string }
  | { readonly client: 'postgres'; readonly url: string; readonly timeouts: DatabaseTimeouts };

/** How long a PostgreSQL statement may run or wait (`DATABASE_*_MS`). */
export interface DatabaseTimeouts {
  readonly statementMs: number;
  readonly lockMs: number;
  readonly acquireMs: number;
}


export class ConfigError extends Error {}

/** Reads and validates every setting once; the only place that reads process.env. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = settingsSchema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const name = String(issue?.path[0] ?? 'settings');
    throw new ConfigError(`Invalid setting ${name}=${JSON.stringify(env[name] ?? '')}: ${issue?.message ?? 'invalid'}`);
  }
  const settings = parsed.data;
  if (settings.NODE_ENV === 'production') {
    if (!settings.JWT_SECRET || settings.JWT_SECRET.length < 32) {
      throw new ConfigError('Invalid setting JWT_SECRET: production needs a secret of at least 32 characters');
    }
    if (!settings.CONNECTOR_SECRET_KEY) {
      throw new ConfigError('Invalid setting CONNECTOR_SECRET_KEY: production needs a 32-byte key');
    }
  }
  if (settings.HTTP_REQUEST_TIMEOUT_SECONDS < settings.HTTP_HEADERS_TIMEOUT_SECONDS) {
    throw new ConfigError('Invalid setting HTTP_REQUEST_TIMEOUT_SECONDS: must be at least HTTP_HEADERS_TIMEOUT_SECONDS');
  }
  const url = settings.DATABASE_URL;
  const database = url?.startsWith('postgres')
    ? ({ client: 'postgres', url, timeouts: { statementMs: settings.DATABASE_STATEMENT_TIMEOUT_MS, lockMs: settings.DATABASE_LOCK_TIMEOUT_MS, acquireMs: settings.DATABASE_ACQUIRE_TIMEOUT_MS } } as const)
    : ({ client: 'sqlite', filename: url ? url.slice('sqlite:'.length) : `${settings.DATA_DIR}/task-service.sqlite` } as const);
  return Object.freeze({
    ...settings,
    // Response validation costs throughput (figures in docs/benchmarks.md): on outside production.
    OPENAPI_VALIDATE_RESPONSES: settings.OPENAPI_VALIDATE_RESPONSES ?? settings.NODE_ENV !== 'production',
    database: Object.freeze(database),
  });
}
