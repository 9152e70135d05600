/** The tokens a client starts with or is given; either may be absent. */
export interface Tokens {
  accessToken?: string | undefined;
  refreshToken?: string | undefined;
}

/**
 * A token pair the client obtained (a refresh, a sign-in, a code exchange), as reported to `onTokens`.
 * First-party pairs carry `refreshExpiresIn`; OAuth pairs carry the granted `scope`.
 */
export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  /** Seconds the access token lives. */
  expiresIn: number;
  /** Seconds the refresh token lives (first-party tokens only). */
  refreshExpiresIn?: number;
  /** The scopes granted (OAuth tokens only), space-separated. */
  scope?: string;
}

/**
 * How a refresh ended: new tokens; a dead refresh token (sign in again); or an answer to pass on
 * as it is (429, 5xx, a refused client), which leaves the tokens as they were.
 */
export type RefreshAnswer =
  | { kind: 'refreshed'; tokens: IssuedTokens }
  | { kind: 'signed-out' }
  | { kind: 'failed'; status: number; body: string; headers: Headers };

/** Exchanges a refresh token; a network error rejects (and the tokens stay). */
export type RefreshGrant = (refreshToken: string) => Promise<RefreshAnswer>;

/** A cookie session holds no refresh token in script: the grant is called with this placeholder. */
export const COOKIE_SESSION = 'cookie';

export type RefreshOutcome = { kind: 'refreshed' } | Exclude<RefreshAnswer, { kind: 'refreshed' }>;

/**
 * Holds the tokens, adds the bearer header, and on a `TOKEN_EXPIRED` answer refreshes once and
 * retries the request once. Parallel calls that all see the expiry share one refresh.
 */
export class Session {
  private tokens: Tokens;
  private refreshing: Promise<RefreshOutcome> | undefined;
  private readonly authPrefix: string;
  /** Bumped by every setTokens(), so a refresh can tell that a new sign-in replaced its session. */
  private epoch = 0;
  /** A cookie session that may still be alive (none was ended here): after a reload, the cookie may hold one. */
  private resumable = true;

  constructor(
    baseUrl: string,
    tokens: Tokens,
    private readonly onTokens: ((tokens: IssuedTokens) => void) | undefined,
    private readonly send: (request: Request) => Promise<Response>,
    private readonly refreshGrant: RefreshGrant,
    /** The refresh token lives in an HttpOnly cookie: a refresh is always worth trying, and it never reaches script. */
    private readonly cookie = false,
  ) {
    this.tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    this.authPrefix = `${baseUrl}/auth/`;
  }

  get accessToken(): string | undefined {
    return this.tokens.accessToken;
  }

  get refreshToken(): string | undefined {
    return this.tokens.refreshToken;
  }

  setTokens(tokens: Tokens): void {
    this.epoch += 1;
    this.tokens = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
  }

  /** Keeps a pair obtained by signing in and reports it like a refreshed one. */
  adopt(tokens: IssuedTokens): void {
    this.setTokens(this.cookie ? { accessToken: tokens.accessToken } : tokens);
    this.resumable = true;
    this.report(tokens);
  }

  /** A cookie session has nothing for the caller to store: only token-mode pairs are reported. */
  private report(tokens: IssuedTokens): void {
    if (!this.cookie) this.onTokens?.(tokens);
  }

  async fetch(request: Request): Promise<Response> {
    // Sign-in endpoints take no bearer token and answer 401 for their own reasons: never refresh on them.
    if (request.url.startsWith(this.authPrefix)) return this.send(request);
    if (!this.tokens.accessToken && this.canRefresh) {
      const outcome = await abortable(this.refreshOnce(), request.signal);
      if (outcome.kind === 'failed') return replay(outcome);
    }
    const retryCopy = this.canRefresh && !request.headers.has('authorization') ? request.clone() : undefined;
    const usedToken = this.tokens.accessToken;
    const response = await this.send(this.authorize(request));
    if (response.status !== 401 || !retryCopy || !(await isTokenExpired(response))) return response;

    // Another call may have refreshed while this one was in flight: then its token is the one to use.
    const outcome: RefreshOutcome =
      this.tokens.accessToken && this.tokens.accessToken !== usedToken ? { kind: 'refreshed' } : await abortable(this.refreshOnce(), request.signal);
    if (outcome.kind === 'signed-out') return response;
    await response.body?.cancel();
    return outcome.kind === 'refreshed' ? this.send(this.authorize(retryCopy)) : replay(outcome);
  }

  private get canRefresh(): boolean {
    return this.cookie ? this.resumable : this.tokens.refreshToken !== undefined;
  }

  /** Cookie sessions: tries the cookie for a new access token. */
  async resume(): Promise<RefreshOutcome> {
    return this.refreshOnce();
  }

  /** Cookie sessions: forgets the access token and stops trying the cookie until the next sign-in. */
  end(): void {
    this.setTokens({});
    this.resumable = false;
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
    const refreshToken = this.cookie ? COOKIE_SESSION : this.tokens.refreshToken;
    if (!refreshToken) return { kind: 'signed-out' };
    const epoch = this.epoch;
    const answer = await this.refreshGrant(refreshToken);
    if (answer.kind === 'failed') return answer;
    // setTokens() during the refresh (a new sign-in) wins over the outcome for the session it replaced.
    const replaced = this.cookie ? this.epoch !== epoch : this.tokens.refreshToken !== refreshToken;
    if (answer.kind === 'signed-out') {
      // The refresh token is dead (expired, revoked or reused): only a new sign-in helps.
      if (!replaced) {
        this.tokens = {};
        if (this.cookie) this.resumable = false;
      }
      return answer;
    }
    if (!replaced) {
      this.tokens = { accessToken: answer.tokens.accessToken, refreshToken: this.cookie ? undefined : answer.tokens.refreshToken };
      this.resumable = true;
    }
    this.report(answer.tokens);
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

/** What a refresh answer that is neither new tokens nor a dead token becomes: the answer, kept for every waiter. */
export async function failedRefresh(response: Response): Promise<RefreshAnswer> {
  return { kind: 'failed', status: response.status, body: await response.text(), headers: response.headers };
}

/** Waits for a shared promise (a refresh, discovery) unless the caller's signal aborts first; the shared work goes on. */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason as Error);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err as Error);
      },
    );
  });
}
