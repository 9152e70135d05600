import { verifyWebhook, type TaskClient } from '@task-service/sdk';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { syncAndWait } from '../support/connectors.js';
import { startFakeIcalFeeds, type FakeIcalFeeds } from '../support/fakes/ical.fake.js';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

// WEBHOOK_RETRY_SCALE shrinks the schedule (5 s, 5 min, 30 min, ...) to 1 ms, 60 ms, 360 ms, ...
let server: TestServer;
let receiver: WebhookReceiver;
let feeds: FakeIcalFeeds;
beforeAll(async () => {
  [server, receiver, feeds] = await Promise.all([
    startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.0002' } }),
    startWebhookReceiver(),
    startFakeIcalFeeds(),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close(), feeds?.close()]);
});

let pathCounter = 0;
async function subscribed(events: Parameters<TaskClient['createWebhook']>[0]['events']) {
  const session = await signedInClient(server);
  const path = `/hook-${++pathCounter}`;
  const hook = (await session.client.createWebhook({ url: receiver.url(path), events })).data!;
  return { ...session, hook, path };
}


/** Verified by the SDK and by the reference `standardwebhooks` package, both on the raw body and headers as received. */
async function verifiedBoth(delivery: ReceivedDelivery, secret: string) {
  const headers = delivery.headers as Record<string, string>;
  const bySdk = await verifyWebhook(delivery.body, headers, secret);
  const byReference = new Webhook(secret).verify(delivery.body, headers);
  expect(byReference).toEqual(bySdk);
  return bySdk as { type: string; timestamp: string; data: unknown };
}

describe('webhook deliveries to a loopback receiver', () => {
  it('task.created, task.updated and task.deleted arrive signed, verifiable, with the REST shapes', async () => {
    const { client, hook, path } = await subscribed(['task.created', 'task.updated', 'task.deleted']);
    const created = (await client.createTask({ title: 'Hooked' })).data!;
    const updated = (await client.updateTask(created.id, { status: 'completed' })).data!;
    await client.deleteTask(created.id);
    await receiver.waitFor(() => receiver.accepted(path).length === 3, 'three task events');

    const events = await Promise.all(receiver.accepted(path).map((delivery) => verifiedBoth(delivery, hook.secret)));
    const byType = Object.fromEntries(events.map((event) => [event.type, event]));
    expect(byType['task.created']!.data).toEqual(created);
    expect(byType['task.updated']!.data).toEqual(updated);
    expect(byType['task.deleted']!.data).toEqual({ taskId: created.id, deletedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    for (const event of events) expect(Date.parse(event.timestamp)).toBeGreaterThan(Date.now() - 60_000);
    const ids = receiver.accepted(path).map((delivery) => delivery.id);
    expect(new Set(ids).size).toBe(3);
    expect(receiver.accepted(path)[0]!.headers['content-type']).toBe('application/json');
  });

  it('connector_account.connected, sync_job.finished (with its sync\'s task events) and connector_account.disconnected arrive', async () => {
    const { client, hook, path } = await subscribed(['connector_account.connected', 'connector_account.disconnected', 'sync_job.finished', 'task.created']);
    feeds.setFeed(`/feed-${path}.ics`, [{ uid: 'one', summary: 'From the calendar' }, { uid: 'two', summary: 'Another' }]);
    const account = (await client.connectAccount('ical', { url: feeds.url(`/feed-${path}.ics`) })).data!;
    const job = await syncAndWait(client, account.id);
    expect(job.status).toBe('succeeded');
    await client.disconnectAccount(account.id);
    await receiver.waitFor(() => receiver.accepted(path).length === 5, 'connect, two synced tasks, sync finished, disconnect');

    const events = await Promise.all(receiver.accepted(path).map((delivery) => verifiedBoth(delivery, hook.secret)));
    const data = (type: string) => events.filter((event) => event.type === type).map((event) => event.data);
    expect(data('connector_account.connected')).toEqual([account]);
    expect(data('sync_job.finished')).toEqual([job]);
    expect(data('task.created').map((task) => (task as { title: string }).title).sort()).toEqual(['Another', 'From the calendar']);
    expect(data('connector_account.disconnected')).toEqual([expect.objectContaining({ id: account.id, type: 'ical' })]);
  });

  it('a ping arrives as webhook.ping whatever the webhook subscribes to, and shows in the log', async () => {
    const { client, hook, path } = await subscribed(['task.deleted']);
    const ping = await client.pingWebhook(hook.id);
    expect(ping.response.status).toBe(202);
    expect(ping.data).toMatchObject({ eventType: 'webhook.ping', status: 'pending' });
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the ping');
    const event = await verifiedBoth(receiver.accepted(path)[0]!, hook.secret);
    expect(event).toMatchObject({ type: 'webhook.ping', data: { webhookId: hook.id } });
    await expect.poll(async () => (await client.listWebhookDeliveries(hook.id)).data!.items[0]).toMatchObject({
      id: ping.data!.id,
      eventId: receiver.accepted(path)[0]!.id,
      status: 'succeeded',
      attempts: 1,
      lastStatusCode: 200,
      lastError: null,
      nextAttemptAt: null,
    });
  });

  it('events the webhook does not subscribe to are not sent', async () => {
    const { client, path } = await subscribed(['task.deleted']);
    const task = (await client.createTask({ title: 'quiet' })).data!;
    await client.updateTask(task.id, { title: 'still quiet' });
    await client.deleteTask(task.id);
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the delete');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(receiver.received.filter((delivery) => delivery.path === path).map((delivery) => JSON.parse(delivery.body).type)).toEqual(['task.deleted']);
  });

  it('a receiver answering 500 three times then 200 gets the same webhook-id every time; the log shows 4 attempts and success', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    receiver.answer(path, (_delivery, nth) => (nth <= 3 ? 500 : 200));
    await client.createTask({ title: 'retried' });
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the fourth attempt');
    const attempts = receiver.received.filter((delivery) => delivery.path === path);
    expect(attempts.map((delivery) => delivery.answered)).toEqual([500, 500, 500, 200]);
    expect(new Set(attempts.map((delivery) => delivery.id)).size).toBe(1);
    for (const attempt of attempts) await verifiedBoth(attempt, hook.secret);
    await expect.poll(async () => (await client.listWebhookDeliveries(hook.id)).data!.items).toEqual([
      expect.objectContaining({ eventId: attempts[0]!.id, eventType: 'task.created', status: 'succeeded', attempts: 4, lastStatusCode: 200, lastError: null }),
    ]);
  });

  it('while retrying, the log says pending with the next attempt time, the status code and a short reason of ours (never the body)', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    receiver.answer(path, () => 503);
    await client.updateWebhook(hook.id, { enabled: true });
    await client.createTask({ title: 'failing' });
    await receiver.waitFor(() => receiver.received.filter((delivery) => delivery.path === path).length >= 2, 'two attempts');
    const [delivery] = (await client.listWebhookDeliveries(hook.id)).data!.items;
    expect(delivery).toMatchObject({ lastStatusCode: 503, lastError: 'The receiver answered 503.' });
    expect(JSON.stringify(delivery)).not.toContain('answer 503');
    receiver.answer(path, () => 200);
  });

  it('a 410 disables the webhook at once: later events are not sent until PATCH enabled: true', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    receiver.answer(path, () => 410);
    await client.createTask({ title: 'gone' });
    await expect.poll(async () => (await client.getWebhook(hook.id)).data!).toMatchObject({ enabled: false, disabledReason: expect.stringContaining('410') });
    expect(receiver.received.filter((delivery) => delivery.path === path)).toHaveLength(1);
    const [failed] = (await client.listWebhookDeliveries(hook.id)).data!.items;
    expect(failed).toMatchObject({ status: 'failed', attempts: 1, lastStatusCode: 410 });

    receiver.answer(path, () => 200);
    await client.createTask({ title: 'while off' });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(receiver.received.filter((delivery) => delivery.path === path)).toHaveLength(1);

    expect((await client.updateWebhook(hook.id, { enabled: true })).data).toMatchObject({ enabled: true, disabledReason: null });
    const back = (await client.createTask({ title: 'back on' })).data!;
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the event after re-enabling');
    expect(JSON.parse(receiver.accepted(path)[0]!.body).data.id).toBe(back.id);
  });

  it('redelivery sends the same event again (same webhook-id) as a new entry at the top of the log', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    await client.createTask({ title: 'again' });
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the first delivery');
    await expect.poll(async () => (await client.listWebhookDeliveries(hook.id)).data!.items[0]?.status).toBe('succeeded');
    const [original] = (await client.listWebhookDeliveries(hook.id)).data!.items;

    const redelivered = await client.redeliverWebhookDelivery(hook.id, original!.id);
    expect(redelivered.response.status).toBe(202);
    expect(redelivered.data).toMatchObject({ eventId: original!.eventId, status: 'pending' });
    expect(redelivered.data!.id).not.toBe(original!.id);
    await receiver.waitFor(() => receiver.accepted(path).length === 2, 'the redelivery');
    const [first, second] = receiver.accepted(path);
    expect(second!.id).toBe(first!.id);
    expect(second!.body).toBe(first!.body);
    await verifiedBoth(second!, hook.secret);
    const log = (await client.listWebhookDeliveries(hook.id)).data!.items;
    expect(log.map((entry) => entry.id)).toEqual([redelivered.data!.id, original!.id]);
  });

  it('the log pages newest first and refuses a cursor it did not issue', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    for (let i = 0; i < 5; i++) await client.createTask({ title: `paged ${i}` });
    await receiver.waitFor(() => receiver.accepted(path).length === 5, 'five deliveries');
    const first = (await client.listWebhookDeliveries(hook.id, { limit: 2 })).data!;
    const second = (await client.listWebhookDeliveries(hook.id, { limit: 2, cursor: first.nextCursor! })).data!;
    const third = (await client.listWebhookDeliveries(hook.id, { limit: 2, cursor: second.nextCursor! })).data!;
    expect(third.nextCursor).toBeNull();
    const all = [...first.items, ...second.items, ...third.items];
    expect(all).toHaveLength(5);
    expect(new Set(all.map((entry) => entry.id)).size).toBe(5);
    const times = all.map((entry) => Date.parse(entry.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const titles = await Promise.all(all.map(async (entry) => JSON.parse(receiver.accepted(path).find((d) => d.id === entry.eventId)!.body).data.title));
    expect(titles).toEqual(['paged 4', 'paged 3', 'paged 2', 'paged 1', 'paged 0']);
    const bad = await client.listWebhookDeliveries(hook.id, { cursor: 'not-ours' });
    expect(bad.error!.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/query/cursor' }] });
  });

  it('after a rotation each delivery carries two signatures: the old secret and the new one both verify it', async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    const rotated = (await client.rotateWebhookSecret(hook.id)).data!;
    await client.createTask({ title: 'rotated' });
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the delivery');
    const delivery = receiver.accepted(path)[0]!;
    expect(String(delivery.headers['webhook-signature']).split(' ')).toHaveLength(2);
    await verifiedBoth(delivery, rotated.secret);
    await verifiedBoth(delivery, hook.secret);
    await expect(verifyWebhook(delivery.body, delivery.headers as Record<string, string>, `whsec_${Buffer.alloc(32, 7).toString('base64')}`)).rejects.toThrow(/No signature/);
  });

  it("the SDK's verifier refuses a changed body and a timestamp over 5 minutes old", async () => {
    const { client, hook, path } = await subscribed(['task.created']);
    await client.createTask({ title: 'tamper' });
    await receiver.waitFor(() => receiver.accepted(path).length === 1, 'the delivery');
    const delivery = receiver.accepted(path)[0]!;
    const headers = delivery.headers as Record<string, string>;
    await expect(verifyWebhook(delivery.body.replace('tamper', 'tampered'), headers, hook.secret)).rejects.toThrow(/No signature/);
    const later = () => (Number(headers['webhook-timestamp']) + 301) * 1000;
    await expect(verifyWebhook(delivery.body, headers, hook.secret, { now: later })).rejects.toThrow(/too far/);
    expect(await verifyWebhook(delivery.body, headers, hook.secret, { now: () => (Number(headers['webhook-timestamp']) + 299) * 1000 })).toMatchObject({ type: 'task.created' });
  });
});

describe('failing for good', () => {
  let fast: TestServer;
  beforeAll(async () => {
    // The whole day of retries in about a second.
    fast = await startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCALE: '0.00001' } });
  });
  afterAll(async () => {
    await fast?.stop();
  });

  it('a delivery is tried 8 times and then failed; 20 failed deliveries in a row disable the webhook', async () => {
    const { client } = await signedInClient(fast);
    const path = '/always-500';
    receiver.answer(path, () => 500);
    const hook = (await client.createWebhook({ url: receiver.url(path), events: ['task.created'] })).data!;
    for (let i = 0; i < 19; i++) await client.createTask({ title: `doomed ${i}` });
    await expect
      .poll(async () => (await client.listWebhookDeliveries(hook.id, { limit: 100 })).data!.items.filter((entry) => entry.status === 'failed').length, { timeout: 30_000, interval: 250 })
      .toBe(19);
    expect((await client.getWebhook(hook.id)).data!.enabled).toBe(true);
    const log = (await client.listWebhookDeliveries(hook.id, { limit: 100 })).data!.items;
    for (const entry of log) expect(entry).toMatchObject({ status: 'failed', attempts: 8, lastStatusCode: 500, nextAttemptAt: null });

    await client.createTask({ title: 'the twentieth' });
    await expect
      .poll(async () => (await client.getWebhook(hook.id)).data!, { timeout: 30_000, interval: 250 })
      .toMatchObject({ enabled: false, disabledReason: expect.stringContaining('20') });
    const sent = receiver.received.filter((delivery) => delivery.path === path).length;
    expect(sent).toBe(20 * 8);
  });
});
