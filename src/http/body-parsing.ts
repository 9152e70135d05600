import type { IncomingMessage } from 'node:http';
import express, { type Request, type RequestHandler } from 'express';

export const BODY_LIMIT_BYTES = 1024 * 1024;
/** Sign-in, refresh and OAuth bodies: a few fields, far under this. */
export const SIGN_IN_BODY_LIMIT_BYTES = 16 * 1024;

const JSON_TYPES = ['application/json', 'application/*+json'];
/** JSON's escape of U+0000 (a raw NUL byte is not valid JSON at all) and its form encoding. */
const NUL_MARKERS = [Buffer.from('\\u0000'), Buffer.from('%00'), Buffer.from([0])];

declare module 'express-serve-static-core' {
  interface Request {
    /** Set when the raw body holds something that may decode to U+0000: only then is the parsed body searched. */
    bodyMayHoldNul?: boolean;
    /** The body was read (or refused) already: a second pass does nothing. */
    bodyRead?: boolean;
  }
}

/**
 * Reads and parses JSON and form bodies. The limiter runs before this (it needs only the headers), so
 * a refused request is never parsed; the sign-in, refresh and OAuth bodies get a small limit, which a
 * large Content-Length fails at once. With `when`, only the requests it picks are read (the refresh
 * budget is keyed by the body's token: that one is read before the limiter, which holds its error back).
 */
export function parseBodies(options: { when?: (req: Request) => boolean } = {}): RequestHandler {
  const large = parsersWithLimit(BODY_LIMIT_BYTES);
  const small = parsersWithLimit(SIGN_IN_BODY_LIMIT_BYTES);
  return (req, res, next) => {
    if (req.bodyRead || (options.when && !options.when(req))) return next();
    req.bodyRead = true;
    const [json, form] = isSignInPath(req.path) ? small : large;
    json(req, res, (jsonError?: unknown) => {
      if (jsonError) return next(jsonError);
      form(req, res, next);
    });
  };
}

/** The one request whose budget depends on its body: POST /auth/refresh (the path as Express routes it). */
export const isRefreshRequest = (req: Request): boolean => req.method === 'POST' && /^\/auth\/refresh\/*$/i.test(req.path);

/** The limit a body of this path is held to, in bytes. */
export const bodyLimitOf = (path: string): number => (isSignInPath(path) ? SIGN_IN_BODY_LIMIT_BYTES : BODY_LIMIT_BYTES);

const isSignInPath = (path: string) => /^\/(auth|oauth)\//i.test(path);

function parsersWithLimit(limit: number): [RequestHandler, RequestHandler] {
  return [
    express.json({ limit, type: JSON_TYPES, verify: noteNulMarkers }),
    express.urlencoded({ limit, extended: false, verify: noteNulMarkers }),
  ];
}

/** One pass over the raw bytes (memchr-fast); the parsed tree is walked only when this finds something. */
function noteNulMarkers(req: IncomingMessage, _res: unknown, raw: Buffer): void {
  if (NUL_MARKERS.some((marker) => raw.includes(marker))) (req as Request).bodyMayHoldNul = true;
}
