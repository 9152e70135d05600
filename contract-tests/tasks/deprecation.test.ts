import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { signedInClient, startServer, type TestServer } from '../support/server.js';

// listTasks' updatedSince is deprecated (docs/versioning.md): a request that uses it is told so on the wire.

let server: TestServer;
let accessToken: string;
beforeAll(async () => {
  server = await startServer();
  accessToken = (await signedInClient(server)).tokens.accessToken;
});
afterAll(async () => {
  await server?.stop();
});

const listTasks = (query: string, headers: Record<string, string> = {}) =>
  fetch(`${server.baseUrl}/tasks${query}`, { headers: { Authorization: `Bearer ${accessToken}`, ...headers } });

describe('a deprecated parameter on the wire', () => {
  it('answers a request with updatedSince with Deprecation, Sunset and Link', async () => {
    const response = await listTasks('?updatedSince=2026-01-01T00:00:00Z');
    expect(response.status).toBe(200);
    expect(response.headers.get('deprecation')).toBe(`@${Date.UTC(2026, 10, 28) / 1000}`);
    expect(response.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
    expect(response.headers.get('link')).toBe('</docs#operation/listTasks>; rel="deprecation"');
  });

  it('carries them on a refusal of such a request too (here a malformed time)', async () => {
    const response = await listTasks('?updatedSince=yesterday');
    expect(response.status).toBe(400);
    expect(response.headers.get('sunset')).toBe('Tue, 01 Jun 2027 00:00:00 GMT');
  });

  it('leaves them off a request that does not use it, and off other operations', async () => {
    for (const response of [await listTasks('?status=open'), await fetch(`${server.baseUrl}/tasks/changes`, { headers: { Authorization: `Bearer ${accessToken}` } })]) {
      expect(response.status).toBe(200);
      expect(response.headers.get('deprecation')).toBeNull();
      expect(response.headers.get('sunset')).toBeNull();
    }
  });

  it('lets a browser read them', async () => {
    const response = await listTasks('?updatedSince=2026-01-01T00:00:00Z', { Origin: 'https://app.example.com' });
    const exposed = (response.headers.get('access-control-expose-headers') ?? '').split(',').map((name) => name.trim().toLowerCase());
    expect(exposed).toEqual(expect.arrayContaining(['deprecation', 'sunset', 'link']));
  });
});

describe('GET /openapi.json', () => {
  it('is the contract this server speaks: openapi/openapi.yaml, its version included', async () => {
    const served = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { info: { version: string } };
    const source = parse(readFileSync(new URL('../../openapi/openapi.yaml', import.meta.url), 'utf8')) as { info: { version: string } };
    expect(served).toEqual(source);
    expect(served.info.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
