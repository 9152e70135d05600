import { randomUUID } from 'node:crypto';
import { parseScopes, randomSecret, sha256Hex, type AccessTokens, type TokenPairs } from '../auth/auth.component.js';
import type { OAuthClient } from './clients.service.js';
import type { DeviceCodesRepository } from './device-codes.repository.js';
import type { OAuthTokenResponse } from './oauth-library.adapter.js';
import { resolveScopes } from './scopes.js';
import type { TokenRefusal } from './token-request.js';
import { displayUserCode, newUserCode } from './user-codes.js';

/*
 * The device authorization grant (RFC 8628), for a client on a machine without a browser: it asks
 * for a device code and a user code, the person approves the user code on /oauth/device elsewhere,
 * and the client polls /oauth/token until the approval (or a refusal) arrives. Every state change
 * is one conditional UPDATE in the repository, so two polls or a poll and an approval never both win.
 */

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
export const DEVICE_CODE_LIFETIME_SECONDS = 600;
export const DEVICE_POLL_INTERVAL_SECONDS = 5;
/** Clients allowed this grant: the built-in CLI (registered apps get only authorization_code). */
export const DEVICE_GRANT_CLIENTS: ReadonlySet<string> = new Set(['taskctl']);

export interface DeviceAuthorizationResponse {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

export type DeviceAuthorizationOutcome = { ok: true; body: DeviceAuthorizationResponse } | TokenRefusal;
export type DeviceTokenOutcome = { ok: true; body: OAuthTokenResponse } | TokenRefusal;

export interface DeviceGrant {
  /** POST /oauth/device_authorization. */
  authorize: (form: { client_id?: string; scope?: string }, issuer: string) => Promise<DeviceAuthorizationOutcome>;
  /** POST /oauth/token with grant_type=urn:ietf:params:oauth:grant-type:device_code. */
  token: (form: { client_id?: string; device_code?: string }) => Promise<DeviceTokenOutcome>;
}

export function createDeviceGrant(deps: {
  findClient: (clientId: string) => Promise<OAuthClient | undefined>;
  repository: DeviceCodesRepository;
  tokenPairs: TokenPairs;
  accessTokens: AccessTokens;
}): DeviceGrant {
  const { findClient, repository, tokenPairs, accessTokens } = deps;

  const deviceClient = async (clientId: string | undefined): Promise<OAuthClient | TokenRefusal> => {
    if (!clientId) return refusal(400, 'invalid_request', 'client_id is required.');
    const client = await findClient(clientId);
    if (!client) return refusal(401, 'invalid_client', 'Unknown client.');
    if (!DEVICE_GRANT_CLIENTS.has(client.id)) return refusal(400, 'unauthorized_client', 'This client may not use the device authorization grant.');
    return client;
  };

  return {
    authorize: async (form, issuer) => {
      const client = await deviceClient(form.client_id);
      if ('ok' in client) return client;
      const scopes = resolveScopes(form.scope, client.scopes);
      if (!scopes.ok) return refusal(400, 'invalid_scope', `Scopes not available to this client: ${[...scopes.unknown, ...scopes.beyond].join(' ')}.`);
      if (scopes.scopes.length === 0) return refusal(400, 'invalid_scope', 'No scope to grant.');

      const deviceCode = randomSecret(32);
      const now = Date.now();
      for (let attempt = 0; attempt < 5; attempt++) {
        const userCode = newUserCode();
        const stored = await repository.insert({
          device_code_hash: sha256Hex(deviceCode),
          user_code_hash: sha256Hex(userCode),
          client_id: client.id,
          scope: scopes.scopes.join(' '),
          status: 'pending',
          interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
          last_polled_at: null,
          account_id: null,
          family_id: randomUUID(),
          created_at: now,
          expires_at: now + DEVICE_CODE_LIFETIME_SECONDS * 1000,
          decided_at: null,
          used_at: null,
        });
        if (!stored) continue;
        const shown = displayUserCode(userCode);
        return {
          ok: true,
          body: {
            device_code: deviceCode,
            user_code: shown,
            verification_uri: `${issuer}/oauth/device`,
            verification_uri_complete: `${issuer}/oauth/device?user_code=${shown}`,
            expires_in: DEVICE_CODE_LIFETIME_SECONDS,
            interval: DEVICE_POLL_INTERVAL_SECONDS,
          },
        };
      }
      throw new Error('no free user code after 5 draws');
    },

    token: async (form) => {
      const client = await deviceClient(form.client_id);
      if ('ok' in client) return client;
      if (!form.device_code) return refusal(400, 'invalid_request', 'device_code is required.');
      const outcome = await repository.poll(sha256Hex(form.device_code), client.id, Date.now());
      switch (outcome.kind) {
        case 'pending':
          return refusal(400, 'authorization_pending', 'The person has not approved this request yet: poll again after the interval.');
        case 'slow-down':
          return refusal(400, 'slow_down', `Polling too fast: wait at least ${outcome.intervalSeconds} seconds between requests.`);
        case 'denied':
          return refusal(400, 'access_denied', 'The account holder denied the request.');
        case 'expired':
          return refusal(400, 'expired_token', 'The device code has expired: start again.');
        case 'invalid':
          return refusal(400, 'invalid_grant', 'The device code is unknown, already used or issued to another client.');
        case 'approved': {
          const { row } = outcome;
          const scopes = parseScopes(row.scope);
          const pair = await tokenPairs.issue({ accountId: row.account_id!, clientId: row.client_id, scopes }, { familyId: row.family_id });
          // Withdrawn while this redemption was in flight: what it issued must not live (as with codes).
          if (await repository.isWithdrawn(row.device_code_hash)) {
            await tokenPairs.revokeFamily(row.family_id);
            return refusal(400, 'invalid_grant', 'The authorisation was withdrawn.');
          }
          return {
            ok: true,
            body: {
              access_token: pair.accessToken,
              token_type: 'Bearer',
              expires_in: accessTokens.lifetimeSeconds,
              refresh_token: pair.refreshToken,
              scope: scopes.join(' '),
            },
          };
        }
      }
    },
  };
}

function refusal(status: 400 | 401, error: string, description: string): TokenRefusal {
  return { ok: false, status, body: { error, error_description: description } };
}
