import type { Knex } from 'knex';
import pg from 'pg';
import { databaseFailure } from './database-errors.js';

/** A row made from a result row's values, as pg hands them over with `rowMode: 'array'` (each already parsed by its type). */
export type RowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/** A named statement: prepared once per connection by pg, its rows made by a function compiled once. */
export interface NamedStatement {
  /** The statement's name on every connection. */
  name: string;
  /** Its text as knex takes it, `?` for each value; knex numbers them, the same text on every run. */
  readonly text: string;
  /** The row maker for the columns last seen, with their names joined: compiled on the first run. */
  rows?: { columns: string; make: RowMaker };
}

let renamed = 0;

/**
 * Runs a named statement on the database or a knex transaction, through knex's pool: knex's pg dialect hands
 * `name` and `rowMode` to pg's query config (prepared once per connection); rows as objects by column name.
 */
export async function runNamed(db: Knex, statement: NamedStatement, values: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number }> {
  let result: pg.QueryResult<unknown[]>;
  try {
    result = (await db.raw(statement.text, values as Knex.RawBinding[]).options({ name: statement.name, rowMode: 'array' })) as pg.QueryResult<unknown[]>;
  } catch (error) {
    // Neither the server's answer nor a lost connection: a value pg could not send. pg then closes the
    // statement yet still counts it as prepared on that connection, so it goes on under a new name
    // (src/platform/compiled-query.test.ts). After a cut, the connection is gone, and the name is kept.
    if (!(error instanceof pg.DatabaseError) && databaseFailure(error) === undefined) statement.name = `${statement.name.split('.')[0]!}.${++renamed}`;
    throw error;
  }
  const rowCount = result.rowCount ?? 0;
  if (result.rows.length === 0) return { rows: [], rowCount };
  const names = result.fields.map((field) => field.name);
  const columns = names.join('\n');
  if (statement.rows?.columns !== columns) statement.rows = { columns, make: rowMaker(names) };
  const { make } = statement.rows;
  return { rows: result.rows.map((row) => make(row)), rowCount };
}

/**
 * A row of these columns as one object literal, compiled once per statement (a loop assigning column by
 * column showed in the profile of a page of 100 tasks). Names are JSON literals; `__proto__` a computed
 * key, so it is a column and not the row's prototype; a column named twice keeps its last value, as in pg.
 */
export function rowMaker(names: readonly string[]): RowMaker {
  const key = (name: string) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name));
  const properties = names.map((name, i) => `${key(name)}: values[${i}]`);
  return new Function('values', `return { ${properties.join(', ')} };`) as RowMaker;
}
