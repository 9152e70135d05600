// The floors: what GET /me, GET /tasks and POST /tasks cost with nothing of ours around the work
// itself. Each verifies the same HS256 JWT with a KeyObject, spends four windows in an in-memory map,
// reads or writes the same rows with statements prepared once (better-sqlite3, or pg's named
// prepared statements; a create takes its place under the cap and its change number from the account
// row in one UPDATE, as src/tasks/task-quota.ts does), and writes the same JSON, the same X-RateLimit-*,
// RateLimit-Policy and RateLimit headers, and the CORS headers a call without an Origin gets from the
// API (src/http/cors.ts). One floor on bare
// node:http, one as a bare Express 5 app with one route per path (the ceiling of any Express app: its
// requests and responses built as the app's, src/http/message-classes.ts, as the API's are).
// Shared by bench/pipeline.bench.ts and bench/list-tasks.bench.ts.
import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';
import jwt, { type Algorithm } from 'jsonwebtoken';
import pg from 'pg';
import { messageClassesOf, useOwnMessageClasses } from '../src/http/message-classes.js';
import { toIso } from '../src/platform/time.js';
import { decodeCursor, encodeCursor } from '../src/platform/page-cursor.js';
import { toTask } from '../src/tasks/tasks.presenter.js';
import type { PagePosition, TaskRow } from '../src/tasks/tasks.repository.js';

export interface FloorSettings {
  /** `sqlite:<file>` or `postgres://...`, the database the rows are read from. */
  databaseUrl: string;
  jwtSecret: string;
  issuer: string;
  audience: string;
  maxTasks: number;
}

export interface Floor {
  readonly url: string;
  close: () => Promise<void>;
}

const COLUMNS = 'id, account_id, title, notes, status, priority, due_at, labels, completed_at, created_at, updated_at, connector_account_id, connector_type, external_id, external_url, version, change_seq';
const ACCOUNT = 'select id, email, name, created_at from accounts where id = ?';
const FIRST_PAGE = `select ${COLUMNS} from tasks where account_id = ? order by created_at, id limit ?`;
const NEXT_PAGE = `select ${COLUMNS} from tasks where account_id = ? and (created_at, id) > (?, ?) order by created_at, id limit ?`;
const TAKE_PLACE = 'update accounts set task_count = task_count + 1, task_change_seq = task_change_seq + 1 where id = ? and task_count < ? returning task_change_seq';
const INSERT = `insert into tasks (${COLUMNS}) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

interface AccountRow {
  id: string;
  email: string;
  name: string | null;
  created_at: number;
}

/** The rows the floors read and write, with statements prepared once. */
interface FloorRows {
  account: (id: string) => Promise<AccountRow | undefined>;
  page: (accountId: string, after: PagePosition | undefined, limit: number) => Promise<TaskRow[]>;
  /** Takes a place under the cap and inserts, in one transaction; undefined at the cap. */
  insert: (row: TaskRow, maxTasks: number) => Promise<TaskRow | undefined>;
  close: () => Promise<void>;
}

function sqliteRows(filename: string): FloorRows {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  const account = db.prepare<[string], AccountRow>(ACCOUNT);
  const firstPage = db.prepare<[string, number], TaskRow>(FIRST_PAGE);
  const nextPage = db.prepare<[string, number, string, number], TaskRow>(NEXT_PAGE);
  const takePlace = db.prepare<[string, number], { task_change_seq: number }>(TAKE_PLACE);
  const insert = db.prepare<unknown[]>(INSERT);
  const insertWithinCap = db.transaction((row: TaskRow, maxTasks: number) => {
    const taken = takePlace.get(row.account_id, maxTasks);
    if (taken === undefined) return undefined;
    const inserted = { ...row, change_seq: taken.task_change_seq };
    insert.run(...Object.values(inserted));
    return inserted;
  });
  return {
    account: async (id) => account.get(id),
    page: async (accountId, after, limit) => (after ? nextPage.all(accountId, after.createdAt, after.id, limit) : firstPage.all(accountId, limit)),
    insert: async (row, maxTasks) => insertWithinCap.immediate(row, maxTasks),
    close: async () => void db.close(),
  };
}

function postgresRows(url: string): FloorRows {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  let n = 0;
  const numbered = (sql: string) => sql.replace(/\?/g, () => `$${++n}`);
  const named = (name: string, sql: string) => {
    n = 0;
    return { name: `floor-${name}`, text: numbered(sql) };
  };
  const statements = {
    account: named('account', ACCOUNT),
    firstPage: named('first-page', FIRST_PAGE),
    nextPage: named('next-page', NEXT_PAGE),
    takePlace: named('take-place', TAKE_PLACE),
    insert: named('insert', INSERT),
  };
  return {
    account: async (id) => (await pool.query<AccountRow>({ ...statements.account, values: [id] })).rows[0],
    page: async (accountId, after, limit) =>
      (after
        ? await pool.query<TaskRow>({ ...statements.nextPage, values: [accountId, after.createdAt, after.id, limit] })
        : await pool.query<TaskRow>({ ...statements.firstPage, values: [accountId, limit] })
      ).rows,
    insert: async (row, maxTasks) => {
      const client = await pool.connect();
      try {
        await client.query('begin');
        const taken = await client.query<{ task_change_seq: number }>({ ...statements.takePlace, values: [row.account_id, maxTasks] });
        if (taken.rows[0] === undefined) {
          await client.query('rollback');
          return undefined;
        }
        const inserted = { ...row, change_seq: Number(taken.rows[0].task_change_seq) };
        await client.query({ ...statements.insert, values: Object.values(inserted) });
        await client.query('commit');
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

const rowsFor = (databaseUrl: string): FloorRows =>
  databaseUrl.startsWith('sqlite:') ? sqliteRows(databaseUrl.slice('sqlite:'.length)) : postgresRows(databaseUrl);

/** The same four windows as an authenticated request of the API: account and client, burst and sustained. */
class Windows {
  private readonly counts = new Map<string, { count: number; resetAt: number }>();
  constructor(private readonly limit: number) {}

  private spend(name: string, key: string, seconds: number, now: number) {
    let window = this.counts.get(key);
    if (!window || window.resetAt <= now) {
      window = { count: 0, resetAt: now + seconds * 1000 };
      this.counts.set(key, window);
    }
    window.count++;
    return { name, seconds, limit: this.limit, remaining: Math.max(0, this.limit - window.count), resetSeconds: Math.ceil((window.resetAt - now) / 1000) };
  }

  /** Spends the four windows and sets the eleven headers the API sets. */
  spendAll(accountId: string, clientId: string, res: ServerResponse): void {
    const now = Date.now();
    const burst = this.spend('account-burst', `a:${accountId}:m`, 60, now);
    const sustained = this.spend('account-sustained', `a:${accountId}:h`, 3600, now);
    const clientBurst = this.spend('client-burst', `c:${accountId}:${clientId}:m`, 60, now);
    const clientSustained = this.spend('client-sustained', `c:${accountId}:${clientId}:h`, 3600, now);
    res.setHeader('X-RateLimit-Limit', String(burst.limit));
    res.setHeader('X-RateLimit-Remaining', String(burst.remaining));
    res.setHeader('X-RateLimit-Reset', String(burst.resetSeconds));
    res.setHeader('X-RateLimit-Limit-sustained', String(sustained.limit));
    res.setHeader('X-RateLimit-Remaining-sustained', String(sustained.remaining));
    res.setHeader('X-RateLimit-Reset-sustained', String(sustained.resetSeconds));
    res.setHeader('X-RateLimit-Limit-client', String(clientBurst.limit));
    res.setHeader('X-RateLimit-Remaining-client', String(clientBurst.remaining));
    res.setHeader('X-RateLimit-Reset-client', String(clientBurst.resetSeconds));
    const windows = [burst, sustained, clientBurst, clientSustained];
    res.setHeader('RateLimit-Policy', windows.map((w) => `"${w.name}";q=${w.limit};w=${w.seconds}`).join(', '));
    res.setHeader('RateLimit', windows.map((w) => `"${w.name}";r=${w.remaining};t=${w.resetSeconds}`).join(', '));
  }
}

/** What the API answers a call without an Origin with (src/http/cors.ts, CORS_ALLOWED_ORIGINS=*). */
const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': [
    'Retry-After',
    'Location',
    'WWW-Authenticate',
    'X-Request-Id',
    ...['', '-sustained', '-client'].flatMap((suffix) => ['Limit', 'Remaining', 'Reset'].map((part) => `X-RateLimit-${part}${suffix}`)),
    'RateLimit-Policy',
    'RateLimit',
  ].join(','),
};
const setCorsHeaders = (res: ServerResponse) => {
  for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
};

const ALGORITHMS: Algorithm[] = ['HS256'];

/** The work every floor does per path, whatever carries the request. */
class FloorWork {
  private readonly key: KeyObject;
  private readonly windows = new Windows(1_000_000_000);
  constructor(
    private readonly settings: FloorSettings,
    readonly rows: FloorRows,
  ) {
    this.key = createSecretKey(Buffer.from(settings.jwtSecret, 'utf8'));
  }

  /** The token's subject and client, after the signature and claims check; undefined for anything else. */
  caller(authorization: string | undefined): { accountId: string; clientId: string } | undefined {
    if (!authorization?.startsWith('Bearer ')) return undefined;
    try {
      const payload = jwt.verify(authorization.slice(7), this.key, { algorithms: ALGORITHMS, issuer: this.settings.issuer, audience: this.settings.audience }) as jwt.JwtPayload;
      return typeof payload.sub === 'string' && typeof payload.cid === 'string' ? { accountId: payload.sub, clientId: payload.cid } : undefined;
    } catch {
      return undefined;
    }
  }

  async me(accountId: string): Promise<unknown> {
    const account = await this.rows.account(accountId);
    return account && { id: account.id, email: account.email, name: account.name, createdAt: toIso(account.created_at) };
  }

  async list(accountId: string, limit: number, cursor: string | undefined): Promise<unknown> {
    const rows = await this.rows.page(accountId, cursor ? decodeCursor(cursor) : undefined, limit + 1);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { items: page.map(toTask), nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: Number(last.created_at), id: last.id }) : null };
  }

  async create(accountId: string, input: { title: string; notes?: string | null; priority?: number; labels?: string[] }): Promise<unknown> {
    const now = Date.now();
    const row: TaskRow = {
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
    };
    const inserted = await this.rows.insert(row, this.settings.maxTasks);
    return inserted && toTask(inserted);
  }

  spend(caller: { accountId: string; clientId: string }, res: ServerResponse): void {
    this.windows.spendAll(caller.accountId, caller.clientId, res);
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const bytes = Buffer.from(JSON.stringify(body));
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': bytes.length });
  res.end(bytes);
}

const listen = (server: Server): Promise<string> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));

const closer = (server: Server, rows: FloorRows) => async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rows.close();
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => resolve(text));
    req.on('error', reject);
  });
}

/** The floor on bare node:http: one `if` per path, nothing else. */
export async function startNodeFloor(settings: FloorSettings): Promise<Floor> {
  const work = new FloorWork(settings, rowsFor(settings.databaseUrl));
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    setCorsHeaders(res);
    const caller = work.caller(req.headers.authorization);
    if (!caller) return send(res, 401, { code: 'UNAUTHENTICATED' });
    work.spend(caller, res);
    const url = new URL(req.url!, 'http://floor');
    if (req.method === 'GET' && url.pathname === '/me') return send(res, 200, await work.me(caller.accountId));
    if (req.method === 'GET' && url.pathname === '/tasks') {
      return send(res, 200, await work.list(caller.accountId, Number(url.searchParams.get('limit') ?? 50), url.searchParams.get('cursor') ?? undefined));
    }
    if (req.method === 'POST' && url.pathname === '/tasks') {
      const task = await work.create(caller.accountId, JSON.parse(await readBody(req)));
      return task ? send(res, 201, task) : send(res, 409, { code: 'QUOTA_EXCEEDED' });
    }
    send(res, 404, { code: 'NOT_FOUND' });
  };
  const server = createServer((req, res) => void handle(req, res).catch((error: unknown) => res.destroy(error as Error)));
  return { url: await listen(server), close: closer(server, work.rows) };
}

/** The floor as a bare Express 5 app: one route per path, express.json() on the one that has a body. */
export async function startExpressFloor(settings: FloorSettings): Promise<Floor> {
  const work = new FloorWork(settings, rowsFor(settings.databaseUrl));
  const app = express();
  useOwnMessageClasses(app);
  app.disable('x-powered-by');
  app.set('etag', false);
  const authenticated: express.RequestHandler = (req, res, next) => {
    setCorsHeaders(res);
    const caller = work.caller(req.headers.authorization);
    if (!caller) return void res.status(401).json({ code: 'UNAUTHENTICATED' });
    work.spend(caller, res);
    res.locals.caller = caller;
    next();
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
  const server = createServer(messageClassesOf(app), app);
  return { url: await listen(server), close: closer(server, work.rows) };
}
