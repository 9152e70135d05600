export { createTaskClient, type CallOptions, type CookieTaskClient, type Conditional, type ConditionalRead, type GetTask, type TaskClient, type TaskClientOptions, type Result, type ReadResult, type NotModified } from './client.js';
export { CONTRACT_VERSION } from './contract-version.js';
export { TaskApiError, parseRetryAfter, type ErrorBody } from './errors.js';
export { rateLimitOf, type RateLimitWindow } from './rate-limit.js';
export { DEFAULT_RETRY_AFTER_SECONDS, type RetryOptions } from './retry.js';
export {
  verifyWebhook,
  WebhookVerificationError,
  type VerifyWebhookOptions,
  type WebhookEventPayload,
  type WebhookHeaders,
} from './webhooks.js';
export type { IssuedTokens, Tokens } from './session.js';
export {
  OAuthFlowError,
  type AuthorizationParams,
  type AuthorizationRequest,
  type ExchangeParams,
  type OAuthOptions,
} from './oauth.js';
export type { components, operations, paths } from './api.js';
/** Every schema of the document by name: Task, TaskStatus, TaskCreate, SyncJob, ConnectorAccount, Usage, TokenPair, ... */
export type * from './schemas.js';
export {
  compareTasks,
  labelKey,
  searchWords,
  sortKey,
  taskMatches,
  NO_DUE_TIME,
  type QueriedTask,
  type TaskQuery,
  type TaskSort,
} from './task-query.js';
