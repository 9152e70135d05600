import type { Request, RequestHandler } from 'express';
import { errors } from '../platform/errors.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface RebindingSettings {
  PUBLIC_URL?: string | undefined;
  CORS_ALLOWED_ORIGINS: '*' | readonly string[];
}

/**
 * DNS-rebinding protection, as the Streamable HTTP transport requires (docs/signing-in.md): a /mcp request
 * whose Host is not ours (PUBLIC_URL's host; loopback names when unset) or whose Origin is present and
 * not allowed (CORS_ALLOWED_ORIGINS) is refused with 403 before anything else reads it.
 */
export function createDnsRebindingGuard(settings: RebindingSettings): RequestHandler {
  const publicHost = settings.PUBLIC_URL ? new URL(settings.PUBLIC_URL).host.toLowerCase() : undefined;
  const hostAllowed = (host: string | undefined) => {
    if (!host) return false;
    const lower = host.toLowerCase();
    return publicHost ? lower === publicHost : LOOPBACK_NAMES.has(hostname(lower));
  };
  const allowedOrigins = settings.CORS_ALLOWED_ORIGINS === '*' ? undefined : new Set(settings.CORS_ALLOWED_ORIGINS.map((origin) => origin.toLowerCase()));
  const originAllowed = (origin: string | undefined) => origin === undefined || !allowedOrigins || allowedOrigins.has(origin.toLowerCase());

  return function refuseForeignHostOrOrigin(req, _res, next) {
    if (!hostAllowed(hostOf(req))) {
      return next(errors.hostNotAllowed());
    }
    if (!originAllowed(req.headers.origin)) {
      return next(errors.originNotAllowed());
    }
    next();
  };
}

/** The Host the client asked for; behind a trusted proxy, the one it forwarded (Express's req.host). */
const hostOf = (req: Request): string | undefined => req.host;

/** `localhost:3000` → `localhost`, `[::1]:3000` → `[::1]`. */
function hostname(host: string): string {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}
