import type { Caller } from '../http/caller.js';
import type { Budgets, Plan } from './budgets.js';

/** What the limiter needs to know about a request to decide which budgets it spends. */
export interface RequestFacts {
  readonly method: string;
  readonly path: string;
  /** Asked only by the budgets keyed by IP: authenticated requests never need it. */
  clientIp(): string;
  readonly caller?: Caller;
  /** The parsed JSON body, when there is one (for the refresh token of POST /auth/refresh). */
  readonly body?: unknown;
  /** X-Request-Id, for the lines logged while planning. */
  readonly requestId?: string;
}

/** Longer than any refresh token we issue: not worth a database look-up. */
const MAX_REFRESH_TOKEN_LENGTH = 1024;

/**
 * Sign-in endpoints, each with its own strict budget per client IP. The OAuth consent page's and
 * device verification page's sign-in forms share the login budget: another door must not double
 * the guesses per minute.
 */
const STRICT_ENDPOINTS: ReadonlyMap<string, string> = new Map([
  ['POST /auth/register', 'register'],
  ['POST /auth/login', 'login'],
  ['POST /oauth/authorize', 'login'],
  ['POST /oauth/token', 'oauth-token'],
  // The device grant (RFC 8628 §5.1, §5.2): its sign-in form shares the login budget; entering user
  // codes and asking for them are strict too, so user codes cannot be guessed nor the table flooded.
  ['POST /oauth/device', 'login'],
  ['GET /oauth/device', 'device-verification'],
  ['POST /oauth/device_authorization', 'device-authorization'],
]);
const REFRESH_ENDPOINT = 'POST /auth/refresh';

export type RefreshTokenAccount = (refreshToken: string) => Promise<string | undefined>;

/** Decides which budgets a request spends (decisions §6), keyed by whom. */
export function createPlanner(budgets: Budgets, refreshTokenAccount: RefreshTokenAccount, onLookupError: (err: unknown, requestId: string | undefined) => void) {
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
    const route = `${facts.method} ${canonicalPath(facts.path)}`;
    const strictEndpoint = STRICT_ENDPOINTS.get(route);
    if (strictEndpoint !== undefined) {
      return { governing: { budget: budgets.strict, subject: `${strictEndpoint}:${facts.clientIp()}` } };
    }
    if (route === REFRESH_ENDPOINT) {
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

/**
 * Express routes case-insensitively and ignores a trailing slash, so `/Auth/Login/` reaches the
 * login handler: it must reach the login budget too.
 */
export function canonicalPath(path: string): string {
  const lower = path.toLowerCase();
  const trimmed = lower.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}
