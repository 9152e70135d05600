import cors from 'cors';
import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from './request-log.js';

/**
 * Browser apps on the allowed origins may call every route but the sign-in pages (http/routes.ts), with
 * bearer tokens, never cookies (no credentials mode). A preflight is answered 204 here, before the caller
 * is identified or a budget spent. The headers a client reads are exposed, the document's rate-limit ones included.
 */
export function corsHeaders(allowedOrigins: '*' | readonly string[], rateLimitHeaders: readonly string[]): RequestHandler {
  const exposedHeaders = ['Retry-After', 'Location', 'WWW-Authenticate', 'ETag', 'Deprecation', 'Sunset', 'Link', REQUEST_ID_HEADER, ...rateLimitHeaders];
  const handler = cors({
    origin: allowedOrigins === '*' ? '*' : [...allowedOrigins],
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    exposedHeaders,
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
    preflightContinue: false,
  });
  const exposed = exposedHeaders.join(',');
  // A call without an Origin (servers, scripts, the same origin) gets what the library would write for
  // it, without running the library: most calls are of this kind.
  return function corsHeaders(req, res, next) {
    if (req.headers.origin !== undefined || req.method === 'OPTIONS') return handler(req, res, next);
    if (allowedOrigins === '*') {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Expose-Headers', exposed);
    } else res.vary('Origin');
    next();
  };
}

/** The rate-limit headers the document declares: X-RateLimit-*, RateLimit-Policy and RateLimit (docs/rate-limits.md). */
export function rateLimitHeaderNames(document: Record<string, unknown>): string[] {
  const headers = (document.components as { headers?: Record<string, unknown> } | undefined)?.headers ?? {};
  return Object.keys(headers).filter((name) => /^(X-)?RateLimit(-|$)/i.test(name));
}
