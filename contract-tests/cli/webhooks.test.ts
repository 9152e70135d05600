import { verifyWebhook } from '@task-service/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliJson, newConfigDir, runCli, type CliOptions } from '../support/cli.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/fakes/webhook-receiver.fake.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  lastStatusCode: number | null;
}

let server: TestServer;
let receiver: WebhookReceiver;
let as: CliOptions;
beforeAll(async () => {
  [server, receiver] = await Promise.all([startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true' } }), startWebhookReceiver()]);
  const { client } = await signedInClient(server);
  const token = (await client.createApiToken({ name: 'cli', scopes: ['tasks:write', 'webhooks:manage'] })).data!.token;
  as = { configDir: newConfigDir(), server, env: { TASKCTL_TOKEN: token } };
});
afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
});

describe('taskctl webhooks', () => {
  it('creates (secret shown once), lists, pings, shows the deliveries and removes, with --json printing the API shapes', async () => {
    const created = await cliJson<{ id: string; secret: string; events: string[] }>(
      ['webhooks', 'create', receiver.url('/cli'), '--event', 'task.created', '--description', 'from the CLI'],
      as,
    );
    expect(created).toMatchObject({ events: ['task.created'], enabled: true, description: 'from the CLI' });
    expect(created.secret).toMatch(/^whsec_/);

    const listed = await cliJson<{ items: { id: string }[] }>(['webhooks', 'list'], as);
    expect(listed.items.map((item) => item.id)).toEqual([created.id]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const table = await runCli(['webhooks', 'list'], as);
    expect(table.stdout).toContain(created.id);
    expect(table.stdout).toContain(receiver.url('/cli'));

    const ping = await cliJson<Delivery>(['webhooks', 'ping', created.id], as);
    expect(ping).toMatchObject({ eventType: 'webhook.ping', status: 'pending' });
    await receiver.waitFor(() => receiver.accepted('/cli').length === 1, 'the ping');
    const arrived = receiver.accepted('/cli')[0]!;
    expect(await verifyWebhook(arrived.body, arrived.headers as Record<string, string>, created.secret)).toMatchObject({ type: 'webhook.ping' });

    await expect
      .poll(async () => (await cliJson<{ items: Delivery[] }>(['webhooks', 'deliveries', created.id], as)).items)
      .toEqual([expect.objectContaining({ id: ping.id, eventId: arrived.id, status: 'succeeded', attempts: 1, lastStatusCode: 200 })]);
    const log = await runCli(['webhooks', 'deliveries', created.id], as);
    expect(log.stdout).toMatch(/webhook\.ping\s+succeeded\s+1\s+200/);

    expect(await cliJson(['webhooks', 'rm', created.id], as)).toEqual({ id: created.id, deleted: true });
    expect((await cliJson<{ items: unknown[] }>(['webhooks', 'list'], as)).items).toEqual([]);
  });

  it('refuses an unknown event type as a usage error, and shows the server’s 400 for a plain-http URL', async () => {
    const unknown = await runCli(['webhooks', 'create', 'https://example.com/in', '--event', 'task.exploded'], as);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('task.exploded');
    const refused = await runCli(['webhooks', 'create', 'http://hooks.example.com/in'], as);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('must be https');
  });
});
