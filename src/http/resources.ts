/**
 * The two resources this server protects (RFC 8707, docs/signing-in.md): the REST API, named by the base URL,
 * and the MCP server at /mcp. Tokens are bound to one of them by their `aud`.
 */
export const MCP_PATH = '/mcp';
export const API_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
export const MCP_RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';

export const apiResource = (baseUrl: string) => baseUrl;
export const mcpResource = (baseUrl: string) => `${baseUrl}${MCP_PATH}`;
