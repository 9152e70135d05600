// `taskctl tasks list --json` against curl of the same page (50 tasks, the same API token): wall time
// of a whole run, process start included, so the ratio is what a person or a script feels. Target: at
// most 2.5x curl, i.e. taskctl's start-up stays small next to the request itself.
// Needs curl and a built CLI (npm run build -w cli).
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { signedInClient, startServer } from '../contract-tests/support/server.js';
import { envNumber, percentile as p } from './harness.js';

const RUNS = envNumber('BENCH_ROUNDS', 30);
const WARMUP = 3;
const TARGET_RATIO = 2.5;
const TASKCTL = new URL('../cli/bin/taskctl.js', import.meta.url).pathname;

const roomy = { RATE_LIMIT_BURST_PER_MINUTE: '100000', RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000', RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000', RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000' };
const server = await startServer({ env: { ...roomy, OPENAPI_VALIDATE_RESPONSES: 'false' } });
try {
  const { client } = await signedInClient(server);
  for (let i = 0; i < 50; i++) await client.createTask({ title: `bench task ${i}`, labels: ['bench'], priority: (1 + (i % 4)) as 1 | 2 | 3 | 4 });
  const token = (await client.createApiToken({ name: 'bench' })).data!.token;
  const url = `${server.baseUrl}/tasks?limit=50`;

  const curl = () => spawnSync('curl', ['-sf', '-o', '/dev/null', '-H', `Authorization: Bearer ${token}`, url]);
  const taskctl = () =>
    spawnSync(process.execPath, [TASKCTL, 'tasks', 'list', '--json', '--limit', '50'], {
      env: { PATH: process.env.PATH, HOME: '/nonexistent', TASKCTL_TOKEN: token, TASKCTL_SERVER: server.baseUrl, TASKCTL_CONFIG_DIR: '/nonexistent' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });

  // The floor under any Node CLI: starting node and exiting, nothing loaded.
  const node = () => spawnSync(process.execPath, ['-e', '0']);

  const timings = { curl: [] as number[], taskctl: [] as number[], node: [] as number[] };
  for (let i = 0; i < WARMUP + RUNS; i++) {
    // Alternating, so drift in the machine's load falls on both alike.
    for (const [name, run] of [['curl', curl], ['taskctl', taskctl], ['node', node]] as const) {
      const started = performance.now();
      const result = run();
      const elapsed = performance.now() - started;
      if (result.status !== 0) throw new Error(`${name} failed (${result.status}): ${result.stderr?.toString()}`);
      if (i >= WARMUP) timings[name].push(elapsed);
    }
  }

  const line = (name: keyof typeof timings) => `${name.padEnd(8)} p50 ${p(timings[name], 0.5).toFixed(1)} ms   p90 ${p(timings[name], 0.9).toFixed(1)} ms`;
  const ratio = p(timings.taskctl, 0.5) / p(timings.curl, 0.5);
  process.stdout.write(`GET /tasks?limit=50 (50 tasks), ${RUNS} runs each, wall time per run (process start included):\n`);
  process.stdout.write(`${line('curl')}\n${line('taskctl')}\n${line('node')}  (node -e 0: the start-up floor of any Node CLI)\n`);
  process.stdout.write(`taskctl / curl at p50: ${ratio.toFixed(2)}x (target at most ${TARGET_RATIO}x): ${ratio <= TARGET_RATIO ? 'within target' : 'OVER TARGET'}\n`);
  process.stdout.write(`taskctl over bare node at p50: +${(p(timings.taskctl, 0.5) - p(timings.node, 0.5)).toFixed(1)} ms (its modules, fetch, the request)\n`);
} finally {
  await server.stop();
}
