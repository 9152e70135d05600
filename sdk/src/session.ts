import type { components } from './api.js';

type TokenPair = components['schemas']['TokenPair'];

export interface Tokens {
  accessToken?: string;
  refreshToken?: string;
}

/** How a refresh ended: new tokens, a dead session (sign in again), or an answer to pass on (429, 5xx). */
type RefreshOutcome = { kind: 'refreshed' } | { kind: 'signed-out' } | { kind: 'failed'; status: number; body: string; headers: Headers };

/**
 * Holds the tokens, adds the bearer header, and on a `TOKEN_EXPIRED` answer refreshes once and
 * retries the request once. Parallel calls that all see the expiry share one refresh.
 */
export class Session {
  private tokens: Tokens;
  private refreshing: Promise<RefreshOutcome> | undefined;
  private readonly authPrefix: string;

  constructor(
    private readonly baseUrl: string,
    tokens: Tokens,
    private readonly onTokens: ((tokens: TokenPair) => void) | undefined,
    private readonly send: (request: Request) => Promise<Response>,
  ) {
    this.tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    this.authPrefix = `${baseUrl}/auth/`;
  }

  get accessToken(): string | undefined {
    return this.tokens.accessToken;
  }

  setTokens(tokens: Tokens): void {
    this.tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  }

  async fetch(request: Request): Promise<Response> {
    // Sign-in endpoints take no bearer token and answer 401 for their own reasons: never refresh on them.
    if (request.url.startsWith(this.authPrefix)) return this.send(request);
    if (!this.tokens.accessToken && this.tokens.refreshToken) {
      const outcome = await this.refreshOnce();
      if (outcome.kind === 'failed') return replay(outcome);
    }
    const retryCopy = this.tokens.refreshToken && !request.headers.has('authorization') ? request.clone() : undefined;
    const usedToken = this.tokens.accessToken;
    const response = await this.send(this.authorize(request));
    if (response.status !== 401 || !retryCopy || !(await isTokenExpired(response))) return response;

    // Another call may have refreshed while this one was in flight: then its token is the one to use.
    const outcome: RefreshOutcome =
      this.tokens.accessToken && this.tokens.accessToken !== usedToken ? { kind: 'refreshed' } : await this.refreshOnce();
    if (outcome.kind === 'signed-out') return response;
    await response.body?.cancel();
    return outcome.kind === 'refreshed' ? this.send(this.authorize(retryCopy)) : replay(outcome);
  }

  private authorize(request: Request): Request {
    if (this.tokens.accessToken && !request.headers.has('authorization')) {
      request.headers.set('authorization', `Bearer ${this.tokens.accessToken}`);
    }
    return request;
  }

  private refreshOnce(): Promise<RefreshOutcome> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<RefreshOutcome> {
    const refreshToken = this.tokens.refreshToken;
    if (!refreshToken) return { kind: 'signed-out' };
    const response = await this.send(
      new Request(`${this.baseUrl}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      }),
    );
    if (response.status === 401) {
      // The refresh token is dead (expired, revoked or reused): only a new sign-in helps.
      await response.body?.cancel();
      if (this.tokens.refreshToken === refreshToken) this.tokens = {};
      return { kind: 'signed-out' };
    }
    if (!response.ok) return { kind: 'failed', status: response.status, body: await response.text(), headers: response.headers };
    const pair = (await response.json()) as TokenPair;
    // setTokens() during the refresh (a new sign-in) wins over the pair of the session it replaced.
    if (this.tokens.refreshToken === refreshToken) this.tokens = { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
    this.onTokens?.(pair);
    return { kind: 'refreshed' };
  }
}

async function isTokenExpired(response: Response): Promise<boolean> {
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  return typeof body === 'object' && body !== null && (body as { code?: unknown }).code === 'TOKEN_EXPIRED';
}

/** A refresh that failed for a reason the caller must see (429 with Retry-After, 503): each waiter gets its own copy. */
function replay(outcome: { status: number; body: string; headers: Headers }): Response {
  return new Response(outcome.body, { status: outcome.status, headers: outcome.headers });
}
