// The floors: GET /me, GET /tasks and POST /tasks with nothing of ours around the work the app does
// for them: the same HS256 JWT check, four rate-limit windows and their headers, the CORS headers of a
// call without an Origin (src/http/cors.ts), the same rows by statements prepared once (a create takes
// its place under the cap and its change number in one UPDATE, as src/tasks/task-quota.ts does), the
// same JSON. One floor on bare node:http, one as a bare Express 5 app with the app's message classes
// (src/http/message-classes.ts). On PostgreSQL + Redis, as the API there: the token's account read on
// every request (the identify step) and the four windows spent by one EVALSHA through node-redis.
// Used by bench/pipeline-targets.ts and bench/list-tasks.bench.ts.
import { createSecretKey, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';
import jwt from 'jsonwebtoken';
import pg from 'pg';
import { createClient } from 'redis';
import { messageClassesOf, useOwnMessageClasses } from '../src/http/message-classes.js';
import { toIso } from '../src/platform/time.js';

import { toTask } from '../src/tasks/tasks.presenter.js';
import type { PagePosition, TaskRow } from '../src/tasks/tasks.repository.js';
import { HIGH_LIMIT, urlOf } from './harness.js';

interface FloorSettings {
  /** `sqlite:<file>` or `postgres://...`. */
  databaseUrl: string;
  jwtSecret: string;
  issuer: string;
  audience: string;
  maxTasks: number;
  /** With Redis (`redis://...`, keys under `redisPrefix`), the windows are spent there, one script call per request. */
  redisUrl?: string;
  redisPrefix?: string;
}

export interface Floor {
  readonly url: string;
  close: () => Promise<void>;
}

const COLUMNS = 'id, account_id, title, notes, status, priority, due_at, labels, completed_at, created_at, updated_at, connector_account_id, connector_type, external_id, external_url, version, change_seq';
const SQL = {
  account: 'select id, email, name, created_at from accounts where id = ?',
  firstPage: `select ${COLUMNS} from tasks where account_id = ? order by created_at, id limit ?`,
  nextPage: `select ${COLUMNS} from tasks where account_id = ? and (created_at, id) > (?, ?) order by created_at, id limit ?`,
  takePlace: 'update accounts set task_count = task_count + 1, task_change_seq = task_change_seq + 1 where id = ? and task_count < ? returning task_change_seq',
  insert: `insert into tasks (${COLUMNS}) values (${COLUMNS.split(',').map(() => '?').join(', ')})`,
};

interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  created_at: number;
}

/** The rows the floors read and write; `insert` takes a place under the cap and inserts in one transaction, undefined at the cap. */
interface FloorRows {
  account: (id: string) => Promise<AccountRow | undefined>;
  page: (accountId: string, after: PagePosition | undefined, limit: number) => Promise<TaskRow[]>;
  insert: (row: TaskRow, maxTasks: number) => Promise<TaskRow | undefined>;
  close: () => Promise<void>;
}

function sqliteRows(filename: string): FloorRows {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const [account, firstPage, nextPage, takePlace, insert] = [SQL.account, SQL.firstPage, SQL.nextPage, SQL.takePlace, SQL.insert].map((sql) => db.prepare<unknown[]>(sql));
  const insertWithinCap = db.transaction((row: TaskRow, maxTasks: number) => {
    const taken = takePlace!.get(row.account_id, maxTasks) as { task_change_seq: number } | undefined;
    if (taken === undefined) return undefined;
    const inserted = { ...row, change_seq: taken.task_change_seq };
    insert!.run(...Object.values(inserted));
    return inserted;
  });
  return {
    account: async (id) => account!.get(id) as AccountRow | undefined,
    page: async (accountId, after, limit) => (after ? nextPage!.all(accountId, after.createdAt, after.id, limit) : firstPage!.all(accountId, limit)) as TaskRow[],
    insert: async (row, maxTasks) => insertWithinCap.immediate(row, maxTasks),
    close: async () => void db.close(),
  };
}

function postgresRows(url: string): FloorRows {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // pg's named prepared statements, `?` numbered `$1`, `$2`, ...
  const named = Object.fromEntries(
    Object.entries(SQL).map(([name, sql]) => {
      let n = 0;
      return [name, { name: `floor-${name}`, text: sql.replace(/\?/g, () => `$${++n}`) }];
    }),
  ) as Record<keyof typeof SQL, { name: string; text: string }>;
  const query = async <T extends pg.QueryResultRow>(name: keyof typeof SQL, values: unknown[], on: pg.Pool | pg.PoolClient = pool) => (await on.query<T>({ ...named[name], values })).rows;
  return {
    account: async (id) => (await query<AccountRow>('account', [id]))[0],
    page: (accountId, after, limit) => (after ? query<TaskRow>('nextPage', [accountId, after.createdAt, after.id, limit]) : query<TaskRow>('firstPage', [accountId, limit])),
    insert: async (row, maxTasks) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const [taken] = await query<{ task_change_seq: number }>('takePlace', [row.account_id, maxTasks], client);
        const inserted = taken && { ...row, change_seq: Number(taken.task_change_seq) };
        if (inserted) await query('insert', Object.values(inserted), client);
        await client.query(inserted ? 'commit' : 'rollback');
        return inserted;
      } catch (error) {
        await client.query('rollback');
        throw error;
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The X-RateLimit-* names of the account-burst, account-sustained and client-burst windows. */
const RATE_HEADERS = ['', '-sustained', '-client'].map((suffix) => ['Limit', 'Remaining', 'Reset'].map((part) => `X-RateLimit-${part}${suffix}`) as [string, string, string]);

/** What the API answers a call without an Origin with (src/http/cors.ts, CORS_ALLOWED_ORIGINS=*). */
const CORS_HEADERS = Object.entries({
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': ['Retry-After', 'Location', 'WWW-Authenticate', 'X-Request-Id', ...RATE_HEADERS.flat(), 'RateLimit-Policy', 'RateLimit'].join(','),
});

type Found = { accountId: string; clientId: string } | undefined;

interface Spent {
  name: string;
  seconds: number;
  remaining: number;
  reset: number;
}

/** The four windows of an authenticated request: account and client, burst and sustained. */
const WINDOWS = [
  { name: 'account-burst', seconds: 60, key: (a: string) => `a:${a}:m` },
  { name: 'account-sustained', seconds: 3600, key: (a: string) => `a:${a}:h` },
  { name: 'client-burst', seconds: 60, key: (a: string, c: string) => `c:${a}:${c}:m` },
  { name: 'client-sustained', seconds: 3600, key: (a: string, c: string) => `c:${a}:${c}:h` },
];

/** Spends the four windows in process memory. */
function memoryWindows() {
  const windows = new Map<string, { count: number; resetAt: number }>();
  return {
    spend: (accountId: string, clientId: string, now: number): Spent[] =>
      WINDOWS.map(({ name, seconds, key }) => {
        let window = windows.get(key(accountId, clientId));
        if (!window || window.resetAt <= now) windows.set(key(accountId, clientId), (window = { count: 0, resetAt: now + seconds * 1000 }));
        window.count++;
        return { name, seconds, remaining: Math.max(0, HIGH_LIMIT - window.count), reset: Math.ceil((window.resetAt - now) / 1000) };
      }),
    close: async () => undefined,
  };
}

/** The eleven rate-limit headers of the spent windows. */
function setRateHeaders(res: ServerResponse, spent: Spent[]): void {
  for (let i = 0; i < RATE_HEADERS.length; i++) {
    const [limit, remaining, reset] = RATE_HEADERS[i]!;
    res.setHeader(limit, String(HIGH_LIMIT));
    res.setHeader(remaining, String(spent[i]!.remaining));
    res.setHeader(reset, String(spent[i]!.reset));
  }
  res.setHeader('RateLimit-Policy', spent.map((w) => `"${w.name}";q=${HIGH_LIMIT};w=${w.seconds}`).join(', '));
  res.setHeader('RateLimit', spent.map((w) => `"${w.name}";r=${w.remaining};t=${w.reset}`).join(', '));
}

// Each key counted, its expiry set when new; answers count and milliseconds left of each.
const SPEND_SCRIPT = `local out = {}
for i, key in ipairs(KEYS) do
  local count = redis.call('INCR', key)
  if count == 1 then redis.call('PEXPIRE', key, ARGV[i]) end
  out[#out + 1] = count
  out[#out + 1] = redis.call('PTTL', key)
end
return out`;

/** Spends the four windows in Redis: one EVALSHA per request. */
function redisWindows(url: string, prefix: string) {
  const client = createClient({ url });
  const ready = client.connect().then(() => client.scriptLoad(SPEND_SCRIPT));
  return {
    spend: async (accountId: string, clientId: string): Promise<Spent[]> => {
      const sha = await ready;
      const reply = (await client.evalSha(sha, { keys: WINDOWS.map(({ key }) => prefix + key(accountId, clientId)), arguments: WINDOWS.map(({ seconds }) => String(seconds * 1000)) })) as number[];
      return WINDOWS.map(({ name, seconds }, i) => ({ name, seconds, remaining: Math.max(0, HIGH_LIMIT - reply[2 * i]!), reset: Math.ceil(reply[2 * i + 1]! / 1000) }));
    },
    close: async () => {
      await ready;
      await client.quit();
    },
  };
}

/** The work every floor does per path, whatever carries the request. */
function floorWork(settings: FloorSettings) {
  const rows = settings.databaseUrl.startsWith('sqlite:') ? sqliteRows(settings.databaseUrl.slice('sqlite:'.length)) : postgresRows(settings.databaseUrl);
  const key = createSecretKey(Buffer.from(settings.jwtSecret, 'utf8'));
  const windows = settings.redisUrl ? redisWindows(settings.redisUrl, settings.redisPrefix ?? '') : memoryWindows();
  // On PostgreSQL the API reads the token's account on every request (the identify step); on SQLite it does not.
  const readsAccount = !settings.databaseUrl.startsWith('sqlite:');
  return {
    rows: { ...rows, close: async () => (await windows.close(), await rows.close()) },
    /** Sets the CORS headers; then, for a token that passes the signature and claims check (and, on PostgreSQL, whose account is there), spends the four windows, sets the eleven rate-limit headers and answers the caller. */
    caller(authorization: string | undefined, res: ServerResponse): Found | Promise<Found> {
      for (const [name, value] of CORS_HEADERS) res.setHeader(name, value);
      if (!authorization?.startsWith('Bearer ')) return undefined;
      let payload: jwt.JwtPayload;
      try {
        payload = jwt.verify(authorization.slice(7), key, { algorithms: ['HS256'], issuer: settings.issuer, audience: settings.audience }) as jwt.JwtPayload;
      } catch {
        return undefined;
      }
      if (typeof payload.sub !== 'string' || typeof payload.cid !== 'string') return undefined;
      const accountId = payload.sub;
      const clientId: string = payload.cid;
      const spending = windows.spend(accountId, clientId, Date.now());
      const found = { accountId, clientId };
      if (!readsAccount && !(spending instanceof Promise)) return (setRateHeaders(res, spending), found);
      return (async () => ((await rows.account(accountId)) ? (setRateHeaders(res, await spending), found) : undefined))();
    },
    async me(accountId: string): Promise<unknown> {
      const account = await rows.account(accountId);
      return account && { id: account.id, email: account.email, name: account.name, createdAt: toIso(account.created_at) };
    },
    async list(accountId: string, limit: number, cursor: string | undefined): Promise<unknown> {
      const found = await rows.page(accountId, cursor ? positionOf(cursor) : undefined, limit + 1);
      const page = found.slice(0, limit);
      const last = page.at(-1);
      return { items: page.map(toTask), nextCursor: found.length > limit && last ? Buffer.from(JSON.stringify(['plain', Number(last.created_at), last.id])).toString('base64url') : null };
    },
    async create(accountId: string, input: { title: string; notes?: string | null; priority?: number; labels?: string[] }): Promise<unknown> {
      const now = Date.now();
      const inserted = await rows.insert(
        {
          id: randomUUID(),
          account_id: accountId,
          title: input.title,
          notes: input.notes ?? null,
          status: 'open',
          priority: input.priority ?? 3,
          due_at: null,
          labels: JSON.stringify(input.labels ?? []),
          completed_at: null,
          created_at: now,
          updated_at: now,
          connector_account_id: null,
          connector_type: null,
          external_id: null,
          external_url: null,
          version: 1,
          change_seq: 0, // the number the cap's UPDATE takes
        },
        settings.maxTasks,
      );
      return inserted && toTask(inserted);
    },
  };
}

/** Serves `handler` on 127.0.0.1 (with `options`' message classes); closing it closes the floor's rows too. */
async function listen(options: object, handler: RequestListener, rows: FloorRows): Promise<Floor> {
  const server = createServer(options, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: urlOf(server),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await rows.close();
    },
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

function readJson(req: IncomingMessage): Promise<{ title: string }> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(JSON.parse(text)));
    req.on('error', reject);
  });
}

/** The floor on bare node:http: one `if` per path, nothing else. */
export function startNodeFloor(settings: FloorSettings): Promise<Floor> {
  const work = floorWork(settings);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const found = work.caller(req.headers.authorization, res);
    const caller = found instanceof Promise ? await found : found;
    if (!caller) return send(res, 401, { code: 'UNAUTHENTICATED' });
    const url = new URL(req.url!, 'http://floor');
    if (req.method === 'GET' && url.pathname === '/me') return send(res, 200, await work.me(caller.accountId));
    if (req.method === 'GET' && url.pathname === '/tasks') {
      return send(res, 200, await work.list(caller.accountId, Number(url.searchParams.get('limit') ?? 50), url.searchParams.get('cursor') ?? undefined));
    }
    if (req.method === 'POST' && url.pathname === '/tasks') {
      const task = await work.create(caller.accountId, await readJson(req));
      return task ? send(res, 201, task) : send(res, 409, { code: 'QUOTA_EXCEEDED' });
    }
    send(res, 404, { code: 'NOT_FOUND' });
  };
  return listen({}, (req, res) => void handle(req, res).catch((error: unknown) => res.destroy(error as Error)), work.rows);
}

/** The floor as a bare Express 5 app: one route per path, express.json() on the one that has a body. */
export function startExpressFloor(settings: FloorSettings): Promise<Floor> {
  const work = floorWork(settings);
  const app = express();
  useOwnMessageClasses(app);
  app.disable('x-powered-by');
  app.set('etag', false);
  const authenticated: express.RequestHandler = (req, res, next) => {
    const proceed = (caller: Found) => {
      if (!caller) return void res.status(401).json({ code: 'UNAUTHENTICATED' });
      res.locals.caller = caller;
      next();
    };
    const found = work.caller(req.headers.authorization, res);
    if (found instanceof Promise) found.then(proceed, next);
    else proceed(found);
  };
  app.get('/me', authenticated, async (_req, res) => {
    res.json(await work.me(res.locals.caller.accountId));
  });
  app.get('/tasks', authenticated, async (req, res) => {
    const { limit, cursor } = req.query as { limit?: string; cursor?: string };
    res.json(await work.list(res.locals.caller.accountId, Number(limit ?? 50), cursor));
  });
  app.post('/tasks', authenticated, express.json(), async (req, res) => {
    const task = await work.create(res.locals.caller.accountId, req.body);
    if (task) res.status(201).json(task);
    else res.status(409).json({ code: 'QUOTA_EXCEEDED' });
  });
  return listen(messageClassesOf(app), app, work.rows);
}

/** A plain list's cursor as the API writes it (src/tasks/task-list-cursor.ts): its last two values are the row's createdAt and id. */
function positionOf(cursor: string): { createdAt: number; id: string } {
  const [createdAt, id] = (JSON.parse(Buffer.from(cursor, 'base64url').toString()) as [number, string][]).slice(-2) as unknown as [number, string];
  return { createdAt, id };
}
