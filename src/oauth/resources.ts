import { apiResource, mcpResource } from '../http/resources.js';

/**
 * Which of our resources an RFC 8707 `resource` parameter names: `audience` is what the access token's
 * `aud` will be, null for the REST API (its audience is JWT_AUDIENCE, as before `resource` existed).
 * Absent means the REST API; anything that is not one of ours is refused (`invalid_target`).
 */
export function resolveResource(resource: string | undefined, baseUrl: string): { ok: true; audience: string | null } | { ok: false } {
  if (resource === undefined || resource === '') return { ok: true, audience: null };
  if (resource === apiResource(baseUrl) || resource === `${apiResource(baseUrl)}/`) return { ok: true, audience: null };
  if (resource === mcpResource(baseUrl)) return { ok: true, audience: mcpResource(baseUrl) };
  return { ok: false };
}

export const INVALID_TARGET_DESCRIPTION = 'resource must be this API or its MCP server ({base}/mcp), as the grant was made for.';
