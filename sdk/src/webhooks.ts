import type { components } from './api.js';

type Schemas = components['schemas'];

/** The body of any event the service delivers: `{ type, timestamp, data }` (docs/webhooks.md). */
export type WebhookEventPayload =
  | Schemas['TaskEvent']
  | Schemas['TaskDeletedEvent']
  | Schemas['SyncJobFinishedEvent']
  | Schemas['ConnectorAccountEvent']
  | Schemas['WebhookPingEvent'];

/** Headers as Node (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

export interface VerifyWebhookOptions {
  /** How far `webhook-timestamp` may be from now, either way (default 300 s: replayed requests are refused). */
  toleranceSeconds?: number;
  /** Unix milliseconds now (tests). */
  now?: () => number;
}

/** Why a request is not a genuine, fresh delivery; answer it with 400 (or 401) and do not act on it. */
export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const SECRET_PREFIX = 'whsec_';

/**
 * Checks a delivery as Standard Webhooks has it and returns its parsed body: the `webhook-signature`
 * must hold a `v1` HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` made with the secret, and the
 * timestamp must be within 5 minutes of now. Pass the raw body, exactly as received (not re-serialised
 * JSON). During a secret rotation a delivery carries two signatures, so either secret verifies it; pass
 * both (`[newSecret, oldSecret]`) while you switch over. Works wherever WebCrypto does (Node 20+, browsers,
 * edge runtimes).
 */
export async function verifyWebhook<T = WebhookEventPayload>(
  body: string | Uint8Array,
  headers: WebhookHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<T> {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('Missing webhook-id, webhook-timestamp or webhook-signature header.');
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('The webhook-timestamp header is not Unix seconds.');
  const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  if (Math.abs(now - Number(timestamp)) > tolerance) throw new WebhookVerificationError('The webhook-timestamp is too far from now (a replay?).');

  const bodyBytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  const signed = concat(new TextEncoder().encode(`${id}.${timestamp}.`), bodyBytes);
  const offered = signatures
    .split(' ')
    .map((entry) => entry.split(','))
    .filter((parts) => parts[0] === 'v1' && parts[1])
    .map((parts) => parts[1]!);
  for (const candidate of typeof secret === 'string' ? [secret] : secret) {
    const expected = await hmacBase64(secretBytes(candidate), signed);
    if (offered.some((signature) => sameText(signature, expected))) return JSON.parse(new TextDecoder().decode(bodyBytes)) as T;
  }
  throw new WebhookVerificationError('No signature matches the secret.');
}

function header(headers: WebhookHeaders, name: string): string | undefined {
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Record<string, string | string[] | undefined>;
  const key = Object.keys(record).find((candidate) => candidate.toLowerCase() === name);
  const value = key === undefined ? undefined : record[key];
  return Array.isArray(value) ? value.join(' ') : value;
}

function secretBytes(secret: string): Uint8Array<ArrayBuffer> {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const binary = atob(encoded);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

async function hmacBase64(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, data));
  let binary = '';
  for (const byte of mac) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array<ArrayBuffer> {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Compares in time independent of where the texts first differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
