import type { Request, RequestHandler } from 'express';
import { publicBaseUrl } from '../http/public-url.js';
import { isMcpRequest, mcpResource } from '../http/resources.js';

/**
 * RFC 8707 on the resource side (decisions §11): /mcp takes only tokens issued for `{PUBLIC_URL}/mcp`,
 * everything else only tokens for the REST API (`aud` = JWT_AUDIENCE; API tokens are REST credentials).
 * A token for the other resource is treated as no valid token at all: 401 invalid_token.
 */
export function createAudienceCheck(restAudience: string, publicUrl: string | undefined): RequestHandler {
  const expectedAudience = (req: Request) => (isMcpRequest(req) ? mcpResource(publicBaseUrl(req, publicUrl)) : restAudience);
  return (req, _res, next) => {
    const caller = req.caller;
    if (caller && (caller.audience ?? restAudience) !== expectedAudience(req)) {
      req.caller = undefined;
      req.authFailure = 'invalid';
    }
    next();
  };
}

/** Runs `first`, then `second` unless `first` failed: two middlewares as one. */
export function inSequence(first: RequestHandler, second: RequestHandler): RequestHandler {
  return (req, res, next) => {
    void first(req, res, (err?: unknown) => (err ? next(err) : second(req, res, next)));
  };
}
