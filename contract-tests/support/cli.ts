// The built taskctl (cli/bin/taskctl.js, built by the test command) as a child process, and the test
// playing the person at the browser.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { approveDevice } from './oauth-device.js';
import { readPage, submitConsent } from './oauth.js';
import { PASSWORD, type TestServer } from './server.js';

const projectRoot = new URL('../../', import.meta.url).pathname;
export const TASKCTL = join(projectRoot, 'cli/bin/taskctl.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Milliseconds from start to exit. */
  elapsedMs: number;
}

export interface CliOptions {
  configDir: string;
  server?: TestServer;
  env?: Record<string, string>;
  input?: string;
}

export interface RunningCli {
  child: ChildProcess;
  /** Resolves with the first stderr match of `pattern` (output so far included). */
  waitForStderr: (pattern: RegExp, timeoutMs?: number) => Promise<RegExpMatchArray>;
  exited: Promise<CliRun>;
}

export const newConfigDir = () => mkdtempSync(join(tmpdir(), 'taskctl-test-'));

/** Starts taskctl with a clean environment: only what the test gives (no TASKCTL_* of the machine). */
export function startCli(args: string[], options: CliOptions): RunningCli {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: options.configDir,
    TASKCTL_CONFIG_DIR: options.configDir,
    ...(options.server ? { TASKCTL_SERVER: options.server.baseUrl } : {}),
    ...options.env,
  };
  const started = Date.now();
  const child = spawn(process.execPath, [TASKCTL, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  const watchers: { pattern: RegExp; resolve: (match: RegExpMatchArray) => void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const watcher of [...watchers]) {
      const match = stderr.match(watcher.pattern);
      if (match) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve(match);
      }
    }
  });
  if (options.input !== undefined) child.stdin!.end(options.input);
  else if (!args.includes('mcp')) child.stdin!.end();
  const exited = new Promise<CliRun>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr, elapsedMs: Date.now() - started })));
  return {
    child,
    exited,
    waitForStderr: (pattern, timeoutMs = 20_000) =>
      new Promise((resolve, reject) => {
        const match = stderr.match(pattern);
        if (match) return resolve(match);
        const timer = setTimeout(() => reject(new Error(`taskctl never printed ${pattern}; stderr so far:\n${stderr}`)), timeoutMs);
        watchers.push({ pattern, resolve: (found) => (clearTimeout(timer), resolve(found)) });
        void exited.then(() => reject(new Error(`taskctl exited before printing ${pattern}; stderr:\n${stderr}`)));
      }),
  };
}

export function runCli(args: string[], options: CliOptions): Promise<CliRun> {
  return startCli(args, options).exited;
}

/** The --json output of a run that must succeed. */
export async function cliJson<T = Record<string, unknown>>(args: string[], options: CliOptions): Promise<T> {
  const run = await runCli([...args, '--json'], options);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as T;
}

/** `taskctl login --no-browser`, the test playing the browser: consent page, sign-in, redirect to the CLI's listener. */
export async function loginThroughBrowser(server: TestServer, configDir: string, email: string, extraArgs: string[] = []): Promise<{ run: CliRun; page: string }> {
  const cli = startCli(['login', '--no-browser', ...extraArgs], { configDir, server });
  const [url] = await cli.waitForStderr(/http:\/\/127\.0\.0\.1:\d+\/oauth\/authorize\?\S+/);
  const consent = await readPage(await fetch(url, { redirect: 'manual' }));
  expect(consent.response.status).toBe(200);
  const back = await submitConsent(server, consent, { email, password: PASSWORD, decision: 'allow' });
  expect(back.status).toBe(303);
  const callback = back.headers.get('location')!;
  expect(callback).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback\?/);
  const landing = await fetch(callback);
  const page = await landing.text();
  const run = await cli.exited;
  expect(run.code, run.stderr).toBe(0);
  return { run, page };
}

/** `taskctl login --device`, the test approving on the verification page. */
export async function loginWithDevice(server: TestServer, configDir: string, email: string): Promise<CliRun> {
  const cli = startCli(['login', '--device'], { configDir, server });
  const [, complete] = await cli.waitForStderr(/\(or open (\S+)\)/);
  const [, userCode] = await cli.waitForStderr(/enter the code:\s+([A-Z]{4}-[A-Z]{4})/);
  expect(complete).toContain(userCode);
  await approveDevice(server, complete!, email, PASSWORD);
  return cli.exited;
}

export interface SavedFile {
  defaultServer?: string;
  logins: Record<string, { accessToken: string; refreshToken: string; accessExpiresAt: number; scope: string; clientId: string }>;
}

export const readCredentials = (configDir: string): SavedFile => JSON.parse(readFileSync(join(configDir, 'credentials.json'), 'utf8')) as SavedFile;
