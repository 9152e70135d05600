import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { newEventId, newWebhookSecret, signatureHeader } from './webhook-signing.js';

describe('signing deliveries as Standard Webhooks has it', () => {
  it('a secret is whsec_ and base64 of 32 random bytes, never the same twice', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(secret);
  });

  it('the reference library verifies our signature, and refuses it for another body or secret', () => {
    const secret = newWebhookSecret();
    const id = newEventId();
    const timestamp = Math.floor(Date.now() / 1000);
    const body = JSON.stringify({ type: 'task.created', timestamp: new Date().toISOString(), data: { id: 'x', title: 'Ünïcode ✓' } });
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': signatureHeader([secret], id, timestamp, body) };
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(body.replace('x', 'y'), headers)).toThrow();
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
  });

  it('during a rotation the header holds one signature per secret, each verifiable with its own secret', () => {
    const [current, previous] = [newWebhookSecret(), newWebhookSecret()];
    const timestamp = Math.floor(Date.now() / 1000);
    const header = signatureHeader([current, previous], 'msg_1', timestamp, '{}');
    expect(header.split(' ')).toHaveLength(2);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(timestamp), 'webhook-signature': header };
    expect(new Webhook(current).verify('{}', headers)).toEqual({});
    expect(new Webhook(previous).verify('{}', headers)).toEqual({});
  });
});
