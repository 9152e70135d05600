import type { components } from '../../generated/api.js';
import { apiResource, mcpResource } from '../http/resources.js';
import { ALL_SCOPES } from '../http/caller.js';
import { DEVICE_CODE_GRANT } from './device-grant.service.js';

type Schemas = components['schemas'];

/** RFC 8414: what a client needs to know to use this authorisation server. */
export function authorizationServerMetadata(issuer: string): Schemas['AuthorizationServerMetadata'] {
  return {
    issuer,
    authorization_endpoint: `${issuer}/oauth/authorize`,
    token_endpoint: `${issuer}/oauth/token`,
    revocation_endpoint: `${issuer}/oauth/revoke`,
    registration_endpoint: `${issuer}/oauth/register`,
    scopes_supported: [...ALL_SCOPES],
    response_types_supported: ['code'],
    grant_types_supported: ['authorization_code', 'refresh_token', DEVICE_CODE_GRANT],
    device_authorization_endpoint: `${issuer}/oauth/device_authorization`,
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    code_challenge_methods_supported: ['S256'],
    authorization_response_iss_parameter_supported: true,
    client_id_metadata_document_supported: true,
    service_documentation: `${issuer}/docs`,
  };
}

/** RFC 9728: this API is the resource, and this server its authorisation server. */
export function protectedResourceMetadata(baseUrl: string): Schemas['ProtectedResourceMetadata'] {
  return {
    resource: apiResource(baseUrl),
    authorization_servers: [baseUrl],
    scopes_supported: [...ALL_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Task Service API',
    resource_documentation: `${baseUrl}/docs`,
  };
}

/**
 * RFC 9728 for the MCP server at /mcp: a resource of its own, tokens for it are bound to it (RFC 8707);
 * `scopes` are those its tools, resources and prompts use (src/mcp/mcp-scopes.ts).
 */
export function mcpProtectedResourceMetadata(baseUrl: string, scopes: readonly Schemas['Scope'][]): Schemas['ProtectedResourceMetadata'] {
  return {
    resource: mcpResource(baseUrl),
    authorization_servers: [baseUrl],
    scopes_supported: [...scopes],
    bearer_methods_supported: ['header'],
    resource_name: 'Task Service MCP server',
    resource_documentation: `${baseUrl}/docs`,
  };
}
