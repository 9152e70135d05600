import type { AccessTokens, TokenPairs } from '../auth/auth.component.js';

/**
 * RFC 7009: a refresh token revokes its family; an access token revokes the family it was issued with
 * (the JWT itself lives out its short lifetime). Unknown tokens are not an error (§2.2), and a client
 * naming itself only revokes its own tokens.
 */
export function createRevocation(deps: { tokenPairs: TokenPairs; accessTokens: AccessTokens }) {
  const { tokenPairs, accessTokens } = deps;
  const mayRevoke = (tokenClientId: string, clientId: string | undefined) => clientId === undefined || clientId === tokenClientId;

  return async function revoke(token: string, clientId: string | undefined): Promise<void> {
    const session = await tokenPairs.sessionOf(token);
    if (session) {
      if (mayRevoke(session.clientId, clientId)) await tokenPairs.revokeFamily(session.familyId);
      return;
    }
    const caller = accessTokens.readIgnoringExpiry(token);
    if (caller?.sessionId && mayRevoke(caller.clientId, clientId)) await tokenPairs.revokeFamily(caller.sessionId);
  };
}
