import cors from 'cors';
import type { RequestHandler } from 'express';
import { REQUEST_ID_HEADER } from './request-log.js';

/**
 * Decisions §13: browser apps on the allowed origins may call the API, the OAuth token, revocation
 * and registration endpoints, the well-known documents and /mcp (the routes whose chain has this
 * step: http/routes.ts leaves it out of the sign-in pages). Bearer tokens, never cookies, so no
 * credentials mode. A preflight is answered here with 204, before the caller is identified and a
 * budget spent. The response headers a client needs (its budget, waits, challenges, new resources)
 * are exposed; `rateLimitHeaders` come from the document, so a new one is never missed.
 */
export function corsHeaders(allowedOrigins: '*' | readonly string[], rateLimitHeaders: readonly string[]): RequestHandler {
  return cors({
    origin: allowedOrigins === '*' ? '*' : [...allowedOrigins],
    methods: ['GET', 'HEAD', 'POST', 'PATCH', 'DELETE'],
    exposedHeaders: ['Retry-After', 'Location', 'WWW-Authenticate', REQUEST_ID_HEADER, ...rateLimitHeaders],
    credentials: false,
    maxAge: 600,
    optionsSuccessStatus: 204,
    preflightContinue: false,
  });
}

/** The X-RateLimit-* headers the document declares. */
export function rateLimitHeaderNames(document: Record<string, unknown>): string[] {
  const headers = (document.components as { headers?: Record<string, unknown> } | undefined)?.headers ?? {};
  return Object.keys(headers).filter((name) => /^X-RateLimit-/i.test(name));
}
