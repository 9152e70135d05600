import type { ErrorRequestHandler, Request, Response } from 'express';
import { OAuthError, errors, type AppError } from '../platform/errors.js';
import type { Logger } from '../platform/logger.js';
import { bearerChallenge } from './bearer-challenge.js';
import { createDatabaseOutageLog } from './database-outage.js';
import { toAppError } from './error-translation.js';
import type { ErrorStyle } from './operation-table.js';
import { loggerFor, requestIdOf } from './request-log.js';

export interface RendererOptions {
  logger: Logger;
  publicUrl: string | undefined;
  databaseReachable?: () => Promise<boolean>;
  /** The MCP server's own refusal: a refused `tools/call` answered as the tool's error result (mcp/mcp.endpoint.ts). */
  mcpRefusal?: ErrorRequestHandler;
  /** The scopes a token for /mcp can use: the `scope` of /mcp's 401 challenge. */
  mcpScopes?: readonly string[];
}

/** The renderers of each error style (http/operation-table.ts), the last steps of a route's chain. */
export function createErrorRenderers(options: RendererOptions): Record<ErrorStyle, ErrorRequestHandler[]> {
  const outage = options.databaseReachable && createDatabaseOutageLog(options.logger, options.databaseReachable);

  /** Translates what was thrown, logs what needs it, and keeps it for the request metrics. */
  const translate = (err: unknown, req: Request, res: Response): AppError => {
    const appError = toAppError(err, { method: req.method, path: req.path, route: res.locals.route });
    if (outage && appError.code === 'SERVICE_UNAVAILABLE') outage.refusal(err);
    else if (appError.status >= 500) loggerFor(req, options.logger).error({ err }, 'request failed');
    res.locals.error = appError;
    for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
    return appError;
  };

  /** The common body (the Error schema of openapi/openapi.yaml) with the bearer challenge of a 401 or 403; internals hidden. */
  const common: ErrorRequestHandler = function renderCommonError(err: unknown, req, res, next) {
    if (res.headersSent) return next(err);
    const appError = translate(err, req, res);
    const challenge = bearerChallenge(req, res.locals.route?.resource ?? 'api', appError, { publicUrl: options.publicUrl, mcpScopes: options.mcpScopes });
    if (challenge) res.setHeader('WWW-Authenticate', challenge);
    const requestId = appError.status >= 500 ? requestIdOf(req) : undefined;
    res.status(appError.status).json(requestId === undefined ? appError.toBody() : { ...appError.toBody(), requestId });
  };

  /**
   * RFC 6749 §5.2 and RFC 7591 §3.2.2: the 400s (and the token endpoint's 401s) as `{ error,
   * error_description }`, malformed and NUL input and a body of another content type included (OAuth
   * clients read `error` only); the statuses the document gives the common body (413, 429, 5xx) keep it.
   */
  const oauthStyle = (invalidInput: 'invalid_request' | 'invalid_client_metadata'): ErrorRequestHandler =>
    function renderOAuthError(err: unknown, req, res, next) {
      if (res.headersSent) return next(err);
      const translated = err instanceof OAuthError ? err : toAppError(err, { method: req.method, path: req.path, route: res.locals.route });
      const appError = translated.status === 415 ? errors.validation([], `${translated.message.replace(/\.$/, '')}: ${acceptedTypes(res)}.`) : translated;
      if (appError.status !== 400 && !(appError instanceof OAuthError)) return common(appError, req, res, next);
      translate(appError, req, res);
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      const body = appError instanceof OAuthError
        ? { error: appError.error, error_description: appError.description }
        : { error: invalidInput, error_description: describe(appError) };
      res.status(appError.status).json(body);
    };

  return {
    common: [common],
    oauth: [oauthStyle('invalid_request'), common],
    'oauth-registration': [oauthStyle('invalid_client_metadata'), common],
    mcp: options.mcpRefusal ? [options.mcpRefusal, common] : [common],
  };
}

/** A validation refusal in one sentence: its message and what each detail names. */
function describe(error: AppError): string {
  const details = (error.extras.details ?? []).map((detail) => `${detail.path.replace(/^\/(body|query)\//, '')} ${detail.message}`.trim());
  return details.length === 0 ? error.message : `${error.message.replace(/\.$/, '')}: ${details.join('; ')}.`;
}

/** What the operation's body may be, for a refusal of another content type. */
function acceptedTypes(res: Response): string {
  const types: readonly string[] = res.locals.route?.bodyTypes ?? [];
  return types.length === 0 ? 'it takes no body' : `send ${types.join(' or ')}`;
}
