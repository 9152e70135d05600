import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { parseCookie, stringifySetCookie } from 'cookie';

/**
 * CSRF protection of the consent form: a double-submit cookie whose value is also bound, with an HMAC,
 * to the authorisation parameters the page was rendered for. A forged post needs the cookie (which
 * another site can neither read nor send: HttpOnly, SameSite=Strict) and cannot move a token minted
 * for one client, redirect URI or scope to another.
 */
export const CSRF_COOKIE = 'oauth_csrf';
export const CSRF_LIFETIME_SECONDS = 600;
const NONCE = /^[A-Za-z0-9_-]{43}$/;

export interface Csrf {
  /** A new cookie value, or the request's own when it has a good one (two tabs do not undo each other). */
  nonceFor: (cookieHeader: string | undefined) => string;
  mint: (nonce: string, params: readonly (string | undefined)[], now?: number) => string;
  verify: (cookieHeader: string | undefined, token: string | undefined, params: readonly (string | undefined)[], now?: number) => boolean;
  /** The Set-Cookie value for a nonce. */
  cookie: (nonce: string, secure: boolean) => string;
}

export function createCsrf(key: Buffer): Csrf {
  const mac = (nonce: string, issuedAt: number, params: readonly (string | undefined)[]) =>
    createHmac('sha256', key)
      .update(JSON.stringify([nonce, issuedAt, params.map((value) => value ?? null)]))
      .digest('base64url');

  return {
    nonceFor: (cookieHeader) => {
      const existing = readCookie(cookieHeader, CSRF_COOKIE);
      return existing !== undefined && NONCE.test(existing) ? existing : randomBytes(32).toString('base64url');
    },

    mint: (nonce, params, now = Date.now()) => {
      const issuedAt = Math.floor(now / 1000);
      return `${issuedAt}.${mac(nonce, issuedAt, params)}`;
    },

    verify: (cookieHeader, token, params, now = Date.now()) => {
      const nonce = readCookie(cookieHeader, CSRF_COOKIE);
      if (nonce === undefined || !NONCE.test(nonce) || !token) return false;
      const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match) return false;
      const issuedAt = Number(match[1]);
      const age = Math.floor(now / 1000) - issuedAt;
      if (age < 0 || age > CSRF_LIFETIME_SECONDS) return false;
      return timingSafeEqual(Buffer.from(match[2]!), Buffer.from(mac(nonce, issuedAt, params)));
    },

    // No Path: it defaults to the page's folder (/oauth, or under a proxy's prefix), where the form posts.
    // Secure goes last, where it has always been (the library would put it before SameSite).
    cookie: (nonce, secure) =>
      stringifySetCookie(CSRF_COOKIE, nonce, { maxAge: CSRF_LIFETIME_SECONDS, httpOnly: true, sameSite: 'strict' }) + (secure ? '; Secure' : ''),
  };
}

/** Derives the CSRF key from the server's signing secret: its own key, useless for signing tokens. */
export function csrfKey(signingSecret: string): Buffer {
  return createHmac('sha256', signingSecret).update('task-service/oauth-consent-csrf/v1').digest();
}

/** The first cookie of that name, as sent: a nonce is base64url, so nothing is percent-decoded. */
function readCookie(header: string | undefined, name: string): string | undefined {
  return header ? parseCookie(header, { decode: (value) => value })[name] : undefined;
}
