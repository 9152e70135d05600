import type { LoginStore, SavedLogin } from './login-store.js';

type Send = (request: Request) => Promise<Response>;

/** An access token this close to its expiry is treated as expired. */
const EXPIRY_MARGIN_MS = 5_000;

/** The login as a token response, to save and to hand the SDK. */
export function loginFromTokenResponse(server: string, clientId: string, body: TokenResponse): SavedLogin {
  return {
    server,
    clientId,
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    accessExpiresAt: Date.now() + body.expires_in * 1000,
    scope: body.scope,
    savedAt: new Date().toISOString(),
  };
}

export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

export const isExpired = (login: SavedLogin, now = Date.now()) => login.accessExpiresAt - EXPIRY_MARGIN_MS <= now;

/**
 * The SDK refreshes an expired access token with the refresh_token grant at /oauth/token; this
 * transport sits under it and makes every such refresh safe across processes:
 * - it takes the store's lock and reads the file again: when another taskctl rotated the login
 *   meanwhile, its (live) tokens answer the refresh and the dead refresh token is never sent;
 * - a refresh the server answers is saved to the file before the SDK sees it, so the new pair is
 *   on disk before its first use (a crash after the rotation cannot sign the person out).
 */
export function refreshingThroughStore(send: Send, store: LoginStore, server: string): Send {
  return async (request) => {
    if (request.method !== 'POST' || !new URL(request.url).pathname.endsWith('/oauth/token')) return send(request);
    const form = new URLSearchParams(await request.clone().text());
    if (form.get('grant_type') !== 'refresh_token') return send(request);

    return store.withLock(async () => {
      const saved = store.get(server);
      if (saved && saved.refreshToken !== form.get('refresh_token')) {
        if (!isExpired(saved)) return tokenAnswer(saved);
        // Rotated by another process, and its access token has expired since: refresh that one.
        form.set('refresh_token', saved.refreshToken);
      }
      const response = await send(new Request(request.url, { method: 'POST', headers: request.headers, body: form, signal: request.signal }));
      if (response.ok) {
        const body = (await response.clone().json()) as TokenResponse;
        store.save(loginFromTokenResponse(server, form.get('client_id') ?? saved?.clientId ?? 'taskctl', body));
      }
      return response;
    });
  };
}

function tokenAnswer(login: SavedLogin): Response {
  const body: TokenResponse = {
    access_token: login.accessToken,
    token_type: 'Bearer',
    expires_in: Math.max(1, Math.floor((login.accessExpiresAt - Date.now()) / 1000)),
    refresh_token: login.refreshToken,
    scope: login.scope,
  };
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
}
