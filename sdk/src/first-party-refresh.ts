import type { components } from './api.js';
import { failedRefresh, type IssuedTokens, type RefreshGrant } from './session.js';

type TokenPair = components['schemas']['TokenPair'];

/** The service's own sign-in: `POST /auth/refresh` with a JSON body; a 401 means the refresh token is dead. */
export function firstPartyRefresh(baseUrl: string, send: (request: Request) => Promise<Response>): RefreshGrant {
  return async (refreshToken) => {
    const response = await send(
      new Request(`${baseUrl}/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ refreshToken }),
      }),
    );
    if (response.status === 401) {
      await response.body?.cancel();
      return { kind: 'signed-out' };
    }
    if (!response.ok) return failedRefresh(response);
    // Asked with a refresh token in the body, the answer carries the next one.
    return { kind: 'refreshed', tokens: (await response.json()) as TokenPair as IssuedTokens };
  };
}
