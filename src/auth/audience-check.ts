import type { Request } from 'express';
import type { OperationRoute } from '../http/operation-table.js';
import { publicBaseUrl } from '../http/public-url.js';
import { mcpResource } from '../http/resources.js';

/**
 * RFC 8707 on the resource side (docs/signing-in.md): /mcp takes only tokens issued for `{PUBLIC_URL}/mcp`,
 * everything else only tokens for the REST API (`aud` = JWT_AUDIENCE; API tokens are REST credentials).
 * A token for the other resource is treated as no valid token at all: 401 invalid_token.
 */
export function createAudienceCheck(restAudience: string, publicUrl: string | undefined) {
  return (req: Request, audience: string | undefined, resource: OperationRoute['resource']): boolean =>
    (audience ?? restAudience) === (resource === 'mcp' ? mcpResource(publicBaseUrl(req, publicUrl)) : restAudience);
}
