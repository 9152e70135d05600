import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatheredLines, lineBytesOf } from './gathered-lines.js';

// The process logger's destination (src/platform/logger.ts; its own tests run it in a process of its
// own): here what it hands its output, write by write.
describe('GatheredLines', () => {
  afterEach(() => vi.useRealTimers());

  const gatheredInto = () => {
    const writes: Buffer[] = [];
    return { writes, lines: new GatheredLines({ write: (bytes: Buffer) => void writes.push(bytes) }) };
  };
  const asBytes = (lines: GatheredLines, text: string) => {
    const bytes = Buffer.from(text);
    const buffer = lines.reserve(bytes.length);
    buffer.set(bytes, lines.at);
    lines.commit(lines.at + bytes.length);
  };

  it('writes string lines and byte lines in the order they came, in one write once 10 ms have passed', () => {
    vi.useFakeTimers();
    const { writes, lines } = gatheredInto();
    lines.write('one é\n');
    asBytes(lines, 'two\n');
    lines.write('three 📅\n');
    vi.advanceTimersByTime(9);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes.map(String)).toEqual(['one é\ntwo\nthree 📅\n']);
    lines.write('four\n');
    vi.advanceTimersByTime(10);
    expect(writes.map(String)).toEqual(['one é\ntwo\nthree 📅\n', 'four\n']);
  });

  it('gathers for as long as it is told to (a bench counting a slowed-down process)', () => {
    vi.useFakeTimers();
    const writes: Buffer[] = [];
    const lines = new GatheredLines({ write: (bytes: Buffer) => void writes.push(bytes) }, 400);
    lines.write('one\n');
    vi.advanceTimersByTime(399);
    lines.write('two\n');
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes.map(String)).toEqual(['one\ntwo\n']);
  });

  it('writes what is gathered before a line that would not fit in 64 KiB, and a line longer than that whole', () => {
    const { writes, lines } = gatheredInto();
    const line = `${'x'.repeat(1000)}\n`;
    for (let n = 0; n < 70; n++) asBytes(lines, line);
    lines.write(`${'é'.repeat(40_000)}\n`);
    lines.write('after\n');
    lines.flush();
    expect(writes.map((bytes) => bytes.length)).toEqual([65 * 1001, 5 * 1001, 80_001, 6]);
    expect(Buffer.concat(writes).toString()).toBe(line.repeat(70) + `${'é'.repeat(40_000)}\n` + 'after\n');
  });

  it('hands each write bytes of its own: a destination that keeps them while it waits sees them unchanged', () => {
    const { writes, lines } = gatheredInto();
    lines.write('first\n');
    lines.flush();
    lines.write('other\n');
    lines.flush();
    expect(writes.map(String)).toEqual(['first\n', 'other\n']);
    lines.flush();
    expect(writes).toHaveLength(2);
  });

  it("writes what is gathered when pino's logger is flushed, then calls back", () => {
    const { writes, lines } = gatheredInto();
    const logger = pino({ base: null, timestamp: false }, lines);
    logger.info('gathered');
    const done = vi.fn();
    logger.flush(done);
    expect(writes.map(String)).toEqual(['{"level":30,"msg":"gathered"}\n']);
    expect(done).toHaveBeenCalledOnce();
  });

  it('is told apart from any other destination', () => {
    const { lines } = gatheredInto();
    expect(lineBytesOf(lines)).toBe(lines);
    expect(lineBytesOf({ write: () => {} })).toBeUndefined();
  });
});
