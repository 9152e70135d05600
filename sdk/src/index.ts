export { createTaskClient, type TaskClient, type TaskClientOptions, type Result } from './client.js';
export { TaskApiError, parseRetryAfter, type ErrorBody, type ErrorCode } from './errors.js';
export { DEFAULT_RETRY_AFTER_SECONDS, type RetryOptions } from './retry.js';
export type { Tokens } from './session.js';
export type { components, operations, paths } from './api.js';
