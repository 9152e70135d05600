/**
 * Redirect URIs of public clients (RFC 8252, OAuth 2.0 for native apps): where we may send a browser
 * back with a code. Checked once at registration, and matched exactly at every authorisation request,
 * except that a loopback URI's port may vary (RFC 8252 §7.3: the app listens on whatever port is free).
 */

export type RedirectUriCheck = { ok: true } | { ok: false; reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
// Reverse domain name of at least two labels (RFC 8252 §7.1), which also keeps out javascript:, data:, file:...
const PRIVATE_USE_SCHEME = /^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+:$/;

export function checkRedirectUri(uri: string): RedirectUriCheck {
  const url = parse(uri);
  if (!url) return { ok: false, reason: 'is not an absolute URI' };
  if (url.hash !== '' || uri.includes('#')) return { ok: false, reason: 'must not contain a fragment' };
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'must not contain user information' };
  if (url.protocol === 'https:') return { ok: true };
  if (url.protocol === 'http:') {
    return LOOPBACK_HOSTS.has(url.hostname) ? { ok: true } : { ok: false, reason: 'http redirect URIs must be on a loopback host (127.0.0.1, [::1], localhost)' };
  }
  if (PRIVATE_USE_SCHEME.test(url.protocol)) return { ok: true };
  return { ok: false, reason: 'must be https, loopback http, or a private-use scheme in reverse-domain form (com.example.app:/callback)' };
}

/** Whether a presented redirect URI is one of the registered ones. */
export function matchesRegisteredRedirectUri(presented: string, registered: readonly string[]): boolean {
  if (registered.includes(presented)) return true;
  const url = parse(presented);
  // Only a URI already in normal form gets the port relaxation: no `..`, case or escaping games.
  if (!url || !isLoopbackHttp(url) || url.href !== presented) return false;
  const withoutPort = portless(url);
  return registered.some((candidate) => {
    const registeredUrl = parse(candidate);
    return registeredUrl !== undefined && isLoopbackHttp(registeredUrl) && portless(registeredUrl) === withoutPort;
  });
}

/** The CSP source a form may be sent on to (`form-action`): the redirect URI's origin or scheme. */
export function redirectCspSource(uri: string): string {
  const url = parse(uri);
  if (!url) return "'none'";
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return url.protocol;
  // CSP host sources cannot name an IPv6 literal: fall back to the scheme for [::1].
  return url.hostname.startsWith('[') ? url.protocol : url.origin;
}

function parse(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

const isLoopbackHttp = (url: URL) => url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.username === '' && url.password === '';

function portless(url: URL): string {
  const copy = new URL(url.href);
  copy.port = '';
  return copy.href;
}
