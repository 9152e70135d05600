// Shared by the mcp-*.test.ts files: an MCP client (the official SDK's) signed in as an account.
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import { APP_REDIRECT, authorizedCode, exchangeCode, readPage, redirectParams, registeredApp, submitConsent } from './oauth.js';
import { PASSWORD, signedInClient, type TestServer } from './server.js';

export const ALL_SCOPES = 'tasks:read tasks:write connectors:read connectors:write';

export const mcpUrl = (server: TestServer) => new URL(`${server.baseUrl}/mcp`);

/**
 * An access token for a fresh account, through a registered app and the consent page; for the MCP
 * server (`resource` = its URL) unless another resource is named (null: none, the REST API's default).
 */
export async function appTokens(server: TestServer, options: { scope?: string; resource?: string | null } = {}) {
  const resource = options.resource === undefined ? mcpUrl(server).href : (options.resource ?? undefined);
  const session = await signedInClient(server);
  const clientId = await registeredApp(server, { client_name: 'MCP host' });
  const { code, verifier } = await authorizedCode(server, {
    clientId,
    redirectUri: APP_REDIRECT,
    scope: options.scope ?? ALL_SCOPES,
    email: session.email,
    ...(resource ? { resource } : {}),
  });
  const { response, body } = await exchangeCode(server, clientId, APP_REDIRECT, code, verifier, resource);
  expect(response.status).toBe(200);
  return { session, clientId, accessToken: body.access_token as string, refreshToken: body.refresh_token as string };
}

/** The REST client of the session appTokens signs in. */
export type SessionClient = Awaited<ReturnType<typeof appTokens>>['session']['client'];

/** The SDK's MCP client connected to /mcp with a bearer token. */
export async function connectMcpClient(server: TestServer, accessToken: string): Promise<Client> {
  const client = new Client({ name: 'contract-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(server), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }));
  return client;
}

/** A tool call whose result is checked to be what the REST operation would have answered, or a refusal. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  return { result, structured: result.structuredContent as Record<string, unknown> & { code?: string } };
}

/** A raw JSON-RPC POST to /mcp, for what the SDK client hides (status, headers). */
export async function postMcp(server: TestServer, message: unknown, headers: Record<string, string> = {}) {
  return fetch(mcpUrl(server), {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(message),
  });
}

/** What an MCP host keeps for one server: its client registration, tokens and PKCE verifier, in memory. */
export class TestOAuthProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  stored?: OAuthTokens;
  verifier = '';
  /** The authorisation URL the SDK would open in a browser. */
  authorizationUrl?: URL;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadata: OAuthClientMetadata,
    readonly clientMetadataUrl?: string,
  ) {}

  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.stored;
  }
  saveTokens(tokens: OAuthTokens) {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/**
 * The whole first connection of an MCP host: the SDK client is refused (401), discovers the metadata,
 * registers (DCR, or its metadata document), and sends the person to the consent page, where the test
 * plays the browser; the code goes back to the SDK, and a second connection works with the token.
 */
export async function connectThroughOAuth(server: TestServer, provider: TestOAuthProvider, email: string): Promise<Client> {
  const first = new Client({ name: 'contract-tests', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(mcpUrl(server), { authProvider: provider });
  await expect(first.connect(transport)).rejects.toThrow(UnauthorizedError);
  expect(provider.authorizationUrl).toBeDefined();
  const page = await readPage(await fetch(provider.authorizationUrl!, { redirect: 'manual' }));
  expect(page.response.status).toBe(200);
  const answer = await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' });
  const { code } = redirectParams(answer, provider.redirectUrl);
  await transport.finishAuth(code!);
  const client = new Client({ name: 'contract-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(mcpUrl(server), { authProvider: provider }));
  return client;
}
