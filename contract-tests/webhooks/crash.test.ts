import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhookReceiver, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { createTestDatabase, signedInClient, startServer, type TestDatabase, type TestServer } from '../support/server.js';

const EVENTS = 1_000;
const env = { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', RATE_LIMITS_ENABLED: 'false' };

let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver?.close();
});

/** `count` tasks created through the given servers in turn, 25 requests at a time. */
async function createTasks(clients: { createTask: (body: { title: string }) => Promise<{ response: Response }> }[], count: number) {
  for (let start = 0; start < count; start += 25) {
    const batch = Array.from({ length: Math.min(25, count - start) }, (_, i) => clients[(start + i) % clients.length]!.createTask({ title: `event ${start + i}` }));
    for (const { response } of await Promise.all(batch)) expect(response.status).toBe(201);
  }
}

const distinctAccepted = (path: string) => new Set(receiver.accepted(path).map((delivery) => delivery.id)).size;

describe('a crash loses no event', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('kill -9 with 1,000 events pending (some mid-delivery); after a restart every one is delivered at least once', async () => {
    const path = '/crash';
    let holding = true;
    receiver.answer(path, () => (holding ? 'hang' : 200));
    const { client } = await signedInClient(server);
    await client.createWebhook({ url: receiver.url(path), events: ['task.created'] });
    await createTasks([client], EVENTS);
    await receiver.waitFor(() => receiver.received.some((delivery) => delivery.path === path), 'a delivery in flight');

    expect(await server.kill('SIGKILL')).toBeNull();
    const knex = server.database.knex();
    const stored: { status: string; n: number | string }[] = await knex('webhook_deliveries').select('status').count({ n: '*' }).groupBy('status');
    expect(stored.map((row) => [row.status, Number(row.n)])).toEqual([['pending', EVENTS]]);
    expect(distinctAccepted(path)).toBe(0);

    holding = false;
    await server.restart();
    // Attempts that were in flight wait out their lease (15 s), then go again.
    await receiver.waitFor(() => distinctAccepted(path) === EVENTS, `${EVENTS} distinct events accepted`, 90_000);
    const events = await knex('webhook_deliveries').distinct('event_id');
    expect(events).toHaveLength(EVENTS);
    expect(new Set(receiver.accepted(path).map((delivery) => delivery.id))).toEqual(new Set(events.map((row) => row.event_id as string)));
    await expect.poll(async () => Number((await knex('webhook_deliveries').where('status', 'succeeded').count({ n: '*' }))[0]!.n)).toBe(EVENTS);
  }, 180_000);
});

describe.runIf(process.env.TEST_DATABASE === 'postgres')('two instances on one PostgreSQL database', () => {
  let database: TestDatabase;
  let first: TestServer;
  let second: TestServer;
  let slowReceiver: WebhookReceiver;
  beforeAll(async () => {
    database = await createTestDatabase();
    slowReceiver = await startWebhookReceiver({ delayMs: 5 });
    first = await startServer({ env, database });
    second = await startServer({ env, database });
  });
  afterAll(async () => {
    await Promise.all([first?.stop(), second?.stop(), slowReceiver?.close()]);
    await database?.drop();
  });

  it('deliver 1,000 events between them with no attempt sent twice, nor two at once', async () => {
    const path = '/shared';
    const session = await signedInClient(first);
    const onSecond = second.client({ accessToken: session.tokens.accessToken });
    await session.client.createWebhook({ url: slowReceiver.url(path), events: ['task.created'] });
    await createTasks([session.client, onSecond], EVENTS);

    await slowReceiver.waitFor(() => slowReceiver.accepted(path).length >= EVENTS, `${EVENTS} deliveries`, 90_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const received = slowReceiver.received.filter((delivery) => delivery.path === path);
    expect(new Set(received.map((delivery) => delivery.id)).size).toBe(EVENTS);
    expect(received).toHaveLength(EVENTS);
    expect(slowReceiver.overlaps).toBe(0);
    for (const instance of [first, second]) {
      const metrics = await (await fetch(`${instance.baseUrl}/metrics`)).text();
      const sent = Number(/task_service_webhook_attempts_total\{outcome="succeeded"\} (\d+)/.exec(metrics)?.[1] ?? 0);
      expect(sent, 'each instance delivered a share').toBeGreaterThan(0);
    }
  }, 180_000);
});
