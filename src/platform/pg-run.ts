import pg from 'pg';

/** A row made from a result row's values, as pg hands them over with `rowMode: 'array'` (each already parsed by its type). */
export type RowMaker = (values: readonly unknown[]) => Record<string, unknown>;

/** A named statement: prepared once per connection by pg, its rows made by a function compiled once. */
export interface NamedStatement {
  /** The statement's name on every connection, and its text. */
  name: string;
  readonly text: string;
  /** The row maker for the columns last seen, with their names joined: compiled on the first run. */
  rows?: { columns: string; make: RowMaker };
}

let renamed = 0;

/** Runs a named statement through pg's query config (`name` prepares it once per connection); rows as objects by column name. */
export async function runNamed(client: pg.ClientBase, statement: NamedStatement, values: unknown[]): Promise<{ rows: Record<string, unknown>[]; rowCount: number }> {
  let result: pg.QueryResult<unknown[]>;
  try {
    result = await client.query<unknown[]>({ name: statement.name, text: statement.text, values, rowMode: 'array' });
  } catch (error) {
    // A value pg could not send: pg closes the statement yet still counts it as prepared on that
    // connection, so the statement goes on under a new name (src/platform/compiled-query.test.ts).
    if (!(error instanceof pg.DatabaseError)) statement.name = `${statement.name.split('.')[0]!}.${++renamed}`;
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
