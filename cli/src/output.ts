/** Printing: the API's JSON with --json, tables and lines for people otherwise. */
export class Output {
  constructor(readonly json: boolean) {}

  get isTerminal(): boolean {
    return process.stdout.isTTY === true;
  }

  /** With --json, the value as JSON; otherwise `human()` decides what to print. */
  result(value: unknown, human: () => void): void {
    if (this.json) this.write(`${JSON.stringify(value, null, 2)}\n`);
    else human();
  }

  line(text = ''): void {
    this.write(`${text}\n`);
  }

  /** Progress and notes go to stderr, so stdout stays the result. */
  note(text: string): void {
    process.stderr.write(`${text}\n`);
  }

  table<T>(rows: readonly T[], columns: readonly Column<T>[], empty = 'Nothing to show.'): void {
    if (rows.length === 0) return this.line(empty);
    const cells = rows.map((row) => columns.map((column) => clean(column.value(row))));
    const widths = columns.map((column, i) => Math.min(column.max ?? 60, Math.max(column.title.length, ...cells.map((row) => row[i]!.length))));
    const render = (values: string[]) =>
      values
        .map((value, i) => fit(value, widths[i]!))
        .join('  ')
        .trimEnd();
    this.line(render(columns.map((column) => column.title)));
    for (const row of cells) this.line(render(row));
  }

  write(text: string): void {
    process.stdout.write(text);
  }
}

export interface Column<T> {
  title: string;
  value: (row: T) => string | number | null | undefined;
  /** Longer values are cut with an ellipsis. */
  max?: number;
}

/** A bar of `width` cells, filled in proportion to used / limit. */
export function bar(used: number, limit: number, width = 24): string {
  const ratio = limit > 0 ? Math.min(1, Math.max(0, used / limit)) : 0;
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** A time as people read it, in UTC: 2025-01-31 14:05. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '';
  return iso.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, 'Z').replace('Z', '');
}

function clean(value: string | number | null | undefined): string {
  // eslint-disable-next-line no-control-regex
  return value === null || value === undefined ? '' : String(value).replace(/[\u0000-\u001f\u007f]/g, ' ');
}

function fit(value: string, width: number): string {
  if (value.length > width) return `${value.slice(0, width - 1)}…`;
  return value.padEnd(width);
}
