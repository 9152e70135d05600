import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';

// The web app as the service serves it at /app/, from a small build of its own (WEB_APP_DIR): what
// is under test is the serving (caching, the policy, the app's routes), not the app.

const POLICY = "default-src 'self'; base-uri 'self'; form-action 'self'; object-src 'none'; frame-ancestors 'none'";
const INDEX = '<!doctype html><html lang="en"><head><script type="module" crossorigin src="/app/assets/index-3f9a1c2b.js"></script></head><body><div id="app"></div></body></html>';
const SCRIPT = 'document.getElementById("app").textContent = "Tasks";';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'web-app-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-3f9a1c2b.js'), SCRIPT);
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, '.env'), 'SECRET=1');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const get = (server: TestServer, path: string, init: RequestInit = {}) => fetch(`${server.baseUrl}${path}`, { redirect: 'manual', ...init });

describe('the web app at /app/', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WEB_APP_DIR: dir } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('sends GET / (and /app) to /app/ with a 302', async () => {
    for (const path of ['/', '/app']) {
      const response = await get(server, path);
      expect(response.status, path).toBe(302);
      expect(response.headers.get('location'), path).toBe('/app/');
    }
  });

  it('answers /app/ with index.html, revalidated on every load, under a policy of this server only and no framing', async () => {
    const response = await get(server, '/app/');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(response.headers.get('content-security-policy')).toBe(POLICY);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.text()).toBe(INDEX);
  });

  it('answers the app’s own routes (any other path under /app/) with index.html, so a reload stays on the page', async () => {
    for (const path of ['/app/tasks', '/app/webhooks/5b8c0f2e-1d3a-4c6b-9e7f-2a4d6c8e0b13', '/app/index.html']) {
      const response = await get(server, path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('cache-control'), path).toBe('no-cache');
      expect(await response.text(), path).toBe(INDEX);
    }
  });

  it('caches hashed assets for a year, immutable, with their type', async () => {
    const response = await get(server, '/app/assets/index-3f9a1c2b.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(response.headers.get('content-security-policy')).toBe(POLICY);
    expect(await response.text()).toBe(SCRIPT);
    const head = await get(server, '/app/assets/index-3f9a1c2b.js', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves the build’s other files, revalidated', async () => {
    const response = await get(server, '/app/favicon.svg');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(response.headers.get('cache-control')).toBe('no-cache');
  });

  it('answers a missing asset 404 in the common error body, not the app’s page', async () => {
    const response = await get(server, '/app/assets/index-00000000.js');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
  });

  it('never serves a dot-file or anything outside the build', async () => {
    for (const path of ['/app/.env', '/app/..%2Fpackage.json', '/app/assets/..%2F..%2Fpackage.json', '/app/%2e%2e/%2e%2e/package.json']) {
      const response = await get(server, path);
      const body = await response.text();
      expect(body, path).not.toContain('SECRET');
      expect(body, path).not.toContain('"name"');
    }
  });

  it('takes GET and HEAD only: 405 with Allow in the common error body', async () => {
    const response = await get(server, '/app/tasks', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(await response.json()).toMatchObject({ statusCode: 405, code: 'METHOD_NOT_ALLOWED' });
  });

  it('leaves the API as it was: its paths, and a path of neither, answer as before', async () => {
    expect((await get(server, '/healthz')).status).toBe(200);
    const unknown = await get(server, '/apps');
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 'NOT_FOUND', message: 'No route GET /apps.' });
    expect(unknown.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the web app when it is not built', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer({ env: { WEB_APP_DIR: join(dir, 'missing') } });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('answers /app/ 404 in the common error body, saying it is not built', async () => {
    for (const path of ['/app/', '/app/assets/index-3f9a1c2b.js']) {
      const response = await get(server, path);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { code: string; message: string };
      expect(body.code).toBe('NOT_FOUND');
      expect(body.message).toMatch(/^The web app is not built on this server/);
      expect(body.message).toContain('`npm ci` builds it');
      // No path of the server's disk in an answer to anyone.
      expect(body.message).not.toContain(dir);
      expect(body.message).not.toMatch(/(^|\s)\/[a-z]/i);
    }
  });
});
