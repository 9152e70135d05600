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
  invalidRefreshToken: () =>
    new AppError(401, 'INVALID_REFRESH_TOKEN', 'The refresh token is unknown, expired or revoked; sign in again.'),
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
    new AppError(
      412,
      'PRECONDITION_FAILED',
      `The task has changed: it is at version ${currentVersion}, not one If-Match names. Read it again and retry.`,
      {},
      { ETag: `"${currentVersion}"` },
    ),
  cursorExpired: (retentionDays: number) =>
    new AppError(
      410,
      'CURSOR_EXPIRED',
      `This cursor is older than the ${retentionDays} days deletions are kept; start again without a cursor.`,
    ),
  connectorAuthFailed: (message: string) => new AppError(422, 'CONNECTOR_AUTH_FAILED', message),
  connectorUnavailable: (message: string) => new AppError(502, 'CONNECTOR_UNAVAILABLE', message),
  notImplemented: () => new AppError(501, 'NOT_IMPLEMENTED', 'This operation is in the contract but not implemented yet.'),
  serviceUnavailable: () =>
    new AppError(503, 'SERVICE_UNAVAILABLE', 'The service cannot reach its database; retry shortly.', {}, { 'Retry-After': '5' }),
  internal: () => new AppError(500, 'INTERNAL_ERROR', 'Something went wrong on our side.'),
};
