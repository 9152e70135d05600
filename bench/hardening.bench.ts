// What refused requests cost (issue 16): the real server (src/main.ts, production settings, SQLite) in
// a child process, talking only to 127.0.0.1. Two figures, each against a baseline of the same run:
//  1. server CPU per refused (429) POST /auth/login: a small body vs a 1 MiB one (ratio ~1 wanted);
//  2. a signed-in user's GET /me p50, idle vs while 4 clients loop 1 MiB bodies at /auth/login
//     (within 2x wanted). Bounded: BENCH_HARDENING_SECONDS (default 5) of flood, 200 requests a batch.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { percentile } from './harness.js';

const FLOOD_SECONDS = Number(process.env.BENCH_HARDENING_SECONDS ?? 5);
const BATCH = 200;
const root = new URL('../', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'hardening-bench-'));

const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: '0',
    LOG_LEVEL: 'info', // the 'listening on port' line is info; the lines are read and dropped
    DATABASE_URL: `sqlite:${join(dir, 'bench.sqlite')}`,
    JWT_SECRET: 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz',
    CONNECTOR_SECRET_KEY: '0'.repeat(64),
    REDIS_URL: '',
    // The signed-in user's own calls must never be the ones refused; sign-in keeps its default budget.
    RATE_LIMIT_BURST_PER_MINUTE: '100000',
    RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000',
    RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000',
    RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000',
  },
});
const port = await new Promise<number>((resolve, reject) => {
  child.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  createInterface({ input: child.stdout }).on('line', (line) => {
    const match = /listening on port (\d+)/.exec(line);
    if (match) resolve(Number(match[1]));
  });
  createInterface({ input: child.stderr }).on('line', (line) => process.stderr.write(`${line}\n`));
});
const base = `http://127.0.0.1:${port}`;

/** User + system CPU of the server process so far, in ms (Linux /proc). */
function serverCpuMs(): number {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const smallLogin = JSON.stringify({ email: 'nobody@example.com', password: 'not the password' });
const hugeLogin = `[${'0,'.repeat(512 * 1024 - 1)}0]`; // 1 MiB JSON array
const login = (body: string) => fetch(`${base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });

async function cpuPerRefusal(body: string): Promise<number> {
  const before = serverCpuMs();
  for (let i = 0; i < BATCH; i++) {
    const answer = await login(body);
    await answer.arrayBuffer();
    if (answer.status !== 429 && answer.status !== 413 && answer.status !== 401) throw new Error(`expected a refusal, got ${answer.status}`);
  }
  return (serverCpuMs() - before) / BATCH;
}

/** 4 clients, each looping a 1 MiB JSON array at /auth/login until the deadline; prints how many were sent. */
const FLOODER = `
const [base, until] = process.argv.slice(1);
const body = '[' + '0,'.repeat(512 * 1024 - 1) + '0]';
let sent = 0;
await Promise.all(Array.from({ length: 4 }, async () => {
  while (Date.now() < Number(until)) {
    const answer = await fetch(base + '/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await answer.arrayBuffer();
    sent++;
  }
}));
console.log(sent);
`;


async function meLatencies(accessToken: string, count: number, until = Infinity): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < count && Date.now() < until; i++) {
    const started = performance.now();
    const answer = await fetch(`${base}/me`, { headers: { authorization: `Bearer ${accessToken}` } });
    await answer.arrayBuffer();
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`GET /me answered ${answer.status}`);
  }
  return times;
}

try {
  const registered = await fetch(`${base}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: `bench-${Date.now()}@example.com`, password: 'correct horse battery staple' }),
  });
  const { accessToken } = (await registered.json()) as { accessToken: string };

  // Spend the login budget (40 a minute by default), so what follows is refused with 429.
  for (let spent = 0; spent < 60; spent++) if ((await (await login(smallLogin)).arrayBuffer()) && spent > 45) break;
  // Warm both paths, then alternate batches so drift hits both alike.
  await cpuPerRefusal(smallLogin);
  await cpuPerRefusal(hugeLogin);
  const small: number[] = [];
  const huge: number[] = [];
  for (let round = 0; round < 3; round++) {
    small.push(await cpuPerRefusal(smallLogin));
    huge.push(await cpuPerRefusal(hugeLogin));
  }
  const smallMs = percentile(small, 0.5);
  const hugeMs = percentile(huge, 0.5);

  await meLatencies(accessToken, 100);
  const idle = await meLatencies(accessToken, 300);
  const until = Date.now() + FLOOD_SECONDS * 1000;
  // The flood comes from its own process, so its sending does not slow this process's measuring.
  const flooder = spawn(process.execPath, ['--input-type=module', '-e', FLOODER, base, String(until)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let flooded = 0;
  flooder.stdout.on('data', (chunk: Buffer) => (flooded = Number(chunk.toString().trim().split('\n').at(-1))));
  await new Promise((resolve) => setTimeout(resolve, 300));
  const underFlood = await meLatencies(accessToken, 100_000, until);
  await new Promise((resolve) => flooder.once('exit', resolve));

  const idleP50 = percentile(idle, 0.5);
  const floodP50 = percentile(underFlood, 0.5);
  process.stdout.write(
    `refused POST /auth/login (429), server CPU per request, median of 3 batches of ${BATCH}:\n` +
      `  small body (${smallLogin.length} B): ${smallMs.toFixed(3)} ms\n` +
      `  1 MiB body:            ${hugeMs.toFixed(3)} ms  (ratio ${(hugeMs / smallMs).toFixed(2)})\n` +
      `signed-in GET /me, p50 / p99:\n` +
      `  idle:                                  ${idleP50.toFixed(2)} / ${percentile(idle, 0.99).toFixed(2)} ms (${idle.length} requests)\n` +
      `  4 clients flooding 1 MiB logins (${FLOOD_SECONDS} s, ${flooded} sent): ${floodP50.toFixed(2)} / ${percentile(underFlood, 0.99).toFixed(2)} ms (${underFlood.length} requests)  (p50 ratio ${(floodP50 / idleP50).toFixed(2)}, target <= 2)\n`,
  );
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  rmSync(dir, { recursive: true, force: true });
}
