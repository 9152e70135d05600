import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTaskClient } from './client.js';

// A server of a later minor version, on 127.0.0.1: it answers values the open enums of this SDK's
// contract (x-open-enum in openapi/openapi.yaml, docs/versioning.md) do not list yet. The real
// server never sends such a value, so this is the one place a stand-in answers.
const ANSWERS: Record<string, { status: number; body: unknown }> = {
  '/tasks/6f1c2b3a-0000-4000-8000-000000000001': { status: 409, body: { statusCode: 409, code: 'TASK_ARCHIVED', message: 'The task is archived.' } },
  '/connectors': { status: 200, body: { items: [{ type: 'jira', name: 'Jira issues', maxAccounts: 5 }] } },
  '/webhooks/6f1c2b3a-0000-4000-8000-000000000002/deliveries': {
    status: 200,
    body: {
      items: [
        { id: '6f1c2b3a-0000-4000-8000-000000000003', eventId: 'msg_1', eventType: 'task.archived', status: 'succeeded', attempts: 1, createdAt: '2026-11-25T12:00:00.000Z', lastAttemptAt: '2026-11-25T12:00:00.000Z', nextAttemptAt: null, lastStatusCode: 200, lastError: null },
      ],
      nextCursor: null,
    },
  },
};

let server: Server;
let baseUrl: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    const answer = ANSWERS[new URL(req.url ?? '/', 'http://127.0.0.1').pathname] ?? { status: 404, body: { statusCode: 404, code: 'NOT_FOUND', message: 'No.' } };
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('values a later minor version adds to an open enum', () => {
  const client = () => createTaskClient({ baseUrl, accessToken: 'test-token' });

  it('an unknown error code is UNKNOWN, with the status, message and the code as sent', async () => {
    const { error } = await client().getTask('6f1c2b3a-0000-4000-8000-000000000001');
    expect(error).toMatchObject({ name: 'TaskApiError', status: 409, code: 'UNKNOWN', message: 'The task is archived.' });
    expect(error?.body?.code).toBe('TASK_ARCHIVED');
  });

  it('a known error code stays itself', async () => {
    const { error } = await client().getTask('6f1c2b3a-0000-4000-8000-00000000ffff');
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('an unknown connector type and an unknown webhook event type are data like any other', async () => {
    expect((await client().listConnectors()).data).toEqual({ items: [{ type: 'jira', name: 'Jira issues', maxAccounts: 5 }] });
    const deliveries = await client().listWebhookDeliveries('6f1c2b3a-0000-4000-8000-000000000002');
    expect(deliveries.data?.items[0]?.eventType).toBe('task.archived');
  });
});
