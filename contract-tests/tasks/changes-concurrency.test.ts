import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Task, TaskClient } from '@task-service/sdk';
import { createTestDatabase, signedInClient, startServer, type TestDatabase, type TestServer } from '../support/server.js';

// Decisions §15: an app following nextCursor sees every change committed by any instance, none skipped,
// also when writes commit concurrently. Two server processes share one database (on SQLite, one file).

const WRITERS = 8;
const WRITES_PER_WRITER = 30;
const ROUNDS = 3;

describe('walking the change feed while two instances write in parallel', () => {
  let database: TestDatabase;
  let servers: TestServer[];
  beforeAll(async () => {
    database = await createTestDatabase();
    const env = {
      RATE_LIMIT_BURST_PER_MINUTE: '100000',
      RATE_LIMIT_SUSTAINED_PER_HOUR: '1000000',
      RATE_LIMIT_CLIENT_BURST_PER_MINUTE: '100000',
      RATE_LIMIT_CLIENT_SUSTAINED_PER_HOUR: '1000000',
    };
    // One at a time: both migrate the same database.
    servers = [await startServer({ env, database })];
    servers.push(await startServer({ env, database }));
  }, 90_000);
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
    await database?.drop();
  });

  it.each(Array.from({ length: ROUNDS }, (_, round) => round + 1))(
    'the mirror built from the feed equals the stored tasks, versions included (round %i)',
    async () => {
      const { tokens } = await signedInClient(servers[0]!);
      const clients = servers.map((server) => server.client({ accessToken: tokens.accessToken, refreshToken: tokens.refreshToken }));
      const mirror = new Map<string, Task>();
      let cursor: string | undefined;
      let reads = 0;
      const follow = async (client: TaskClient) => {
        for await (const page of client.followTaskChanges(cursor, { limit: 7 })) {
          for (const change of page.changes) {
            if (change.kind === 'upserted') mirror.set(change.task.id, change.task);
            else mirror.delete(change.taskId);
          }
          cursor = page.cursor;
        }
        reads += 1;
      };

      for (let i = 0; i < 10; i++) await clients[i % 2]!.createTask({ title: `seed ${i}` });
      let writing = true;
      const reader = (async () => {
        while (writing) await follow(clients[reads % 2]!);
      })();
      const known: string[] = [];
      await Promise.all(
        Array.from({ length: WRITERS }, async (_, writer) => {
          const client = clients[writer % 2]!;
          for (let step = 0; step < WRITES_PER_WRITER; step++) {
            const pick = known[(writer * 31 + step * 7) % Math.max(known.length, 1)];
            if (step % 3 === 0 || pick === undefined) {
              const created = await client.createTask({ title: `w${writer} s${step}` });
              known.push(created.data!.id);
            } else if (step % 3 === 1) {
              await client.updateTask(pick, { title: `w${writer} s${step} changed`, priority: ((step % 4) + 1) as 1 | 2 | 3 | 4 });
            } else {
              await client.deleteTask(pick);
            }
          }
        }),
      );
      writing = false;
      await reader;
      await follow(clients[0]!);

      const stored: Task[] = [];
      for await (const task of clients[1]!.listAllTasks({ limit: 200 })) stored.push(task);
      expect(reads).toBeGreaterThan(1);
      expect(stored.length).toBeGreaterThan(0);
      const byId = (tasks: Iterable<Task>) => [...tasks].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(mirror.values())).toEqual(byId(stored));
    },
    120_000,
  );
});
