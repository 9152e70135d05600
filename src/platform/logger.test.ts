import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const loggerModule = fileURLToPath(new URL('./logger.ts', import.meta.url));

/** Runs `body` in a fresh Node process with `logger` made by createLogger('info'); its stdout, parsed. */
function run(body: string): { lines: { msg: string; n?: number }[]; stdout: string; status: number | null } {
  const script = `import { createLogger } from ${JSON.stringify(loggerModule)};\nconst logger = createLogger('info');\n${body}`;
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  const lines = result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { msg: string; n?: number });
  return { lines, stdout: result.stdout, status: result.status };
}

describe("the process logger (standard output, buffered)", () => {
  it('writes every line, whole and in order, across turns of the event loop', () => {
    const { lines } = run(`
      for (let n = 0; n < 1000; n++) logger.info({ n }, 'first turn');
      setImmediate(() => { for (let n = 1000; n < 1010; n++) logger.info({ n }, 'next turn'); });
      setTimeout(() => logger.info({ n: 1010 }, 'later'), 20);
    `);
    expect(lines.map((line) => line.n)).toEqual(Array.from({ length: 1011 }, (_, n) => n));
  });

  it('loses no line when the process exits or crashes in the turn that logged it', () => {
    const exited = run(`logger.info('before exit'); logger.error('the reason'); process.exit(3);`);
    expect(exited.status).toBe(3);
    expect(exited.lines.map((line) => line.msg)).toEqual(['before exit', 'the reason']);

    const crashed = run(`logger.info('before the crash'); setImmediate(() => { logger.info('in the crashing turn'); throw new Error('boom'); });`);
    expect(crashed.status).toBe(1);
    expect(crashed.lines.map((line) => line.msg)).toEqual(['before the crash', 'in the crashing turn']);
  });

  it('writes a lone line within moments, while the process runs on (a kill that gives no exit loses nothing written before)', () => {
    const killed = run(`logger.info('alone'); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 500);`);
    expect(killed.status).toBe(null);
    expect(killed.lines.map((line) => line.msg)).toEqual(['alone']);
  });

  it('writes a turn that logs more than 64 KiB in pieces, none split inside a line', () => {
    const { lines } = run(`for (let n = 0; n < 3000; n++) logger.info({ n, padding: 'x'.repeat(100) }, 'bulk');`);
    expect(lines).toHaveLength(3000);
    expect(lines.at(-1)?.n).toBe(2999);
  });

  it('writes characters beyond ASCII as UTF-8, and a line longer than what is gathered at once whole, in its place', () => {
    const { lines } = run(`
      logger.info({ n: 0 }, 'café — 📅');
      logger.info({ n: 1, padding: 'é'.repeat(40_000) }, 'long');
      logger.info({ n: 2 }, 'after');
    `);
    expect(lines.map((line) => [line.n, line.msg])).toEqual([[0, 'café — 📅'], [1, 'long'], [2, 'after']]);
    expect((lines[1] as { padding?: string }).padding).toBe('é'.repeat(40_000));
  });
});
