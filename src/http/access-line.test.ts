import { pino } from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GatheredLines } from '../platform/gathered-lines.js';
import { accessLineWriter, millisecondsText, type AccessLine } from './access-line.js';

// The access line is written without pino's general path: it must be the very line pino writes for
// `logger.info(line, 'request')`, bindings, level, key order and escapes included.
describe('accessLineWriter', () => {
  const capture = (level = 'info', options: pino.LoggerOptions = {}) => {
    const lines: string[] = [];
    const logger = pino({ level, ...options }, { write: (text: string) => void lines.push(text) });
    return { logger, lines };
  };
  // pino's time is its own clock read: lines written a moment apart differ there only.
  const withoutTime = (text: string) => text.replace(/,"time":\d+/, ',"time":0');

  const lines: AccessLine[] = [
    { requestId: 'req-1', method: 'GET', route: '/me', operationId: 'getMe', status: 200, durationMs: 0.123, accountId: 'a1', clientId: 'web' },
    { requestId: 'x"y\\z', method: 'POST', route: null, operationId: null, status: 404, durationMs: 12, accountId: null, clientId: null },
    { requestId: 'r', method: 'DELETE', route: '/tasks/{taskId}', operationId: 'deleteTask', status: 204, durationMs: 1.5, accountId: 'ü\u2028', clientId: 'app "quoted"', aborted: true },
  ];

  it.each(lines)('writes what pino writes for the same fields (%#)', (line) => {
    const ours = capture();
    const theirs = capture();
    accessLineWriter(ours.logger)('info', line);
    theirs.logger.info({ ...line }, 'request');
    expect(ours.lines).toHaveLength(1);
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    expect(JSON.parse(ours.lines[0]!)).toMatchObject({ level: 30, msg: 'request', ...line });
  });

  it('gives each line its own route, one writer for every route (a route is written once, then reused)', () => {
    const ours = capture();
    const theirs = capture();
    const write = accessLineWriter(ours.logger);
    // One operationId under another route too: a writer is never told wrong by what it wrote before.
    for (const line of [...lines, ...lines, { ...lines[0]!, route: '/me/again', requestId: 'req-2' }, lines[0]!]) {
      write('info', line);
      theirs.logger.info({ ...line }, 'request');
    }
    expect(ours.lines.map(withoutTime)).toEqual(theirs.lines.map(withoutTime));
  });

  it('a lone surrogate is escaped, so the line still reads back as written (pino writes it raw, and its UTF-8 loses it)', () => {
    const { logger, lines: written } = capture();
    accessLineWriter(logger)('info', { ...lines[0]!, clientId: 'half \ud800' });
    expect(written[0]).toContain('"clientId":"half \\ud800"');
    expect(JSON.parse(written[0]!).clientId).toBe('half \ud800');
  });

  it('an error line at level 50, with the bindings of a child logger and another message key', () => {
    const ours = capture('info', { messageKey: 'message' });
    const theirs = capture('info', { messageKey: 'message' });
    accessLineWriter(ours.logger.child({ instance: 'i-1' }))('error', lines[0]!);
    theirs.logger.child({ instance: 'i-1' }).error({ ...lines[0] }, 'request');
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
    expect(JSON.parse(ours.lines[0]!)).toMatchObject({ level: 50, instance: 'i-1', message: 'request' });
  });

  it.each<[string, pino.LoggerOptions]>([
    ['a mixin', { mixin: () => ({ region: 'eu' }) }],
    ['a log formatter', { formatters: { log: (fields) => ({ ...fields, formatted: true }) } }],
    ['a stream-write hook', { hooks: { streamWrite: (text) => text.replace('"request"', '"REQUEST"') } }],
    ['a message prefix', { msgPrefix: '[api] ' }],
  ])('with %s, leaves the line to pino: the same line as pino writes', (_, options) => {
    const ours = capture('info', options);
    const theirs = capture('info', options);
    accessLineWriter(ours.logger)('info', lines[0]!);
    theirs.logger.info({ ...lines[0] }, 'request');
    expect(withoutTime(ours.lines[0]!)).toBe(withoutTime(theirs.lines[0]!));
  });

  describe('through the gathered lines', () => {
    afterEach(() => {
      vi.useRealTimers();
      vi.restoreAllMocks();
    });

    /** Our lines through a GatheredLines and pino's through a capture, for the same logger options. */
    const gatheredAndPino = (options: pino.LoggerOptions, bindings?: pino.Bindings) => {
      const written: Buffer[] = [];
      const gathered = new GatheredLines({ write: (bytes: Buffer) => void written.push(bytes) });
      const ours = pino({ level: 'info', ...options }, gathered);
      const theirs = capture('info', options);
      return {
        gathered,
        ours: bindings ? ours.child(bindings) : ours,
        theirs: bindings ? theirs.logger.child(bindings) : theirs.logger,
        oursText: () => (gathered.flush(), Buffer.concat(written).toString('utf8')),
        theirsText: () => theirs.lines.join(''),
      };
    };

    it.each<[string, pino.LoggerOptions, pino.Bindings | undefined]>([
      ['pino as the service makes it', {}, undefined],
      ['a time function of its own, beyond ASCII', { timestamp: () => ',"time":"mardi 1 décembre"' }, undefined],
      ['ISO time, another message key and CRLF', { timestamp: pino.stdTimeFunctions.isoTime, messageKey: 'message', crlf: true }, undefined],
      ['no time and no base', { timestamp: false, base: null }, undefined],
      ["a child's bindings beyond ASCII", {}, { instance: 'instance-ü-1', zone: '東京' }],
    ])('with %s: the same bytes as pino writes', (_, options, bindings) => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(1_764_170_000_000);
      const { ours, theirs, oursText, theirsText } = gatheredAndPino(options, bindings);
      const write = accessLineWriter(ours);
      const odd: AccessLine[] = [
        ...lines,
        { ...lines[0]!, requestId: 'x'.repeat(128), durationMs: -0.0000012345678901234567 },
        { ...lines[0]!, requestId: '', accountId: '🙂', clientId: 'ü', durationMs: NaN, status: 599 },
        { ...lines[0]!, durationMs: 2 ** 60, route: '/tasks/{taskId}', operationId: 'getTask' },
        { ...lines[0]!, requestId: 'é"\ud800', durationMs: 1234.5 },
        // The same caller line after line: its ids are one kept piece from the second line on.
        lines[0]!,
        lines[0]!,
      ];
      for (const line of odd) {
        write('info', line);
        theirs.info({ ...line }, 'request');
        ours.info({ note: 'between' }, 'other');
        theirs.info({ note: 'between' }, 'other');
      }
      expect(oursText()).toBe(theirsText().replaceAll('\ud800', '\\ud800'));
    });

    it('a faked clock at any number: the time as pino writes it', () => {
      const { ours, theirs, oursText, theirsText } = gatheredAndPino({});
      const write = accessLineWriter(ours);
      const now = vi.spyOn(Date, 'now');
      for (const at of [0, -5, 1_764_170_000_000.5, 2 ** 53 + 2]) {
        now.mockReturnValue(at);
        write('info', lines[0]!);
        theirs.info({ ...lines[0] }, 'request');
      }
      expect(oursText()).toBe(theirsText());
    });

    it('a line whose room ends where the gathered bytes end is written whole (its room is never short)', () => {
      // Every part of the line's room is exact here (a fixed time text, no id, no caller): only the duration's may be short.
      const options: pino.LoggerOptions = { timestamp: () => ',"time":0' };
      const line: AccessLine = { ...lines[0]!, requestId: '', accountId: null, clientId: null, durationMs: -0.0000012345678901234567, aborted: true };
      const { gathered, ours, theirs, oursText, theirsText } = gatheredAndPino(options);
      const write = accessLineWriter(ours);
      let room = 0;
      const reserve = gathered.reserve.bind(gathered);
      gathered.reserve = (maxBytes) => ((room = maxBytes), reserve(maxBytes));
      write('info', line);
      theirs.info({ ...line }, 'request');
      // Fill the gathered bytes up to where this line's room ends exactly at 64 KiB.
      const filler = `${'f'.repeat(64 * 1024 - room - gathered.at - 1)}\n`;
      const buffer = gathered.reserve(filler.length);
      gathered.commit(gathered.at + buffer.write(filler, gathered.at));
      write('info', line);
      ours.info('after');
      theirs.info({ ...line }, 'request');
      theirs.info('after');
      const [first, , second, after] = oursText().split('\n');
      expect([first, second, after]).toEqual(theirsText().split('\n').slice(0, 3));
    });
  });

  it('keeps to the logger level: at warn only the error lines are written', () => {
    const { logger, lines: written } = capture('warn');
    const write = accessLineWriter(logger);
    write('info', lines[0]!);
    expect(written).toEqual([]);
    write('error', lines[1]!);
    expect(written).toHaveLength(1);
  });

  describe('written without the general path', () => {
    afterEach(() => vi.useRealTimers());

    it("carries each line's own time, read from the clock at every line", () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      const { logger, lines: written } = capture();
      const write = accessLineWriter(logger);
      for (const at of [1_764_170_000_000, 1_764_170_000_000, 1_764_170_000_001, 1_764_170_000_000]) {
        vi.setSystemTime(at);
        write('info', lines[0]!);
      }
      expect(written.map((text) => JSON.parse(text).time)).toEqual([1_764_170_000_000, 1_764_170_000_000, 1_764_170_000_001, 1_764_170_000_000]);
    });

    it('gives each line its own pieces when one writer writes lines that differ in one field at a time, in the same millisecond', () => {
      vi.useFakeTimers({ toFake: ['Date'] });
      vi.setSystemTime(1_764_170_000_000);
      const ours = capture();
      const theirs = capture();
      const write = accessLineWriter(ours.logger);
      const unmatched = { ...lines[1]!, requestId: 'r-1' };
      const variants: [level: 'info' | 'error', line: AccessLine][] = [
        ['info', lines[0]!],
        ['info', { ...lines[0]!, status: 304 }],
        ['info', lines[0]!],
        ['error', { ...lines[0]!, status: 500 }],
        ['info', { ...lines[0]!, durationMs: 7 }],
        ['info', unmatched],
        ['info', { ...unmatched, method: 'GET' }],
        ['info', { ...unmatched, method: 'GET', route: '/x', operationId: null }],
        ['info', { ...lines[0]!, accountId: 'a1', clientId: 'cli' }],
        ['info', { ...lines[0]!, accountId: 'a2', clientId: 'cli' }],
        ['info', lines[0]!],
      ];
      for (const [level, line] of variants) {
        write(level, line);
        theirs.logger[level]({ ...line }, 'request');
      }
      expect(ours.lines).toEqual(theirs.lines);
    });

    it('gives each line its own account and client, the same ones line after line or not', () => {
      const ours = capture();
      const theirs = capture();
      const write = accessLineWriter(ours.logger);
      const accounts = ['a1', 'a1', 'b"2', null, 'a1', 'ü', 'ü', null, null];
      for (const [i, accountId] of accounts.entries()) {
        const line = { ...lines[0]!, accountId, clientId: accounts[accounts.length - 1 - i]! };
        write('info', line);
        theirs.logger.info({ ...line }, 'request');
      }
      expect(ours.lines.map(withoutTime)).toEqual(theirs.lines.map(withoutTime));
    });

    it('writes a duration as String() does, every microsecond up to 2 s and beyond', () => {
      const wrong: number[] = [];
      const check = (microseconds: number) => {
        const ms = microseconds / 1000;
        if (millisecondsText(ms) !== String(ms)) wrong.push(ms);
      };
      for (let us = 0; us <= 2_000_000; us++) check(us);
      for (let i = 0; i < 100_000; i++) check(Math.floor(Math.random() * 2 ** 50));
      for (const odd of [0.1234, 1e-7, 2.5e-4, 123.4567, -1.5, 8796093022208.03, 2 ** 60, -0.0000012345678901234567, -1.2345678901234567e-308]) if (millisecondsText(odd) !== String(odd)) wrong.push(odd);
      expect(wrong).toEqual([]);
      // pino writes a number that is not finite as null, so the line stays JSON.
      expect([NaN, Infinity].map(millisecondsText)).toEqual(['null', 'null']);
    });
  });
});
