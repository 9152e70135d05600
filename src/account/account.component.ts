/** The account's own operations (GET /me/usage): what other parts of the service may reach. */
export { createUsageHandlers, usageOperations, type UsageHandlers, type UsageParts } from './usage.operations.js';
