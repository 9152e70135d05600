import { createHmac, randomBytes, randomUUID } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';
const SECRET_BYTES = 32;

/** A new signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function newWebhookSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/**
 * A new event id, the `webhook-id` of every attempt of its deliveries. Every task write makes one,
 * subscribed or not: randomUUID draws from a pool of random bytes, randomBytes(16) asks the system
 * each time.
 */
export function newEventId(): string {
  return `msg_${randomUUID().replaceAll('-', '')}`;
}

/**
 * The `webhook-signature` header: `v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the
 * secret's bytes, one per secret, space-separated (the current secret first, then the one it replaced
 * while that still signs).
 */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  const content = `${id}.${timestamp}.${body}`;
  return secrets.map((secret) => `v1,${createHmac('sha256', secretKey(secret)).update(content).digest('base64')}`).join(' ');
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
}
