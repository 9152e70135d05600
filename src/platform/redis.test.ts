import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisConnection } from './redis.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'ignore'] });
  cleanups.push(() => void child.kill('SIGKILL'));
  await new Promise<void>((resolve) => child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('Ready to accept') && resolve()));
  return child;
}

function capturedLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { logger, messages: () => lines.map((line) => (JSON.parse(line) as { msg: string }).msg) };
}

const eventually = async (condition: () => boolean, ms = 8000) => {
  for (const end = Date.now() + ms; !condition() && Date.now() < end; ) await new Promise((resolve) => setTimeout(resolve, 50));
  return condition();
};

describe('the Redis connection', () => {
  it('starts without a Redis that is not there yet, after a bounded wait, and uses it once it appears', async () => {
    const port = await freePort();
    const { logger, messages } = capturedLogger();
    const started = Date.now();
    const connection = await RedisConnection.open({ url: `redis://127.0.0.1:${port}`, logger, startupWaitMs: 300 });
    cleanups.push(() => connection.close());
    expect(Date.now() - started).toBeLessThan(1500);
    expect(connection.isUp()).toBe(false);
    expect(await connection.run((client) => client.ping())).toBeUndefined();

    await startRedis(port);
    expect(await eventually(() => connection.isUp())).toBe(true);
    expect(await connection.run((client) => client.ping())).toBe('PONG');
    expect(messages().filter((message) => message.startsWith('Redis unreachable'))).toHaveLength(1);
    expect(messages().filter((message) => message.startsWith('Redis reachable again'))).toHaveLength(1);
  });

  it('answers within the command timeout when Redis hangs, and reports it down until it answers again', async () => {
    const port = await freePort();
    const redis = await startRedis(port);
    const { logger } = capturedLogger();
    const connection = await RedisConnection.open({ url: `redis://127.0.0.1:${port}`, logger, commandTimeoutMs: 200, probeAfterMs: 300 });
    cleanups.push(() => connection.close());
    expect(connection.isUp()).toBe(true);

    redis.kill('SIGSTOP');
    cleanups.push(() => void redis.kill('SIGCONT'));
    const started = Date.now();
    await expect(connection.run((client) => client.ping())).rejects.toThrow('did not answer within 200 ms');
    expect(Date.now() - started).toBeLessThan(600);
    expect(connection.isUp()).toBe(false);
    // While down, callers are not kept waiting: no call is even tried until the next probe.
    expect(await connection.run((client) => client.ping())).toBeUndefined();

    redis.kill('SIGCONT');
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(await connection.run((client) => client.ping())).toBe('PONG');
    expect(connection.isUp()).toBe(true);
  });
});
