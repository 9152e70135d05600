import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request, type Dispatcher } from 'undici';
import { refusedAddressReason } from './address-policy.js';

/** The whole exchange (connect, redirects, headers and body) must finish within this. */
export const OUTBOUND_TIMEOUT_MS = 10_000;
export const OUTBOUND_MAX_BYTES = 10 * 1024 * 1024;
const MAX_REDIRECTS = 5;
const USER_AGENT = 'task-service-connectors/0.1 (+https://github.com/task-service)';

export type OutboundFailure = 'blocked-address' | 'timeout' | 'too-large' | 'unreachable' | 'too-many-redirects' | 'unsupported-url';

/** A provider call that did not produce a response; the message names the address without its query. */
export class OutboundError extends Error {
  constructor(
    readonly failure: OutboundFailure,
    message: string,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface OutboundResponse {
  status: number;
  /** The address that answered, after redirects. */
  url: URL;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

export interface OutboundRequest {
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface OutboundPost extends OutboundRequest {
  body: string;
}

export interface SafeFetch {
  /** GET with our own redirect handling (every hop re-checked), a deadline and a size cap. */
  get: (url: URL | string, init?: OutboundRequest) => Promise<OutboundResponse>;
  /**
   * One POST under the same address policy and deadline; a redirect is answered as it came, never
   * followed (webhooks, docs/webhooks.md). Only the status is kept: the body is drained unread.
   */
  post: (url: URL | string, init: OutboundPost) => Promise<{ status: number }>;
  close: () => Promise<void>;
}

export interface SafeFetchOptions {
  allowPrivateNetworks: boolean;
  /**
   * Connect to loopback IP literals (127.0.0.0/8, ::1) only and refuse every other address, host names
   * included, before any DNS lookup: for conformance runs and tests against local fakes, which must
   * never reach anything else whatever address they are given.
   */
  loopbackOnly?: boolean;
  /** Tighter caps than the connectors' (small documents such as OAuth client metadata); the policy is always address-policy.ts's. */
  timeoutMs?: number;
  maxBytes?: number;
  addressPolicy?: AddressPolicy;
  /** Connections kept per origin (default 16). */
  connections?: number;
}

/** Why an address is refused, or null to allow it. */
export type AddressPolicy = (address: string) => string | null;

/** An address for messages and logs: scheme, host and path, never user info or query (feed secrets live there). */
export function redactUrl(url: URL | string): string {
  const parsed = typeof url === 'string' ? URL.parse(url) : url;
  if (!parsed) return '(an invalid address)';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

export function createSafeFetch(options: SafeFetchOptions): SafeFetch {
  const timeoutMs = options.timeoutMs ?? OUTBOUND_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? OUTBOUND_MAX_BYTES;
  const policy = options.addressPolicy ?? refusedAddressReason;
  const dispatcher = new Agent({
    connect: options.allowPrivateNetworks ? {} : { lookup: guardedLookup(policy) },
    keepAliveTimeout: 4_000,
    connections: options.connections ?? 16,
  });

  async function get(target: URL | string, init: OutboundRequest = {}): Promise<OutboundResponse> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    let url = toHttpUrl(target);
    let headers: Record<string, string> = { 'user-agent': USER_AGENT, ...lowerCaseKeys(init.headers ?? {}) };
    try {
      for (let hop = 0; ; hop++) {
        if (options.loopbackOnly) refuseAllButLoopback(url);
        if (!options.allowPrivateNetworks) refuseLiteralAddress(url, policy);
        const response = await request(url, { method: 'GET', headers, signal, dispatcher });
        const location = headerValue(response.headers.location);
        if (isRedirect(response.statusCode) && location) {
          await response.body.dump();
          if (hop >= MAX_REDIRECTS) {
            throw new OutboundError('too-many-redirects', `${redactUrl(url)} redirected more than ${MAX_REDIRECTS} times.`);
          }
          const next = toHttpUrl(new URL(location, url));
          // As browsers do: credentials meant for one origin never follow a redirect to another.
          if (next.origin !== url.origin) headers = withoutAuthorization(headers);
          url = next;
          continue;
        }
        const body = await readCapped(response, url, maxBytes);
        return { status: response.statusCode, url, headers: flattenHeaders(response.headers), body };
      }
    } catch (err) {
      throw translateError(err, url, { deadline, caller: init.signal, timeoutMs });
    }
  }

  async function post(target: URL | string, init: OutboundPost): Promise<{ status: number }> {
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    const url = toHttpUrl(target);
    const headers = { 'user-agent': USER_AGENT, ...lowerCaseKeys(init.headers ?? {}) };
    try {
      if (options.loopbackOnly) refuseAllButLoopback(url);
      if (!options.allowPrivateNetworks) refuseLiteralAddress(url, policy);
      const response = await request(url, { method: 'POST', headers, body: init.body, signal, dispatcher });
      discard(response.body);
      return { status: response.statusCode };
    } catch (err) {
      throw translateError(err, url, { deadline, caller: init.signal, timeoutMs });
    }
  }

  return { get, post, close: () => dispatcher.close() };
}

class RefusedAddressError extends Error {
  constructor(host: string, address: string, reason: string) {
    const shown = host === address ? address : `${host} (${address})`;
    super(`${shown} is ${reason}; this server only connects to public internet addresses.`);
    this.name = 'RefusedAddressError';
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Resolves, then refuses if any answer is not public: checked at connect time, so DNS rebinding cannot slip past. */
function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      for (const { address } of addresses) {
        const reason = policy(address);
        if (reason) return callback(new RefusedAddressError(hostname, address, reason), []);
      }
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      if (options.all) return callback(null, addresses);
      return callback(null, first.address, first.family);
    });
  };
}

/** Literal IP hosts never reach the lookup function, so they are judged here. */
function refuseLiteralAddress(url: URL, policy: AddressPolicy): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) === 0) return;
  const reason = policy(host);
  if (reason) throw new RefusedAddressError(host, host, reason);
}

function refuseAllButLoopback(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0 && refusedAddressReason(host) === 'a loopback address') return;
  throw new OutboundError('blocked-address', `${redactUrl(url)} is not allowed: this server connects to loopback addresses only (OUTBOUND_LOOPBACK_ONLY).`);
}

function toHttpUrl(target: URL | string): URL {
  const url = typeof target === 'string' ? URL.parse(target) : target;
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new OutboundError('unsupported-url', `${url ? redactUrl(url) : 'The address'} is not an http or https address.`);
  }
  const clean = new URL(url);
  clean.username = '';
  clean.password = '';
  clean.hash = '';
  return clean;
}

const isRedirect = (status: number) => status === 301 || status === 302 || status === 303 || status === 307 || status === 308;

async function readCapped(response: Dispatcher.ResponseData, url: URL, maxBytes: number): Promise<Buffer> {
  const tooLarge = () => new OutboundError('too-large', `${redactUrl(url)} answered with more than ${formatBytes(maxBytes)}.`);
  const declared = Number(headerValue(response.headers['content-length']) ?? NaN);
  if (declared > maxBytes) {
    discard(response.body);
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      discard(response.body);
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Destroying emits an abort error; nobody else listens, so it must not become an uncaught exception. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

function translateError(
  err: unknown,
  url: URL,
  context: { deadline: AbortSignal; caller: AbortSignal | undefined; timeoutMs: number },
): unknown {
  if (err instanceof OutboundError) return err;
  if (context.caller?.aborted) return context.caller.reason;
  if (context.deadline.aborted) {
    return new OutboundError('timeout', `${redactUrl(url)} did not answer within ${context.timeoutMs / 1000} s.`);
  }
  const refused = findCause(err, (cause) => cause instanceof RefusedAddressError);
  if (refused) return new OutboundError('blocked-address', `${redactUrl(url)} is not allowed: ${refused.message}`);
  const code = (findCause(err, (cause) => typeof (cause as { code?: unknown }).code === 'string') as { code?: string } | undefined)?.code;
  return new OutboundError('unreachable', `${redactUrl(url)} could not be reached${code ? ` (${code})` : ''}.`);
}

function findCause(err: unknown, test: (cause: Error) => boolean): Error | undefined {
  for (let current = err, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (test(current)) return current;
  }
  return undefined;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const joined = headerValue(value);
    if (joined !== undefined) flat[name.toLowerCase()] = joined;
  }
  return flat;
}

function lowerCaseKeys(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  const { authorization: _dropped, ...rest } = headers;
  return rest;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${bytes / (1024 * 1024)} MiB` : `${bytes} bytes`;
}
