import cors from 'cors';
import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from './request-log.js';

/**
 * Browser apps on the allowed origins may call the API, the OAuth token, revocation
 * and registration endpoints, the well-known documents and /mcp (the routes whose chain has this
 * step: http/routes.ts leaves it out of the sign-in pages). Bearer tokens, never cookies, so no
 * credentials mode. A preflight is answered here with 204, before the caller is identified and a
 * budget spent. The response headers a client needs (its budget, waits, challenges, new resources,
 * versions for If-Match, deprecation notices) are exposed; `rateLimitHeaders` come from the document, so a new one is never missed.
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
