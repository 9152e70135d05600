import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectThroughOAuth, TestOAuthProvider } from '../support/mcp.js';
import { openConsentPage, pkcePair } from '../support/oauth.js';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

// The metadata documents are served over https on loopback, with a certificate made here that only the
// test server trusts (NODE_EXTRA_CA_CERTS); CONNECTOR_ALLOW_PRIVATE_NETWORKS lets it fetch from 127.0.0.1.
let certDir: string;
let documents: Server;
let documentsBase: string;
const served = new Map<string, { body: unknown; cacheControl?: string }>();
const documentRequests: string[] = [];
let server: TestServer;

beforeAll(async () => {
  certDir = mkdtempSync(join(tmpdir(), 'mcp-cimd-'));
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
    '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    '-keyout', join(certDir, 'key.pem'), '-out', join(certDir, 'cert.pem'),
  ], { stdio: 'ignore' });
  documents = createServer({ key: readFileSync(join(certDir, 'key.pem')), cert: readFileSync(join(certDir, 'cert.pem')) }, (req, res) => {
    documentRequests.push(req.url!);
    const document = served.get(req.url!);
    if (!document) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json', ...(document.cacheControl ? { 'cache-control': document.cacheControl } : {}) });
    res.end(JSON.stringify(document.body));
  });
  await new Promise<void>((resolve) => documents.listen(0, '127.0.0.1', resolve));
  documentsBase = `https://127.0.0.1:${(documents.address() as AddressInfo).port}`;
  server = await startServer({ env: { CONNECTOR_ALLOW_PRIVATE_NETWORKS: 'true', NODE_EXTRA_CA_CERTS: join(certDir, 'cert.pem') } });
});
afterAll(async () => {
  await server?.stop();
  await new Promise((resolve) => documents?.close(resolve));
  rmSync(certDir, { recursive: true, force: true });
});

const REDIRECT = 'http://127.0.0.1:53682/callback';
const metadata = { client_name: 'An MCP host', redirect_uris: [REDIRECT], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
const audience = (token: string) => (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aud: string }).aud;

describe('the metadata an MCP host discovers', () => {
  it('the MCP server is a resource of its own (RFC 9728), and the authorisation server takes metadata documents and sends iss', async () => {
    const resource = await (await fetch(`${server.baseUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${server.baseUrl}/mcp`, authorization_servers: [server.baseUrl], bearer_methods_supported: ['header'] });
    // Only what the tools, resources and prompts use: a host asks a person for these and no more.
    expect(resource.scopes_supported).toEqual(['tasks:read', 'tasks:write', 'connectors:read', 'connectors:write']);
    const authorizationServer = await (await fetch(`${server.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(authorizationServer).toMatchObject({ client_id_metadata_document_supported: true, authorization_response_iss_parameter_supported: true });
  });
});

describe('an MCP host signing in with the SDK’s OAuth client', () => {
  it('dynamic client registration: discovery, registration, consent, then the tools, with a token bound to /mcp', async () => {
    const { email, client: rest } = await signedInClient(server);
    const provider = new TestOAuthProvider(REDIRECT, metadata);
    const client = await connectThroughOAuth(server, provider, email);

    expect(provider.client).toMatchObject({ client_id: expect.any(String), redirect_uris: [REDIRECT] });
    expect(provider.authorizationUrl!.searchParams.get('resource')).toBe(`${server.baseUrl}/mcp`);
    expect(provider.authorizationUrl!.searchParams.get('scope')).toBe('tasks:read tasks:write connectors:read connectors:write');
    expect(audience(provider.stored!.access_token)).toBe(`${server.baseUrl}/mcp`);
    expect((await client.listTools()).tools).toHaveLength(9);
    const created = await callTool(client, 'create_task', { title: 'Made by an MCP host' });
    expect((await rest.getTask(created.structured.id as string)).data).toEqual(created.structured);
    await client.close();
  });

  it('a client ID metadata document: the URL is the client_id, fetched once while its max-age lasts, its redirect URIs binding', async () => {
    const { email, client: rest } = await signedInClient(server);
    const path = '/hosts/one.json';
    const url = `${documentsBase}${path}`;
    served.set(path, { body: { client_id: url, ...metadata, client_name: 'Documented host' }, cacheControl: 'max-age=300' });
    const provider = new TestOAuthProvider(REDIRECT, metadata, url);
    const client = await connectThroughOAuth(server, provider, email);

    expect(provider.client).toMatchObject({ client_id: url });
    expect(provider.authorizationUrl!.searchParams.get('client_id')).toBe(url);
    expect(documentRequests.filter((request) => request === path)).toHaveLength(1);
    const page = await callTool(client, 'list_tasks');
    expect(page.structured).toEqual((await rest.listTasks()).data);
    await client.close();

    // Another redirect URI than the document's is not this client's.
    const { challenge } = pkcePair();
    const elsewhere = await openConsentPage(server, { client_id: url, redirect_uri: 'https://evil.example/cb', code_challenge: challenge });
    expect(elsewhere.response.status).toBe(400);
  });

  it('a document that names another client_id, or that cannot be fetched, describes no client', async () => {
    const { challenge } = pkcePair();
    served.set('/hosts/liar.json', { body: { client_id: 'https://someone-else.example/client.json', ...metadata } });
    for (const path of ['/hosts/liar.json', '/hosts/missing.json']) {
      const page = await openConsentPage(server, { client_id: `${documentsBase}${path}`, redirect_uri: REDIRECT, code_challenge: challenge });
      expect(page.response.status).toBe(400);
      expect(page.html).toContain('not registered');
    }
  });
});

describe('application_type at registration', () => {
  const register = (body: Record<string, unknown>) =>
    fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('native takes loopback and private-use redirects, web takes https; the other way round is invalid_redirect_uri', async () => {
    expect(await (await register({ application_type: 'native', redirect_uris: [REDIRECT, 'com.example.host:/cb'] })).json()).toMatchObject({ application_type: 'native' });
    expect(await (await register({ application_type: 'web', redirect_uris: ['https://host.example/cb'] })).json()).toMatchObject({ application_type: 'web' });
    expect(await (await register({ redirect_uris: ['https://host.example/cb'] })).json()).toMatchObject({ application_type: 'web' });
    for (const body of [
      { application_type: 'native', redirect_uris: ['https://host.example/cb'] },
      { application_type: 'web', redirect_uris: [REDIRECT] },
    ]) {
      const response = await register(body);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    }
    expect(await (await register({ application_type: 'desktop', redirect_uris: [REDIRECT] })).json()).toMatchObject({ error: 'invalid_client_metadata' });
  });
});
