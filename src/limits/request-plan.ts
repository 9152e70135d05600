import type { Caller } from '../http/caller.js';
import { loadOpenApiDocument } from '../http/docs.routes.js';
import { operationMatcher, servedOperation } from '../http/route-of.js';
import type { Budgets, Plan } from './budgets.js';
import { operationBudgetsOf } from './operation-budgets.js';

/** What the limiter needs to know about a request to decide which budgets it spends. */
export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  /** Asked only by the budgets keyed by IP: authenticated requests never need it. */
  clientIp(): string;
  readonly caller?: Caller;
  /** The parsed JSON body, when there is one (the refresh budget is keyed by its refresh token). */
  readonly body?: unknown;
  /** X-Request-Id, for the lines logged while planning. */
  readonly requestId?: string;
}

/** Longer than any refresh token we issue: not worth a database look-up. */
const MAX_REFRESH_TOKEN_LENGTH = 1024;

export type RefreshTokenAccount = (refreshToken: string) => Promise<string | undefined>;

/**
 * Decides which budgets a request spends (decisions §6), keyed by whom, from what each operation of
 * the document declares (`x-rate-limit-budget`, read here once). A path outside the document, and an
 * operation declared account or public, spends the caller's account budget, or the anonymous one by
 * IP without a caller. Operations declared none (the probes, /metrics) are answered before the
 * limiter runs; were one to reach it, it would count like a path outside the document.
 */
export function createPlanner(
  budgets: Budgets,
  refreshTokenAccount: RefreshTokenAccount,
  onLookupError: (err: unknown, requestId: string | undefined) => void,
  document: Record<string, unknown> = loadOpenApiDocument().document,
) {
  const matcher = operationMatcher(document);
  const declared = operationBudgetsOf(matcher);
  const accountOfRefreshToken = async (body: unknown, requestId: string | undefined): Promise<string | undefined> => {
    const token = (body as { refreshToken?: unknown } | undefined)?.refreshToken;
    if (typeof token !== 'string' || token.length === 0 || token.length > MAX_REFRESH_TOKEN_LENGTH) return undefined;
    try {
      return await refreshTokenAccount(token);
    } catch (err) {
      // The database being down must not make the limiter fail the request: count by IP instead.
      onLookupError(err, requestId);
      return undefined;
    }
  };

  return async function planFor(facts: RequestFacts): Promise<Plan> {
    // A HEAD is served as its GET, so it spends what the GET spends: else HEAD /oauth/device?user_code=…
    // would try user codes at the anonymous budget's pace instead of the strict one's.
    const operation = servedOperation(matcher.operationsAt(facts.path), facts.method);
    const declaration = operation === undefined ? undefined : declared.get(operation);
    if (declaration?.budget === 'strict') {
      return { governing: { budget: budgets.strict, subject: `${declaration.group}:${facts.clientIp()}` } };
    }
    if (declaration?.budget === 'refresh') {
      const accountId = await accountOfRefreshToken(facts.body, facts.requestId);
      const subject = accountId === undefined ? `ip:${facts.clientIp()}` : `account:${accountId}`;
      return { governing: { budget: budgets.refresh, subject } };
    }
    if (facts.caller) return authenticatedPlan(budgets, facts.caller);
    return { governing: { budget: budgets.anonymous, subject: facts.clientIp() } };
  };
}

/** The account budget and the caller's client fence inside it. */
export function authenticatedPlan(budgets: Budgets, caller: Caller): Plan {
  return {
    governing: { budget: budgets.account, subject: caller.accountId },
    client: { budget: budgets.client, subject: `${caller.accountId}:${caller.clientId}` },
  };
}
