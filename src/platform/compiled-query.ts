import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import { runNamed, type NamedStatement } from './pg-run.js';
import { onSqliteConnection } from './sqlite-connection.js';
import { refuseInsideTransaction } from './transaction-scope.js';
import { databaseOf, Transaction } from './transaction.js';

/**
 * A query shape for the hot paths, written once with knex, compiled once per engine and prepared once per connection
 * (a better-sqlite3 statement, or a pg named statement): knex compiling and preparing it again on every query was most
 * of a primary-key read's time.
 *
 * `build` names the values with placeholders, `$(0)`, `$(1)`, ..., given at each run. A placeholder compiles to `= ?`
 * whatever is given later, so a value that may be null needs the shape written for it (`whereNull`).
 * The statement runs in the transaction it is given (ours, src/platform/transaction.ts, or knex's); given the database,
 * on PostgreSQL through knex's pool, on SQLite on the one connection in its turn (src/platform/sqlite-connection.ts).
 * Given the database inside one of its transactions, it throws (src/platform/transaction-scope.ts).
 */
export interface CompiledQuery<Params extends readonly unknown[], Row> {
  all: (db: Queryable, params: Params) => Promise<Row[]>;
  first: (db: Queryable, params: Params) => Promise<Row | undefined>;
  /** Runs a statement for its effect: the number of rows it changed (or returned, with RETURNING). */
  run: (db: Queryable, params: Params) => Promise<number>;
  /** SQLite only: the same, synchronously, in a transaction `transactionNow` or `readNow` runs (src/platform/transaction.ts). */
  now: {
    all: (trx: Transaction, params: Params) => Row[];
    first: (trx: Transaction, params: Params) => Row | undefined;
    run: (trx: Transaction, params: Params) => number;
  };
}

/** What a compiled query runs on: the database, a knex transaction, or a transaction of ours. */
export type Queryable = Knex | Transaction;

/** A placeholder: typed `never` so that knex's builder takes it wherever it takes a value. */
export type Placeholder = (index: number) => never;

/**
 * A write one component adds to another's statement (src/tasks/task-changes.ts, TaskChangeStep): an
 * INSERT ... SELECT that, given `onlyIf`, writes only when the WITH of that name has a row and returns
 * what it wrote (PostgreSQL's data-modifying WITH); without it, the same insert as a statement of its own.
 */
export type StepBuilder = (db: Knex, $: Placeholder, onlyIf?: string) => Knex.Raw;

export function compiledQuery<Params extends readonly unknown[], Row = Record<string, unknown>>(
  build: (db: Knex, $: Placeholder) => Knex.QueryBuilder | Knex.Raw,
): CompiledQuery<Params, Row> {
  const compiled = new Map<string, Compiled>();
  const compiledFor = (db: Knex): Compiled => {
    const dialect = dialectOf(db);
    let query = compiled.get(dialect);
    if (!query) {
      const built = build(db, placeholder).toSQL();
      query = compile(built.toNative(), built.sql, dialect);
      compiled.set(dialect, query);
    }
    return query;
  };
  // A refusal (the guard, an ended transaction) rejects, as a failed statement does.
  const execute = (db: Queryable, params: readonly unknown[], mode: Mode): Promise<unknown> => {
    try {
      return send(db, params, mode);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  const send = (db: Queryable, params: readonly unknown[], mode: Mode): Promise<unknown> => {
    const query = compiledFor(databaseOf(db));
    const values = query.values(params);
    if (db instanceof Transaction) {
      const on = db.connection;
      if (query.dialect === 'better-sqlite3') return settled(() => runOnSqlite(on as SqliteConnection, query, values, mode));
      return db.sending(runOnPostgres(on as Knex, query, values, mode));
    }
    if (db.isTransaction) return query.dialect === 'pg' ? runOnPostgres(db, query, values, mode) : runThroughKnex(db, query, values, mode);
    refuseInsideTransaction(db);
    if (query.dialect === 'better-sqlite3') return onSqliteConnection(db, (connection: SqliteConnection) => runOnSqlite(connection, query, values, mode));
    return runOnPostgres(db, query, values, mode);
  };
  const executeNow = (trx: Transaction, params: readonly unknown[], mode: Mode): unknown => {
    const query = compiledFor(trx.db);
    if (query.dialect !== 'better-sqlite3') throw new Error('compiledQuery: only SQLite runs a statement synchronously');
    if (mode === 'run') trx.refuseInRead('A write');
    return runOnSqlite(trx.connection as SqliteConnection, query, query.values(params), mode);
  };
  return {
    now: {
      all: (trx, params) => executeNow(trx, params, 'all') as Row[],
      first: (trx, params) => executeNow(trx, params, 'first') as Row | undefined,
      run: (trx, params) => executeNow(trx, params, 'run') as number,
    },
    all: (db, params) => execute(db, params, 'all') as Promise<Row[]>,
    first: (db, params) => execute(db, params, 'first') as Promise<Row | undefined>,
    run: (db, params) => execute(db, params, 'run') as Promise<number>,
  };
}

type Mode = 'all' | 'first' | 'run';

type Dialect = 'pg' | 'better-sqlite3';

interface Compiled {
  dialect: Dialect;
  sql: string;
  /** The SQL as knex writes it, with `?` for the values: for knex's `raw`. */
  knexSql: string;
  /** pg's named statement: the same text, the same name, on every connection. */
  named: NamedStatement;
  values: (params: readonly unknown[]) => unknown[];
}

// Placeholders are numbers just under 2^53, so that every builder method takes them (limit() wants
// an integer), and far from any constant a query would hold.
const PLACEHOLDER_BASE = Number.MAX_SAFE_INTEGER - 1000;
const placeholder: Placeholder = (index) => (PLACEHOLDER_BASE + index) as never;
const placeholderIndex = (value: unknown) =>
  typeof value === 'number' && value >= PLACEHOLDER_BASE && value <= Number.MAX_SAFE_INTEGER ? value - PLACEHOLDER_BASE : undefined;

function dialectOf(db: Knex): Dialect {
  const client = db.client.config.client;
  if (client === 'pg' || client === 'better-sqlite3') return client;
  throw new Error(`compiledQuery: no support for the ${String(client)} client`);
}

function compile(native: { sql: string; bindings: readonly unknown[] }, knexSql: string, dialect: Dialect): Compiled {
  const slots = native.bindings.map((binding) => ({ index: placeholderIndex(binding), constant: binding }));
  const toDriver = dialect === 'better-sqlite3' ? toSqliteValue : (value: unknown) => value;
  const sql = dialect === 'better-sqlite3' ? limitNotPlanned(native.sql) : native.sql;
  return {
    dialect,
    sql,
    knexSql,
    named: { name: `cq_${createHash('sha256').update(sql).digest('hex').slice(0, 24)}`, text: knexSql },
    values: (params) => slots.map((slot) => toDriver(slot.index === undefined ? slot.constant : params[slot.index])),
  };
}

/**
 * SQLite prepares a statement again on every run whose bare `LIMIT ?` or `OFFSET ?` is bound (a primary-key read:
 * 3.1 → 6.5 µs); as an expression, `(? + 0)`, the value is not read by the planner and the statement stays prepared.
 */
const limitNotPlanned = (sql: string) => sql.replace(/ (limit|offset) \?/g, ' $1 (? + 0)');

/** What knex's better-sqlite3 dialect does to a binding: the driver takes neither booleans nor dates. */
function toSqliteValue(value: unknown): unknown {
  if (typeof value === 'boolean') return Number(value);
  if (value instanceof Date) return value.valueOf();
  return value;
}

function settled<T>(run: () => T): Promise<T> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** SQLite, in a knex transaction: knex's `raw` answers with better-sqlite3's rows, or `{ changes }` for a write. */
async function runThroughKnex(db: Knex, query: Compiled, values: unknown[], mode: Mode): Promise<unknown> {
  const result: unknown = await db.raw(query.knexSql, values as Knex.RawBinding[]);
  if (!Array.isArray(result)) return mode === 'run' ? (result as { changes: number }).changes : undefined;
  if (mode === 'run') return result.length;
  return mode === 'first' ? (result as unknown[])[0] : result;
}

interface SqliteStatement {
  readonly reader: boolean;
  all: (...values: unknown[]) => unknown[][];
  get: (...values: unknown[]) => unknown[] | undefined;
  run: (...values: unknown[]) => { changes: number };
  raw: (raw: boolean) => SqliteStatement;
  columns: () => { name: string }[];
}
interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare: (sql: string) => SqliteStatement;
}

/**
 * A statement's rows come as arrays, made into objects here: better-sqlite3's own row objects, each column's name looked
 * up again for every row, cost more than the read itself on a page of tasks.
 */
class PreparedStatement {
  private readonly columns: readonly string[];
  constructor(private readonly statement: SqliteStatement) {
    this.columns = statement.reader ? statement.raw(true).columns().map((column) => column.name) : [];
  }

  run(values: unknown[], mode: Mode): unknown {
    const { statement } = this;
    if (mode === 'run') return statement.reader ? statement.all(...values).length : statement.run(...values).changes;
    if (mode === 'first') {
      const row = statement.get(...values);
      return row && this.rowOf(row);
    }
    return statement.all(...values).map((row) => this.rowOf(row));
  }

  private rowOf(values: unknown[]): Record<string, unknown> {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < this.columns.length; i++) row[this.columns[i]!] = values[i];
    return row;
  }
}

/** Each SQLite connection's statements, by SQL text; they go with the connection. */
const sqliteStatements = new WeakMap<SqliteConnection, Map<string, PreparedStatement>>();

function runOnSqlite(connection: SqliteConnection, query: Compiled, values: unknown[], mode: Mode): unknown {
  let statements = sqliteStatements.get(connection);
  if (!statements) {
    statements = new Map();
    sqliteStatements.set(connection, statements);
  }
  let statement = statements.get(query.sql);
  if (!statement) {
    statement = new PreparedStatement(connection.prepare(query.sql));
    statements.set(query.sql, statement);
  }
  return statement.run(values, mode);
}

async function runOnPostgres(db: Knex, query: Compiled, values: unknown[], mode: Mode): Promise<unknown> {
  const { rows, rowCount } = await runNamed(db, query.named, values);
  if (mode === 'run') return rowCount;
  return mode === 'first' ? rows[0] : rows;
}
