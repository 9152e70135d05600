import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request } from 'express';
import { AppError } from '../platform/errors.js';

/**
 * The refresh cookie of a cookie session (the first-party web app, docs/signing-in.md#cookie-session).
 * Over https it is `__Host-refresh` with `Path=/`: the `__Host-` prefix (RFC 6265bis §4.1.3.2) keeps a
 * sibling subdomain from planting or shadowing it, and browsers drop a `__Host-` cookie with any other
 * Path. Over plain http (development) it is `refresh` with `Path=/auth`, the only paths that read it.
 */
export interface WebSessionCookie {
  /** Refuses (403 ORIGIN_NOT_ALLOWED) a request that may not set or use the cookie: foreign or missing Origin, or not JSON. */
  checkSameOrigin: (req: Request) => void;
  /** The refresh token the request's cookie carries, after `checkSameOrigin` (asked only when there is a cookie); undefined without one. */
  read: (req: Request) => string | undefined;
  /** The cookie's token without the checks, for what only keys on it (the refresh budget). */
  peek: (req: Request) => string | undefined;
  /** The Set-Cookie value that holds `refreshToken` for `maxAgeSeconds`. */
  set: (req: Request, refreshToken: string, maxAgeSeconds: number) => string;
  /** The Set-Cookie value that removes the cookie. */
  clear: (req: Request) => string;
}

const SECURE_NAME = '__Host-refresh';
const PLAIN_NAME = 'refresh';
/** Longer than any refresh token we issue (the document's maxLength): not worth a database look-up. */
const MAX_TOKEN_LENGTH = 512;

export function createWebSessionCookie(publicUrl: string | undefined): WebSessionCookie {
  const configured = publicUrl === undefined ? undefined : new URL(publicUrl);
  const isSecure = (req: Request) => (configured ? configured.protocol === 'https:' : req.protocol === 'https');
  // Without PUBLIC_URL, the origin the request came to (docs/production.md asks for PUBLIC_URL behind a proxy).
  const ownOrigin = (req: Request) => configured?.origin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
  const attributes = (req: Request) =>
    isSecure(req)
      ? { name: SECURE_NAME, options: { path: '/', httpOnly: true, secure: true, sameSite: 'strict' as const } }
      : { name: PLAIN_NAME, options: { path: '/auth', httpOnly: true, sameSite: 'strict' as const } };

  const checkSameOrigin = (req: Request) => {
    const origin = req.get('origin');
    if (!isJson(req.get('content-type')) || origin === undefined || origin !== ownOrigin(req)) {
      throw new AppError(
        403,
        'ORIGIN_NOT_ALLOWED',
        `The refresh cookie is only set and read on an application/json request from this service's own origin (${ownOrigin(req)}).`,
      );
    }
  };

  const peek = (req: Request) => {
    const header = req.headers.cookie;
    // base64url tokens: nothing to percent-decode; the first cookie of the name, as the browser orders them.
    const token = header ? parseCookie(header, { decode: (value) => value })[attributes(req).name] : undefined;
    return token === undefined || token.length === 0 || token.length > MAX_TOKEN_LENGTH ? undefined : token;
  };

  return {
    checkSameOrigin,
    read: (req) => {
      const token = peek(req);
      if (token !== undefined) checkSameOrigin(req);
      return token;
    },
    peek,
    set: (req, refreshToken, maxAgeSeconds) => {
      const { name, options } = attributes(req);
      return stringifySetCookie(name, refreshToken, { ...options, maxAge: maxAgeSeconds, encode: (value) => value });
    },
    clear: (req) => {
      const { name, options } = attributes(req);
      return stringifySetCookie(name, '', { ...options, maxAge: 0 });
    },
  };
}

/** `application/json`, parameters (charset) allowed; a form or text/plain post, which a page of another site can send without asking, is not. */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && contentType.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
