import type { Request } from 'express';
import type { AppError } from '../platform/errors.js';
import { publicBaseUrl } from './public-url.js';
import type { OperationRoute } from './operation-table.js';
import { API_RESOURCE_METADATA_PATH, MCP_RESOURCE_METADATA_PATH } from './resources.js';

/**
 * The `WWW-Authenticate` challenge of a 401 or an insufficient-scope 403 (RFC 6750 §3, RFC 9728 §5.1):
 * it points at the metadata of the resource asked for; `error="invalid_token"` only when a bearer token
 * was sent and was the problem (a request with no credentials gets no error code, RFC 6750 §3.1); a
 * scope refusal names the scope, so a client can ask for it (step-up authorisation). A 401 of /mcp names
 * the scopes its tools use (MCP authorization: the host asks for those, not every scope of the server).
 */
export function bearerChallenge(
  req: Request,
  resource: OperationRoute['resource'],
  error: AppError,
  { publicUrl, mcpScopes = [] }: { publicUrl: string | undefined; mcpScopes?: readonly string[] },
): string | undefined {
  const metadataPath = resource === 'mcp' ? MCP_RESOURCE_METADATA_PATH : API_RESOURCE_METADATA_PATH;
  const metadata = `resource_metadata="${publicBaseUrl(req, publicUrl)}${metadataPath}"`;
  if (error.status === 403 && error.code === 'INSUFFICIENT_SCOPE') {
    return `Bearer error="insufficient_scope", scope="${String(error.extras.requiredScope)}", ${metadata}`;
  }
  if (error.status !== 401) return undefined;
  const scope = resource === 'mcp' && mcpScopes.length > 0 ? `scope="${mcpScopes.join(' ')}", ` : '';
  const aboutTheToken = (error.code === 'UNAUTHENTICATED' || error.code === 'TOKEN_EXPIRED') && req.headers.authorization !== undefined;
  return aboutTheToken ? `Bearer error="invalid_token", ${scope}${metadata}` : `Bearer ${scope}${metadata}`;
}
