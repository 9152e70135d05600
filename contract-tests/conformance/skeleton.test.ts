import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const post = (path: string, body: string, contentType = 'application/json') =>
  fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': contentType }, body });

describe('the skeleton', () => {
  it('serves health and readiness outside the rate limits', async () => {
    const health = await fetch(`${server.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-ratelimit-limit')).toBeNull();
    const ready = await fetch(`${server.baseUrl}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ok', checks: { database: 'up', redis: 'not-configured' } });
  });

  it('serves the document as JSON and YAML, the same document', async () => {
    const json = await (await fetch(`${server.baseUrl}/openapi.json`)).json();
    const yamlResponse = await fetch(`${server.baseUrl}/openapi.yaml`);
    expect(yamlResponse.headers.get('content-type')).toContain('application/yaml');
    expect(parse(await yamlResponse.text())).toEqual(json);
    expect(json.openapi).toBe('3.1.0');
    expect(json.paths['/tasks'].get.operationId).toBe('listTasks');
  });

  it('renders Redoc from a bundle on this server, with no outside address to load', async () => {
    const page = await fetch(`${server.baseUrl}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<redoc spec-url="/openapi.json"');
    expect(html).not.toMatch(/src="https?:/);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
    const bundle = await fetch(`${server.baseUrl}/docs/redoc.standalone.js`);
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  });

  it('answers an unknown route with 404 in the common error body', async () => {
    const response = await fetch(`${server.baseUrl}/no-such-route`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('answers malformed JSON with 400 VALIDATION_FAILED', async () => {
    const response = await post('/auth/login', '{"email": ');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ statusCode: 400, code: 'VALIDATION_FAILED', details: [{ path: '/body' }] });
  });

  it('answers a body that breaks the document with 400 and details naming the field', async () => {
    const response = await post('/auth/register', JSON.stringify({ email: 'not-an-email', password: 'short' }));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    const paths = body.details.map((detail: { path: string }) => detail.path);
    expect(paths).toEqual(expect.arrayContaining(['/body/email', '/body/password']));
  });

  it('answers a body over 1 MiB with 413 and the wrong content type with 415', async () => {
    const big = await post('/tasks', JSON.stringify({ title: 'x'.repeat(1_100_000) }));
    expect(big.status).toBe(413);
    expect(await big.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    const wrongType = await post('/auth/login', 'email=a', 'text/plain');
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('answers a protected operation without credentials with 401 and WWW-Authenticate, no error code (RFC 6750 §3.1)', async () => {
    const response = await fetch(`${server.baseUrl}/tasks`);
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/);
    expect(await response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHENTICATED' });
  });

  it('answers a method the route does not take with 405 and Allow naming the ones it does', async () => {
    const response = await fetch(`${server.baseUrl}/tasks`, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')?.split(/, */).sort()).toEqual(['GET', 'HEAD', 'POST']);
    expect(await response.json()).toMatchObject({ statusCode: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('refuses the NUL character anywhere in a request with 400 naming where, on every database', async () => {
    const body = await post('/auth/register', JSON.stringify({ email: `nul-${Date.now()}@example.com`, password: 'correct horse battery staple', name: 'Ada\u0000' }));
    expect(body.status).toBe(400);
    expect(await body.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/body/name' }] });
    const query = await fetch(`${server.baseUrl}/oauth/authorize?client_id=taskctl%00`);
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: '/query/client_id' }] });
    expect(body.headers.get('x-ratelimit-limit')).not.toBeNull();
  });

  it('answers HEAD as the GET it stands for, without the body', async () => {
    const anonymous = await fetch(`${server.baseUrl}/tasks`, { method: 'HEAD' });
    expect(anonymous.status).toBe(401);
    const { accessToken } = (await (await post('/auth/register', JSON.stringify({ email: `head-${Date.now()}@example.com`, password: 'correct horse battery staple' }))).json()) as { accessToken: string };
    const head = await fetch(`${server.baseUrl}/me`, { method: 'HEAD', headers: { authorization: `Bearer ${accessToken}` } });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toContain('application/json');
    expect(head.headers.get('x-ratelimit-limit-client')).not.toBeNull();
    expect(await head.text()).toBe('');
  });

  it('answers a body nested half a million deep with 400, not a 500', async () => {
    const { accessToken } = (await (await post('/auth/register', JSON.stringify({ email: `deep-${Date.now()}@example.com`, password: 'correct horse battery staple' }))).json()) as { accessToken: string };
    const response = await fetch(`${server.baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: `${'['.repeat(500_000)}${']'.repeat(500_000)}`,
    });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('challenges a wrong password without calling it a bad token', async () => {
    const response = await post('/auth/login', JSON.stringify({ email: 'nobody@example.com', password: 'not the password' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"$/);
  });
});
