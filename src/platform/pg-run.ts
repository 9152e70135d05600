import { createRequire } from 'node:module';
import pg from 'pg';

// A compiled query's run on PostgreSQL (src/platform/compiled-query.ts). It relies on pg's connection
// as pg-cursor does (parsedStatements, submittedNamedStatements, the message writers): pg is pinned to
// its minor version in package.json, and pg's pipeline mode, which refuses submittables, stays off
// (src/platform/db.ts).

/** What a submittable is given by `pg`: its connection, whose messages pg-cursor writes the same way. */
interface PgWire {
  stream: { cork?: () => void; uncork?: () => void };
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  parse: (message: { text: string; name: string; types: unknown[] }) => void;
  bind: (message: { portal: string; statement: string; values: unknown[]; binary: boolean; valueMapper: (value: unknown) => unknown }) => void;
  describe: (message: { type: 'P' | 'S'; name: string }) => void;
  execute: (message: { portal: string; rows: undefined }) => void;
  sync: () => void;
  sendCopyFail: (message: string) => void;
}

/** The rows of a statement as the server described them once on a connection: a row made from a DataRow's fields. */
type RowShape = (fields: readonly (string | null)[]) => Record<string, unknown>;
const NO_ROWS: RowShape = () => ({});

/** Each connection's row shapes, by statement name; they go with the connection, as its statements do. */
const pgRowShapes = new WeakMap<PgWire, Map<string, RowShape>>();

// pg's own conversion of a bound value (dates, buffers, arrays, objects as JSON), as its Query applies it.
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/**
 * One run of a named statement, handed to `pg` as a submittable (the interface pg-cursor and
 * pg-query-stream use): a Query asks the server to describe the result on every run and makes a
 * Result, a field table, a row template and a parser list for it each time; a statement's result
 * has the same columns on every run, so here it is described once per connection (the first run),
 * and its rows are made in one order, so that they share one shape, as on SQLite.
 */
export class PostgresRun {
  readonly rows: Record<string, unknown>[] = [];
  rowCount = 0;
  private shape: RowShape | undefined;
  private shapes: Map<string, RowShape> | undefined;
  private settled = false;

  constructor(
    /** The statement's name on every connection, and its text. */
    readonly name: string,
    readonly text: string,
    private readonly values: unknown[],
    /** Named `callback` for pg: its read timeout wraps it. */
    public callback: (err: Error | undefined, run: PostgresRun) => void,
  ) {}

  submit(wire: PgWire): null {
    let shapes = pgRowShapes.get(wire);
    if (!shapes) {
      shapes = new Map();
      pgRowShapes.set(wire, shapes);
    }
    this.shapes = shapes;
    this.shape = shapes.get(this.name);
    const { name, text } = this;
    // One write for the messages of the run, as pg's Query does.
    wire.stream.cork?.();
    try {
      if (wire.parsedStatements[name] === undefined && wire.submittedNamedStatements[name] === undefined) {
        wire.parse({ text, name, types: [] });
        wire.submittedNamedStatements[name] = text;
      }
      try {
        wire.bind({ portal: '', statement: name, values: this.values, binary: false, valueMapper: prepareValue });
      } catch (err) {
        // A value that cannot be sent: nothing runs. Sync still answers, so that pg hands the connection
        // on; a Parse sent above stays, where pg's Query would close it and then believe it parsed.
        wire.sync();
        this.handleError(err as Error);
        return null;
      }
      if (!this.shape) wire.describe({ type: 'P', name: '' });
      wire.execute({ portal: '', rows: undefined });
      wire.sync();
    } finally {
      wire.stream.uncork?.();
    }
    return null;
  }

  handleRowDescription(message: { fields: { name: string; dataTypeID: number }[] }): void {
    this.shape = rowMaker(message.fields.map((field) => ({ name: field.name, parser: pg.types.getTypeParser(field.dataTypeID, 'text') as Parser })));
  }

  handleDataRow(message: { fields: (string | null)[] }): void {
    this.rows.push(this.shape!(message.fields));
  }

  handleCommandComplete(message: { text: string }): void {
    // "SELECT 3", "UPDATE 1", "INSERT 0 1": the rows the statement changed or returned come last.
    const count = Number(message.text.slice(message.text.lastIndexOf(' ') + 1));
    this.rowCount = Number.isInteger(count) ? count : 0;
  }

  handleReadyForQuery(): void {
    if (this.settled) return;
    this.settled = true;
    // Described on this run: a statement without rows answers NoData, which pg does not pass on.
    if (!this.shapes!.has(this.name)) this.shapes!.set(this.name, this.shape ?? NO_ROWS);
    this.callback(undefined, this);
  }

  handleError(err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.callback(err, this);
  }

  handleEmptyQuery(): void {}

  handlePortalSuspended(): void {}

  handleCopyInResponse(wire: PgWire): void {
    wire.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}
}

type Parser = (text: string) => unknown;

/**
 * The function that makes a row of these columns from its fields, compiled once per statement and
 * connection (as ajv compiles the validator's schemas): one object literal with every column, each
 * parsed by its own parser. Rows added column by column, as pg's Result and a loop make them, cost
 * 5-8 times as much (a keyed store per column that V8 cannot tell in advance, and a row object grown
 * past its first slots): on PostgreSQL a page of 100 tasks spent a twentieth of its CPU there
 * (bench/pipeline.bench.ts --profile). The names are written as JSON string literals, so any name is
 * only a name; `__proto__` as a computed key, which defines a column of that name where the plain
 * key would set the row's prototype. A column named twice keeps its last value, as the loop did.
 */
export function rowMaker(columns: readonly { name: string; parser: Parser }[]): RowShape {
  const key = (name: string) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name));
  const properties = columns.map(({ name }, i) => `${key(name)}: fields[${i}] == null ? null : parsers[${i}](fields[${i}])`);
  const make = new Function('parsers', `return function row(fields) { return { ${properties.join(', ')} }; };`) as (parsers: readonly Parser[]) => RowShape;
  return make(columns.map(({ parser }) => parser));
}
