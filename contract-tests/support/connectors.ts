import { dataOf } from './server.js';
import { expect } from 'vitest';
import type { TaskClient } from '@task-service/sdk';

type SyncJob = NonNullable<Awaited<ReturnType<TaskClient['getSyncJob']>>['data']>;

/** Polls a sync job until it has finished (succeeded or failed), or fails the test after `timeoutMs`. */
export async function waitForJob(client: TaskClient, jobId: string, timeoutMs = 15_000): Promise<SyncJob> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { data, error } = await client.getSyncJob(jobId);
    if (error) throw error;
    if (data.status === 'succeeded' || data.status === 'failed') return data;
    if (Date.now() > deadline) throw new Error(`sync job ${jobId} still ${data.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Starts a sync and waits for its end. */
export async function syncAndWait(client: TaskClient, connectorAccountId: string, timeoutMs?: number): Promise<SyncJob> {
  const started = await client.startSync(connectorAccountId);
  expect(started.response.status).toBe(202);
  return waitForJob(client, dataOf(started).id, timeoutMs);
}

export async function allTasks(client: TaskClient) {
  const tasks = [];
  for await (const task of client.listAllTasks({ status: 'all', limit: 200 })) tasks.push(task);
  return tasks;
}
