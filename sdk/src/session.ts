import type { components } from './api.js';
import { TaskApiError } from './errors.js';

type TokenPair = components['schemas']['TokenPair'];

export interface Tokens {
  accessToken?: string;
  refreshToken?: string;
}

/**
 * Holds the tokens, adds the bearer header, and on a `TOKEN_EXPIRED` answer refreshes once and
 * retries the request once. Parallel calls that all see the expiry share one refresh.
 */
export class Session {
  private refreshing: Promise<boolean> | undefined;

  constructor(
    private readonly baseUrl: string,
    private tokens: Tokens,
    private readonly onTokens: ((tokens: TokenPair) => void) | undefined,
    private readonly send: (request: Request) => Promise<Response>,
  ) {}

  get accessToken(): string | undefined {
    return this.tokens.accessToken;
  }

  setTokens(tokens: Tokens): void {
    this.tokens = { ...tokens };
  }

  async fetch(request: Request): Promise<Response> {
    const retryCopy = this.tokens.refreshToken ? request.clone() : undefined;
    const usedToken = this.tokens.accessToken;
    const response = await this.send(this.authorize(request));
    if (response.status !== 401 || !retryCopy || request.url.includes('/auth/')) return response;
    const code = await response
      .clone()
      .json()
      .then((body: { code?: string }) => body.code)
      .catch(() => undefined);
    if (code !== 'TOKEN_EXPIRED') return response;
    // Another call may already have refreshed while this one was in flight.
    const refreshed = this.tokens.accessToken !== usedToken || (await this.refreshOnce());
    return refreshed ? this.send(this.authorize(retryCopy)) : response;
  }

  private authorize(request: Request): Request {
    if (this.tokens.accessToken && !request.headers.has('authorization')) {
      request.headers.set('authorization', `Bearer ${this.tokens.accessToken}`);
    }
    return request;
  }

  private refreshOnce(): Promise<boolean> {
    this.refreshing ??= this.refresh().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async refresh(): Promise<boolean> {
    const refreshToken = this.tokens.refreshToken;
    if (!refreshToken) return false;
    const response = await this.send(
      new Request(`${this.baseUrl}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      }),
    );
    const body: unknown = await response.json().catch(() => undefined);
    if (!response.ok) {
      if (response.status === 401) this.tokens = {};
      if (response.status === 429) throw new TaskApiError(response.status, body, response.headers);
      return false;
    }
    const pair = body as TokenPair;
    this.tokens = { accessToken: pair.accessToken, refreshToken: pair.refreshToken };
    this.onTokens?.(pair);
    return true;
  }
}
