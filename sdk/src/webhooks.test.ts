import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, WebhookVerificationError } from './webhooks.js';

const secret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
const other = `whsec_${Buffer.alloc(32, 3).toString('base64')}`;
const sign = (key: string, id: string, timestamp: number, body: string) =>
  `v1,${createHmac('sha256', Buffer.from(key.slice(6), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`;

function delivery(body = '{"type":"webhook.ping","timestamp":"2026-11-25T12:00:00.000Z","data":{"webhookId":"w"}}', keys = [secret], at = Date.now()) {
  const timestamp = Math.floor(at / 1000);
  return { body, headers: { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': keys.map((key) => sign(key, 'msg_1', timestamp, body)).join(' ') } };
}

describe('verifyWebhook', () => {
  it('returns the parsed body of a genuine delivery, from a string, bytes, a Headers object or Node headers', async () => {
    const { body, headers } = delivery();
    expect(await verifyWebhook(body, headers, secret)).toMatchObject({ type: 'webhook.ping' });
    expect(await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).toMatchObject({ type: 'webhook.ping' });
    expect(await verifyWebhook(body, { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'webhook-signature': [headers['webhook-signature']] }, secret)).toMatchObject({ type: 'webhook.ping' });
  });

  it('refuses a changed body, a wrong secret and missing headers', async () => {
    const { body, headers } = delivery();
    await expect(verifyWebhook(`${body} `, headers, secret)).rejects.toBeInstanceOf(WebhookVerificationError);
    await expect(verifyWebhook(body, headers, other)).rejects.toThrow(/No signature/);
    await expect(verifyWebhook(body, { 'webhook-id': 'msg_1' }, secret)).rejects.toThrow(/Missing/);
  });

  it('allows 5 minutes either way, no more', async () => {
    const { body, headers } = delivery(undefined, [secret], Date.UTC(2026, 0, 1));
    const at = (seconds: number) => ({ now: () => Date.UTC(2026, 0, 1) + seconds * 1000 });
    expect(await verifyWebhook(body, headers, secret, at(300))).toBeTruthy();
    expect(await verifyWebhook(body, headers, secret, at(-300))).toBeTruthy();
    await expect(verifyWebhook(body, headers, secret, at(301))).rejects.toThrow(/too far/);
    await expect(verifyWebhook(body, headers, secret, at(-301))).rejects.toThrow(/too far/);
  });

  it('during a rotation either secret verifies the two-signature header, and a list of secrets is tried in turn', async () => {
    const { body, headers } = delivery(undefined, [secret, other]);
    expect(await verifyWebhook(body, headers, secret)).toBeTruthy();
    expect(await verifyWebhook(body, headers, other)).toBeTruthy();
    const onlyNew = delivery(undefined, [other]);
    expect(await verifyWebhook(onlyNew.body, onlyNew.headers, [secret, other])).toBeTruthy();
  });
});
