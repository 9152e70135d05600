import { LRUCache } from 'lru-cache';
import type { OAuthClient } from './clients.service.js';

/** The document of an https URL, fetched the way the connectors fetch (no private addresses, capped, redirects re-checked). */
export type FetchDocument = (url: string) => Promise<{ status: number; headers: Record<string, string>; body: Buffer }>;

/** What a metadata document's checks say: a client, or why not (for the page and the log). */
export type DocumentOutcome = { ok: true; client: OAuthClient } | { ok: false; reason: string };

export interface ClientMetadataDocuments {
  /** Whether a client_id is a metadata document's URL (https, a path, no fragment or user info). */
  isDocumentUrl: (clientId: string) => boolean;
  /** The client its document describes, from the cache while its HTTP caching headers allow. */
  find: (clientId: string) => Promise<DocumentOutcome>;
}

const KEPT_DOCUMENTS = 1_000;
/** However long a document asks to be kept, it is fetched again after a day. */
const MAX_KEEP_SECONDS = 86_400;

/**
 * OAuth Client ID Metadata Documents (docs/signing-in.md): a client_id that is an https URL names a JSON
 * document of RFC 7591 metadata at that URL. It describes that client only if its `client_id` is the
 * URL itself; its redirect URIs bind as registered ones do. `check` applies the registration rules.
 */
export function createClientMetadataDocuments(
  fetchDocument: FetchDocument,
  check: (metadata: Record<string, unknown>) => { redirectUris: string[]; scopes: OAuthClient['scopes']; name: string | undefined },
  clock: () => number = Date.now,
): ClientMetadataDocuments {
  const cache = new LRUCache<string, { client: OAuthClient; expiresAtMs: number }>({ max: KEPT_DOCUMENTS });

  const load = async (url: string): Promise<DocumentOutcome> => {
    let response: Awaited<ReturnType<FetchDocument>>;
    try {
      response = await fetchDocument(url);
    } catch (err) {
      return { ok: false, reason: `its metadata document could not be fetched (${err instanceof Error ? err.message : 'failed'})` };
    }
    if (response.status !== 200) return { ok: false, reason: `its metadata document answered HTTP ${response.status}` };
    let metadata: unknown;
    try {
      metadata = JSON.parse(response.body.toString('utf8'));
    } catch {
      return { ok: false, reason: 'its metadata document is not JSON' };
    }
    if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) return { ok: false, reason: 'its metadata document is not a JSON object' };
    const document = metadata as Record<string, unknown>;
    if (document.client_id !== url) return { ok: false, reason: 'its metadata document names another client_id than its own URL' };
    if ('client_secret' in document) return { ok: false, reason: 'its metadata document holds a client_secret' };
    let checked: ReturnType<typeof check>;
    try {
      checked = check(document);
    } catch (err) {
      return { ok: false, reason: `its metadata document is refused: ${err instanceof Error ? err.message : 'invalid'}` };
    }
    const client: OAuthClient = { id: url, name: checked.name ?? null, redirectUris: checked.redirectUris, scopes: checked.scopes };
    const keepSeconds = freshnessSeconds(response.headers, clock());
    if (keepSeconds > 0) cache.set(url, { client, expiresAtMs: clock() + keepSeconds * 1000 }, { ttl: keepSeconds * 1000 });
    return { ok: true, client };
  };

  return {
    isDocumentUrl,
    find: async (clientId) => {
      const cached = cache.get(clientId);
      if (cached && clock() < cached.expiresAtMs) return { ok: true, client: cached.client };
      return load(clientId);
    },
  };
}

/** Client ids are stored in columns of 255 characters, as the document's client_id parameters say. */
const MAX_CLIENT_ID_LENGTH = 255;

export function isDocumentUrl(clientId: string): boolean {
  if (!clientId.startsWith('https://') || clientId.length > MAX_CLIENT_ID_LENGTH) return false;
  const url = URL.parse(clientId);
  return url !== null && url.pathname !== '/' && url.hash === '' && !clientId.includes('#') && url.username === '' && url.password === '';
}

/** RFC 9111 freshness: `no-store`/`no-cache` keep nothing, then `max-age`, then `Expires` against `Date`. */
export function freshnessSeconds(headers: Record<string, string>, nowMs: number): number {
  const directives = (headers['cache-control'] ?? '').toLowerCase().split(',').map((part) => part.trim());
  if (directives.some((directive) => directive === 'no-store' || directive === 'no-cache' || directive === 'private')) return 0;
  const maxAge = directives.find((directive) => directive.startsWith('max-age='));
  if (maxAge) {
    const seconds = Number(maxAge.slice('max-age='.length));
    return Number.isInteger(seconds) && seconds > 0 ? Math.min(seconds, MAX_KEEP_SECONDS) : 0;
  }
  const expires = Date.parse(headers.expires ?? '');
  if (Number.isNaN(expires)) return 0;
  const date = Date.parse(headers.date ?? '');
  const seconds = Math.floor((expires - (Number.isNaN(date) ? nowMs : date)) / 1000);
  return seconds > 0 ? Math.min(seconds, MAX_KEEP_SECONDS) : 0;
}
