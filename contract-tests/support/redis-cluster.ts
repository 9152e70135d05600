import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { createClient } from 'redis';

/**
 * A three-master Redis Cluster of the test's own: redis-server --cluster-enabled yes on free
 * loopback ports, each in a temporary directory (its nodes.conf survives a restart there), joined
 * with redis-cli --cluster create, and stopped by PID.
 */
export class TestRedisCluster {
  private readonly children: (ChildProcess | undefined)[] = [];
  private constructor(
    readonly ports: number[],
    private readonly dirs: string[],
  ) {}

  static async start(masters = 3): Promise<TestRedisCluster> {
    const ports: number[] = [];
    while (ports.length < masters) {
      const port = await freeClusterPort();
      if (!ports.includes(port)) ports.push(port);
    }
    const cluster = new TestRedisCluster(
      ports,
      ports.map(() => mkdtempSync(join(tmpdir(), 'task-service-redis-cluster-'))),
    );
    try {
      await Promise.all(ports.map((_, i) => cluster.startNode(i)));
      const created = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((port) => `127.0.0.1:${port}`), '--cluster-replicas', '0', '--cluster-yes'], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      if (created.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${created.stdout}\n${created.stderr}`);
      await cluster.waitUntilOk();
    } catch (err) {
      await cluster.stop();
      throw err;
    }
    return cluster;
  }

  /** redis://... of the first node: the client learns the others from it. */
  get url(): string {
    return `redis://127.0.0.1:${this.ports[0]}`;
  }

  async startNode(index: number): Promise<void> {
    const child = spawn(
      'redis-server',
      [
        '--port', String(this.ports[index]),
        '--bind', '127.0.0.1',
        '--cluster-enabled', 'yes',
        '--cluster-config-file', 'nodes.conf',
        '--cluster-node-timeout', '1000',
        '--dir', this.dirs[index]!,
        '--save', '',
        '--appendonly', 'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.children[index] = child;
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('redis-server did not start')), 10_000);
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`)));
      createInterface({ input: child.stdout! }).on('line', (line) => {
        if (line.includes('Ready to accept connections')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  }

  /** Kills one master outright (SIGKILL by PID), as a crash would. */
  async killNode(index: number): Promise<void> {
    const child = this.children[index];
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(child.pid!, 'SIGKILL');
    await exited;
  }

  /** Every node answers `cluster_state:ok`. */
  async waitUntilOk(timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const states = await Promise.all(this.ports.map((port) => this.command(port, ['CLUSTER', 'INFO']).catch(() => '')));
      if (states.every((info) => info.includes('cluster_state:ok'))) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the Redis Cluster did not reach cluster_state:ok');
  }

  /** The number of keys each node holds, in port order. */
  async keysPerNode(): Promise<number[]> {
    return Promise.all(this.ports.map(async (port) => Number(await this.command(port, ['DBSIZE']))));
  }

  async stop(): Promise<void> {
    for (let i = 0; i < this.ports.length; i++) await this.killNode(i);
    for (const dir of this.dirs) rmSync(dir, { recursive: true, force: true });
  }

  private async command(port: number, args: string[]): Promise<string> {
    const client = createClient({ url: `redis://127.0.0.1:${port}`, socket: { reconnectStrategy: false, connectTimeout: 1000 } });
    client.on('error', () => undefined);
    await client.connect();
    try {
      return String(await client.sendCommand(args));
    } finally {
      client.destroy();
    }
  }
}

/** A free port whose cluster bus port (port + 10000) is free too. */
async function freeClusterPort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if ((await isFree(port)) && (await isFree(port + 10_000))) return port;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}
