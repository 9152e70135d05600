/**
 * What an operation declares it spends (`x-rate-limit-budget`, docs/rate-limits.md):
 * - account: the caller's account budget and client fence; the anonymous budget by IP without a caller;
 * - public: the same rule, for operations anyone may call (most callers have no credentials);
 * - strict: the strict budget of its group (`x-rate-limit-group`) per client IP; a group's endpoints share it;
 * - refresh: the refresh budget, keyed by the account of the body's refresh token;
 * - none: outside the limits (answered before the limiter runs).
 */
export type OperationBudget =
  | { readonly budget: 'account' | 'public' | 'refresh' | 'none' }
  | { readonly budget: 'strict'; readonly group: string };

export const BUDGET_EXTENSION = 'x-rate-limit-budget';
export const GROUP_EXTENSION = 'x-rate-limit-group';

const DECLARED = new Set(['account', 'public', 'strict', 'refresh', 'none']);
const GROUP_NAME = /^[a-z]+(-[a-z]+)*$/;

/**
 * Reads an operation's declaration once, at start-up (http/operation-table.ts): a document that leaves
 * one out, or names an unknown budget, stops the process here (the OpenAPI lint says the same before any start).
 */
export function operationBudgetOf(operationId: string, definition: Readonly<Record<string, unknown>>): OperationBudget {
  const budget = definition[BUDGET_EXTENSION];
  const group = definition[GROUP_EXTENSION];
  if (typeof budget !== 'string' || !DECLARED.has(budget)) {
    throw new Error(`OpenAPI operation ${operationId}: ${BUDGET_EXTENSION} must be one of ${[...DECLARED].join(', ')} (found ${JSON.stringify(budget)})`);
  }
  if (budget === 'strict') {
    if (typeof group !== 'string' || !GROUP_NAME.test(group)) {
      throw new Error(`OpenAPI operation ${operationId}: a strict budget needs ${GROUP_EXTENSION}, lower-case words joined by dashes (found ${JSON.stringify(group)})`);
    }
    return Object.freeze({ budget, group });
  }
  if (group !== undefined) throw new Error(`OpenAPI operation ${operationId}: ${GROUP_EXTENSION} is for strict budgets only`);
  return Object.freeze({ budget: budget as 'account' | 'public' | 'refresh' | 'none' });
}
