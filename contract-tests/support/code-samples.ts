// Runs the document's x-codeSamples as a reader would: curl and taskctl in bash, TypeScript with tsx,
// Python with the SDK's virtualenv. A sample reads its inputs from the environment ($TOKEN, $TASK_ID,
// ...); the addresses it names (http://localhost:3000, the example receiver and feed) are replaced
// with the test's before it runs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TASKCTL } from './cli.js';

const projectRoot = new URL('../../', import.meta.url).pathname;
/** Inside the project, so `@task-service/sdk` resolves from the sample as from an app that installed it. */
const tsDir = join(projectRoot, 'node_modules/.cache/code-samples');
const python = join(projectRoot, '.venv-python/bin/python');
/** The Python SDK's virtualenv (scripts/python/setup.sh); without it the Python samples are skipped, as the SDK's own tests are. */
export const pythonAvailable = existsSync(python);

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

export interface SampleOperation {
  operationId: string;
  samples: CodeSample[];
}

export interface SampleInput {
  /** Variables the sample reads ($TOKEN, $TASK_ID, ...). */
  env: Record<string, string>;
  /** Literal text of the sample replaced before it runs (addresses, an email that must be new). */
  replace: Record<string, string>;
  /** For a sample that waits for a person (taskctl login): plays the person once stderr shows what it needs. */
  interact?: (stderr: () => string) => Promise<void>;
}

export interface SampleRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Every operation's samples in the served document, webhooks (which the server sends) aside. */
export function samplesOf(document: { paths: Record<string, Record<string, unknown>> }): SampleOperation[] {
  const found: SampleOperation[] = [];
  for (const item of Object.values(document.paths)) {
    for (const operation of Object.values(item)) {
      if (!operation || typeof operation !== 'object' || !('operationId' in operation)) continue;
      const { operationId, 'x-codeSamples': samples } = operation as { operationId: string; 'x-codeSamples'?: CodeSample[] };
      found.push({ operationId, samples: samples ?? [] });
    }
  }
  return found;
}

function substitute(source: string, replace: Record<string, string>): string {
  let text = source;
  for (const [from, to] of Object.entries(replace)) text = text.replaceAll(from, to);
  return text;
}

let fileCounter = 0;

/** Runs one sample to its end (60 s at most) in a scratch directory. */
export async function runSample(sample: CodeSample, input: SampleInput): Promise<SampleRun> {
  const source = substitute(sample.source, input.replace);
  const scratch = mkdtempSync(join(tmpdir(), 'code-sample-'));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: scratch, ...input.env };
  let command: string;
  let args: string[];
  let written: string | undefined;
  let cwd = scratch;
  switch (sample.label) {
    case 'curl':
      // A failing status fails the run, as a script with --fail-with-body would.
      command = 'bash';
      args = ['-euo', 'pipefail', '-c', `curl() { command curl --fail-with-body -sS "$@"; }\n${source}`];
      break;
    case 'taskctl':
      command = 'bash';
      args = ['-euo', 'pipefail', '-c', `taskctl() { "${process.execPath}" "${TASKCTL}" "$@"; }\n${source}`];
      env.TASKCTL_CONFIG_DIR = env.TASKCTL_CONFIG_DIR ?? scratch;
      break;
    case 'TypeScript': {
      mkdirSync(tsDir, { recursive: true });
      const file = join(tsDir, `sample-${process.pid}-${++fileCounter}.mts`);
      writeFileSync(file, source);
      written = file;
      cwd = projectRoot; // where node finds tsx
      command = process.execPath;
      args = ['--import', 'tsx', file];
      break;
    }
    case 'Python':
      command = python;
      args = ['-c', source];
      env.PYTHONPATH = join(projectRoot, 'sdk-python');
      break;
    default:
      throw new Error(`no runner for a sample labelled ${sample.label}`);
  }
  const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  try {
    if (input.interact) await input.interact(() => stderr);
    return { code: await exited, stdout, stderr };
  } finally {
    clearTimeout(timer);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    rmSync(scratch, { recursive: true, force: true });
    if (written) rmSync(written, { force: true });
  }
}

/**
 * Type-checks TypeScript samples against the built SDK as an app's strict build would: a field or
 * method the SDK no longer has fails here, not only when a run happens to print undefined.
 */
export async function typecheck(sources: Record<string, string>): Promise<SampleRun> {
  const dir = join(tsDir, `typecheck-${process.pid}-${++fileCounter}`);
  mkdirSync(dir, { recursive: true });
  const files = Object.entries(sources).map(([name, source]) => {
    const file = join(dir, `${name}.mts`);
    writeFileSync(file, source);
    return file;
  });
  const tsc = join(projectRoot, 'node_modules/typescript/bin/tsc');
  const flags = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--target', 'es2022', '--skipLibCheck', '--types', 'node'];
  const child = spawn(process.execPath, [tsc, ...flags, ...files], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  rmSync(dir, { recursive: true, force: true });
  return { code, stdout, stderr };
}

/** Resolves with the first match of `pattern` in the text `read` returns, polling; rejects after `timeoutMs`. */
export async function waitForText(read: () => string, pattern: RegExp, timeoutMs = 20_000): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const match = read().match(pattern);
    if (match) return match;
    if (Date.now() > until) throw new Error(`never printed ${pattern}; so far:\n${read()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Lets at most `limit` callers run at once; the others wait their turn. */
export function concurrencyLimit(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}
