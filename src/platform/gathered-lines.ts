import { pino } from 'pino';

/**
 * Room for one line's bytes among the lines gathered for a write: `reserve`, write the line's bytes
 * from `at`, then `commit` where they end. A writer that knows its line's pieces as bytes
 * (src/http/access-line.ts) puts them there with no string made, joined, flattened or encoded.
 */
export interface LineBytes {
  /** The buffer the next line goes into, with room for `maxBytes` from `at` (what was gathered may be written out first). */
  reserve(maxBytes: number): Buffer;
  /** Where the next line starts in the buffer `reserve` returned. */
  readonly at: number;
  /** The line is in that buffer up to `end`. */
  commit(end: number): void;
}

/** How long a line may wait for others to share its write(2). */
const GATHER_MS = 10;
/** What is gathered at most before it is written. */
const GATHER_BYTES = 64 * 1024;
/** UTF-8 takes at most three bytes for each UTF-16 unit (a pair of surrogates: four for two). */
const UTF8_BYTES_PER_UNIT = 3;

/**
 * Lines gathered as bytes for up to 10 ms or 64 KiB, then written to `out` in one piece, in order.
 * A string line (pino's own) is encoded as it comes; `LineBytes` takes a line as bytes. Lines were
 * gathered as one string before: joining, flattening and encoding it to UTF-8 for the write was about
 * a quarter of what observability cost a `GET /me` (docs/benchmarks.md#pipeline), and the gathered
 * string lived through young-generation collections.
 */
export class GatheredLines implements LineBytes {
  private buffer = Buffer.allocUnsafeSlow(GATHER_BYTES);
  at = 0;

  constructor(
    private readonly out: { write(bytes: Buffer): unknown },
    /** How long a line may wait for others: 10 ms; a bench counting a process slowed down 40 times waits 40 times longer (bench/pipeline-targets.ts). */
    private readonly gatherMs = GATHER_MS,
  ) {}

  write(line: string): void {
    const roughly = line.length * UTF8_BYTES_PER_UNIT;
    // Measured only when the rough bound does not fit: a long line of ASCII would flush early otherwise.
    const buffer = this.reserve(this.at + roughly > this.buffer.length ? Buffer.byteLength(line) : roughly);
    this.commit(this.at + buffer.write(line, this.at));
  }

  reserve(maxBytes: number): Buffer {
    if (this.at + maxBytes > this.buffer.length) {
      this.flush();
      if (maxBytes > this.buffer.length) this.buffer = Buffer.allocUnsafeSlow(maxBytes);
    }
    return this.buffer;
  }

  commit(end: number): void {
    // Unref'd: a process with nothing else to do exits, and its 'exit' writes what is gathered.
    if (this.at === 0) setTimeout(this.flush, this.gatherMs).unref();
    this.at = end;
  }

  /** Also pino's `logger.flush(done)`: `done` is called once what was gathered is written. */
  readonly flush = (done?: unknown): void => {
    if (this.at !== 0) this.writeGathered();
    // A timer calls this with nothing, the process's 'exit' with its exit code.
    if (typeof done === 'function') done();
  };

  private writeGathered(): void {
    // A copy: the destination may keep what it could not write yet, and the buffer gathers on.
    const bytes = Buffer.from(this.buffer.subarray(0, this.at));
    this.at = 0;
    // A line longer than what is gathered at once grew the buffer for itself alone.
    if (this.buffer.length > GATHER_BYTES) this.buffer = Buffer.allocUnsafeSlow(GATHER_BYTES);
    this.out.write(bytes);
  }
}

/** Lines gathered for file descriptor `fd`, written synchronously by SonicBoom (pino's destination), which retries a full pipe. */
export function gatheredLinesTo(fd: number, gatherMs?: number): GatheredLines {
  // In 'buffer' mode SonicBoom writes Buffers; its types list only strings.
  const out = pino.destination({ dest: fd, sync: true, contentMode: 'buffer' }) as unknown as { write(bytes: Buffer): boolean };
  return new GatheredLines(out, gatherMs);
}

/** The `LineBytes` of a logger's destination when it takes lines as bytes (a `GatheredLines`). */
export function lineBytesOf(destination: unknown): LineBytes | undefined {
  return destination instanceof GatheredLines ? destination : undefined;
}
