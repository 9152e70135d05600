import type { components } from './api.js';
import { failedRefresh, type IssuedTokens, type RefreshGrant } from './session.js';

type TokenPair = components['schemas']['TokenPair'];

/**
 * The web app's session: `POST /auth/refresh` with an empty JSON body, the refresh token travelling
 * only as the service's HttpOnly cookie (same origin); a 401 means the session is over, a 400 that
 * there is no cookie (the empty body names no refreshToken either).
 */
export function cookieRefresh(baseUrl: string, send: (request: Request) => Promise<Response>): RefreshGrant {
  return async () => {
    const response = await send(cookieRequest(`${baseUrl}/auth/refresh`));
    if (response.status === 401 || response.status === 400) {
      await response.body?.cancel();
      return { kind: 'signed-out' };
    }
    if (!response.ok) return failedRefresh(response);
    return { kind: 'refreshed', tokens: (await response.json()) as TokenPair as IssuedTokens };
  };
}

/** A cookie-session call to `/auth/refresh` or `/auth/logout`: JSON (the service refuses form posts there) with the cookie. */
export function cookieRequest(url: string, signal?: AbortSignal): Request {
  return new Request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    credentials: 'same-origin',
    ...(signal ? { signal } : {}),
  });
}
