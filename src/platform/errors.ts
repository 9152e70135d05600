import type { components } from '../../generated/api.js';

export type ErrorCode = components['schemas']['ErrorCode'];
export type ErrorBody = components['schemas']['Error'];
type ErrorExtras = Omit<ErrorBody, 'statusCode' | 'code' | 'message'>;

/** The one error type: a stable code, an HTTP status, typed extras and optional headers. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly extras: ErrorExtras = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }

  toBody(): ErrorBody {
    return { statusCode: this.status, code: this.code, message: this.message, ...this.extras };
  }
}

/** The `error` codes of RFC 6749 §5.2, RFC 7591 §3.2.2 and RFC 8628 §3.5 that our OAuth endpoints answer with. */
export type OAuthErrorCode =
  | 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope' | 'invalid_target'
  | 'invalid_redirect_uri' | 'invalid_client_metadata' | 'authorization_pending' | 'slow_down' | 'access_denied' | 'expired_token';

/**
 * A refusal of the OAuth protocol: rendered as `{ error, error_description }` by the OAuth endpoints'
 * renderer (http/error-renderers.ts); `code` and the common body stand for it anywhere else.
 */
export class OAuthError extends AppError {
  constructor(
    status: 400 | 401,
    readonly error: OAuthErrorCode,
    readonly description: string,
    headers: Record<string, string> = {},
  ) {
    super(status, status === 401 ? 'UNAUTHENTICATED' : 'VALIDATION_FAILED', description, status === 401 ? {} : { details: [] }, headers);
    this.name = 'OAuthError';
  }
}

const SCOPE_HINTS: Record<string, string> = {
  'tokens:manage':
    ' API tokens and authorised apps are managed from a web session, or with a token or app given tokens:manage by name.',
  'webhooks:manage': ' Webhooks are managed from a web session, or with a token or app given webhooks:manage by name.',
};

export const errors = {
  validation: (details: { path: string; message: string }[], message = 'The request does not match the API description.') =>
    new AppError(400, 'VALIDATION_FAILED', message, { details }),
  unauthenticated: (message = 'Sign in first: this operation needs a valid bearer token.') =>
    new AppError(401, 'UNAUTHENTICATED', message),
  tokenExpired: () => new AppError(401, 'TOKEN_EXPIRED', 'The access token has expired; refresh it and retry.'),
  invalidCredentials: () => new AppError(401, 'INVALID_CREDENTIALS', 'The email or password is wrong.'),
  invalidRefreshToken: (message = 'The refresh token is unknown, expired or revoked; sign in again.') =>
    new AppError(401, 'INVALID_REFRESH_TOKEN', message),
  refreshTokenReused: () =>
    new AppError(401, 'REFRESH_TOKEN_REUSED', 'This refresh token was already used; its session has been revoked. Sign in again.'),
  insufficientScope: (requiredScope: string) =>
    new AppError(403, 'INSUFFICIENT_SCOPE', `This token lacks the scope ${requiredScope}.${SCOPE_HINTS[requiredScope] ?? ''}`, { requiredScope }),
  quotaExceeded: (quota: 'tasks' | 'connectorAccounts' | 'webhooks', limit: number, used: number, message: string) =>
    new AppError(403, 'QUOTA_EXCEEDED', message, { quota, limit, used }),
  notFound: (what = 'Resource') => new AppError(404, 'NOT_FOUND', `${what} not found.`),
  emailInUse: () => new AppError(409, 'EMAIL_IN_USE', 'An account with this email already exists.'),
  idempotencyKeyReused: () =>
    new AppError(422, 'IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request body.'),
  /** An If-Match that names another version than the task's; the current one goes back as its ETag. */
  preconditionFailed: (currentVersion: number) =>
    new AppError(412, 'PRECONDITION_FAILED', `The task has changed: it is at version ${currentVersion}, not one If-Match names. Read it again and retry.`, {}, {
      ETag: `"${currentVersion}"`,
    }),
  cursorExpired: (retentionDays: number) =>
    new AppError(410, 'CURSOR_EXPIRED', `This cursor is older than the ${retentionDays} days deletions are kept; start again without a cursor.`),
  connectorAuthFailed: (message: string) => new AppError(422, 'CONNECTOR_AUTH_FAILED', message),
  connectorUnavailable: (message: string) => new AppError(502, 'CONNECTOR_UNAVAILABLE', message),
  notImplemented: () => new AppError(501, 'NOT_IMPLEMENTED', 'This operation is in the contract but not implemented yet.'),
  serviceUnavailable: () =>
    new AppError(503, 'SERVICE_UNAVAILABLE', 'The service cannot reach its database; retry shortly.', {}, { 'Retry-After': '5' }),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Something went wrong on our side.'),
  routeNotFound: (method: string, path: string) => new AppError(404, 'NOT_FOUND', `No route ${method} ${path}.`),
  methodNotAllowed: (method: string, path: string, allow: readonly string[], hint = '') =>
    // RFC 9110 §15.5.6: a 405 names the methods the resource does take.
    new AppError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}${hint}.`, {}, { Allow: allow.join(', ') }),
  payloadTooLarge: (limitBytes: number) => {
    const size = limitBytes >= 1024 * 1024 ? `${limitBytes / (1024 * 1024)} MiB` : `${limitBytes / 1024} KiB`;
    return new AppError(413, 'PAYLOAD_TOO_LARGE', `The request body is larger than ${size}, the limit of this operation.`);
  },
  unsupportedMediaType: (message = 'This operation does not take that content type.') => new AppError(415, 'UNSUPPORTED_MEDIA_TYPE', message),
  rateLimitExceeded: (message: string, window: NonNullable<ErrorExtras['window']>, retryAfterSeconds: number) =>
    new AppError(429, 'RATE_LIMIT_EXCEEDED', message, { retryAfterSeconds, window }, { 'Retry-After': String(retryAfterSeconds) }),
  accountLocked: (retryAfterSeconds: number) =>
    new AppError(429, 'ACCOUNT_LOCKED', 'Too many failed logins. This account is locked; try again later.', { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) }),
  webSessionRequired: () =>
    new AppError(403, 'WEB_SESSION_REQUIRED', 'Closing the account needs a session of the first-party app; sign in with email and password.'),
  hostNotAllowed: () => new AppError(403, 'HOST_NOT_ALLOWED', 'This MCP server does not answer requests for that Host (DNS-rebinding protection).'),
  originNotAllowed: () => new AppError(403, 'ORIGIN_NOT_ALLOWED', 'Requests from this Origin are not allowed (CORS_ALLOWED_ORIGINS).'),
  requestTimeout: () => new AppError(408, 'REQUEST_TIMEOUT', 'The request was not received in time.'),
  headersTooLarge: () => new AppError(431, 'HEADERS_TOO_LARGE', 'The request headers are larger than 16 KiB.'),
  chunkExtensionsTooLarge: () => new AppError(413, 'PAYLOAD_TOO_LARGE', 'The chunk extensions are too large.'),
  notHttp: () => new AppError(400, 'VALIDATION_FAILED', 'The request is not valid HTTP/1.1.', { details: [] }),
  oauth: (status: 400 | 401, error: OAuthErrorCode, description: string, headers?: Record<string, string>) => new OAuthError(status, error, description, headers),
};
