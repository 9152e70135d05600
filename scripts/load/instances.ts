import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';

/** One server process of the run, on a port it keeps across restarts. */
export interface Instance {
  index: number;
  port: number;
  baseUrl: string;
  up: boolean;
  pid: () => number | undefined;
  /** Error-level log lines (pino level >= 50) with the time they were written. */
  errors: { at: number; line: string }[];
  start: () => Promise<void>;
  /** SIGKILL: no drain, no goodbye. */
  kill9: () => Promise<void>;
  stop: () => Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The built server (dist/src/main.js), as `npm start` runs it. */
export async function createInstance(index: number, root: string, env: Record<string, string>): Promise<Instance> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const instance: Instance = {
    index,
    port,
    baseUrl: `http://127.0.0.1:${port}`,
    up: false,
    pid: () => child?.pid,
    errors: [],
    start: async () => {
      const started = spawn(process.execPath, ['dist/src/main.js'], { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      const output: string[] = [];
      let exited: number | null | undefined;
      started.once('exit', (code) => (exited = code));
      for (const stream of [started.stdout!, started.stderr!]) {
        createInterface({ input: stream }).on('line', (line) => {
          if (output.length < 200) output.push(line);
          if (/"level":(5|6)\d/.test(line) || !line.startsWith('{')) instance.errors.push({ at: Date.now(), line });
        });
      }
      // Logs are at warn: ready is when the liveness probe answers.
      for (const deadline = Date.now() + 60_000; ; ) {
        if (exited !== undefined) throw new Error(`instance ${index} exited with ${exited}:\n${output.join('\n')}`);
        if (Date.now() > deadline) throw new Error(`instance ${index} did not start:\n${output.join('\n')}`);
        const live = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
        if (live) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      started.removeAllListeners('exit');
      started.once('exit', () => (instance.up = false));
      instance.up = true;
    },
    kill9: async () => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      instance.up = false;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
    stop: async () => {
      if (!child || child.exitCode !== null || child.signalCode !== null) return;
      instance.up = false;
      const exited = new Promise((resolve) => child!.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
  return instance;
}
