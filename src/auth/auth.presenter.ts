import type { components } from '../../generated/api.js';
import { toIso, toIsoOrNull } from '../platform/time.js';
import { parseScopes } from './access-tokens.js';
import type { ApiTokenRow } from './api-tokens.repository.js';

type ApiToken = components['schemas']['ApiToken'];

/** A stored API token as the API shows it: never its secret or its hash. */
export function toApiToken(row: ApiTokenRow): ApiToken {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: parseScopes(row.scopes),
    createdAt: toIso(row.created_at),
    expiresAt: toIsoOrNull(row.expires_at),
    lastUsedAt: toIsoOrNull(row.last_used_at),
  };
}
