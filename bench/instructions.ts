// Instructions per request: a bench's server process run under valgrind's callgrind, which counts the
// instructions it executes instead of timing them. Where rounds timed on this shared 2-core machine
// move ±15% (docs/benchmarks.md#pipeline), the count of the same requests moves a few percent (the
// garbage collector and the compiler's tiers), whatever else the machine does: a difference of 5% is
// seen. It counts the process's own user-space work, its helper threads apart: not the kernel's
// (its system calls, counted with strace in docs/benchmarks.md), nor PostgreSQL's or Redis's.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { Client } from 'undici';
import type { LoadRequest } from './harness.js';

/**
 * The command that runs `node <args>` under callgrind with its counting off until `instructionsDuring`
 * turns it on (start-up and warm-up run about 10 times slower than bare, not 100 times).
 * JIT-compiled code is code valgrind must translate again when V8 rewrites it: --smc-check.
 */
export function underCallgrind(nodeArgs: readonly string[]): { command: string; args: string[] } {
  if (!canCount()) throw new Error(NO_VALGRIND);
  const counts = FUNCTIONS_DIR === undefined ? ['--callgrind-out-file=/dev/null'] : [`--callgrind-out-file=${FUNCTIONS_DIR}/callgrind.out.%p`, '--separate-threads=yes'];
  const names = FUNCTIONS_DIR === undefined ? [] : ['--perf-basic-prof'];
  return {
    command: 'valgrind',
    args: ['--tool=callgrind', '--smc-check=all-non-file', '--instr-atstart=no', ...counts, process.execPath, ...names, ...nodeArgs],
  };
}

/**
 * BENCH_COUNT_FUNCTIONS=<dir>: every counted round is also dumped function by function into `dir`
 * under its label, and node names its compiled code in /tmp/perf-<pid>.map; bench/functions.ts reads them.
 */
const FUNCTIONS_DIR = process.env.BENCH_COUNT_FUNCTIONS;

/** Whether valgrind is on the PATH (Debian's package valgrind): a bench leaves its counts out without it. */
export function canCount(): boolean {
  try {
    execFileSync('valgrind', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const NO_VALGRIND = "counting instructions needs valgrind (Debian's package valgrind) on the PATH";

/** Instructions a process executed, in all: its main thread's, and every thread's (the collector's and the compiler's helpers too). */
export interface Instructions {
  main: number;
  all: number;
}

/** Turns counting on in a process started by `underCallgrind` (the first time its code is translated again, counted). */
export function startCounting(child: ChildProcess): void {
  control(child, '--instr=on');
}

/**
 * The instructions `child` (counting, `startCounting`) executes while `work` runs, per unit of what
 * `work` answers (the requests it made): the counters are zeroed before and read after (and, with
 * BENCH_COUNT_FUNCTIONS, dumped under `label`).
 */
export async function instructionsDuring(child: ChildProcess, work: () => Promise<number>, label = 'work'): Promise<Instructions> {
  control(child, '--zero');
  const units = await work();
  const told = control(child, '-e', 'Ir');
  if (FUNCTIONS_DIR !== undefined) control(child, `--dump=${label.replaceAll(/[^\w/?=.-]+/g, '_')}:${units}`);
  // One line per thread: "Th 1  123,456", and from thread 10 on "Th10  123,456".
  const threads = [...told.matchAll(/Th\s*(\d+)\s+([\d,]+)/g)].map((match) => ({
    thread: Number(match[1]),
    count: Number(match[2]!.replaceAll(',', '')),
  }));
  const main = threads.find(({ thread }) => thread === 1);
  if (main === undefined) throw new Error(`callgrind_control told no count of ${child.pid}'s main thread:\n${told}`);
  return { main: main.count / units, all: threads.reduce((sum, { count }) => sum + count, 0) / units };
}

/** `n` requests one after the other on one connection (what callgrind, running one thread at a time, measures best); any answer but a 2xx fails. */
export async function requestsInTurn(baseUrl: string, request: LoadRequest, n: number): Promise<number> {
  const client = new Client(baseUrl);
  try {
    for (let i = 0; i < n; i++) {
      const res = await client.request({ method: request.method ?? 'GET', path: request.path, headers: request.headers, body: request.body });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`${request.method ?? 'GET'} ${request.path} answered ${res.statusCode}: ${text}`);
    }
  } finally {
    await client.close();
  }
  return n;
}

/** callgrind_control's answer; it exits 0 when it found no such run, so that is told apart here. */
function control(child: ChildProcess, ...args: string[]): string {
  const told = execFileSync('callgrind_control', [...args, String(child.pid)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 });
  if (/No active callgrind runs|not detected|^Error/m.test(told)) throw new Error(`callgrind_control ${args.join(' ')} ${child.pid}: ${told}`);
  return told;
}
