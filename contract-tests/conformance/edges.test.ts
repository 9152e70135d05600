// Cases a conformance tool (Schemathesis, Portman, Prism) found at the edge of the contract: impossible
// dates, raw colons in a query, bodies and headers of OAuth redirects and errors, response headers the
// document marks required.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_REDIRECT, authorizeUrl, pkcePair, registeredApp } from '../support/oauth.js';
import { signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

let server: TestServer;
let accessToken: string;
beforeAll(async () => {
  server = await startServer();
  accessToken = (await signedInClient(server)).tokens.accessToken;
});
afterAll(async () => {
  await server?.stop();
});

const IMPOSSIBLE_DATES = ['2026-02-31T00:00:00Z', '2026-04-31T00:00:00Z', '2026-06-31T00:00:00Z', '2026-02-29T00:00:00Z'];

function call(path: string, init: RequestInit = {}) {
  return fetch(`${server.baseUrl}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', ...init.headers },
  });
}

async function expectValidationFailed(response: Response, path: string) {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { code: string; details: { path: string }[] };
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(body.details.map((detail) => detail.path)).toContain(path);
}

describe('date-times are checked against the calendar at the edge', () => {
  it.each(IMPOSSIBLE_DATES)('creating a task due %s is 400 VALIDATION_FAILED, and nothing is stored', async (dueAt) => {
    const before = ((await (await call('/tasks?limit=200')).json()) as { items: unknown[] }).items.length;
    await expectValidationFailed(await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Impossible', dueAt }) }), '/body/dueAt');
    expect(((await (await call('/tasks?limit=200')).json()) as { items: unknown[] }).items).toHaveLength(before);
  });

  it.each(IMPOSSIBLE_DATES)('changing a task to be due %s is 400 and leaves it as it was', async (dueAt) => {
    const task = (await (await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Possible', dueAt: '2026-02-28T00:00:00Z' }) })).json()) as { id: string };
    await expectValidationFailed(await call(`/tasks/${task.id}`, { method: 'PATCH', body: JSON.stringify({ dueAt }) }), '/body/dueAt');
    expect(((await (await call(`/tasks/${task.id}`)).json()) as { dueAt: string }).dueAt).toBe('2026-02-28T00:00:00.000Z');
  });

  it.each(IMPOSSIBLE_DATES)('listing tasks updated since %s is 400', async (since) => {
    await expectValidationFailed(await call(`/tasks?updatedSince=${encodeURIComponent(since)}`), '/query/updatedSince');
  });

  it('a leap second (23:59:60) is refused with 400, as the document says; 29 February of a leap year is a date', async () => {
    await expectValidationFailed(await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Leap', dueAt: '2016-12-31T23:59:60Z' }) }), '/body/dueAt');
    const leapDay = await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Leap day', dueAt: '2028-02-29T12:00:00+02:00' }) });
    expect(leapDay.status).toBe(201);
    expect(((await leapDay.json()) as { dueAt: string }).dueAt).toBe('2028-02-29T10:00:00.000Z');
  });
});

describe('query values may carry reserved characters raw (RFC 3986 §3.4)', () => {
  it('GET /tasks?updatedSince=2020-01-01T00:00:00Z with unencoded colons answers 200 with the tasks since then', async () => {
    const task = (await (await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Raw colon' }) })).json()) as { id: string };
    const raw = await call('/tasks?updatedSince=2020-01-01T00:00:00Z&limit=200');
    expect(raw.status).toBe(200);
    const items = ((await raw.json()) as { items: { id: string }[] }).items;
    expect(items.map((item) => item.id)).toContain(task.id);

    const future = await call('/tasks?updatedSince=2999-01-01T00:00:00Z');
    expect(future.status).toBe(200);
    expect(((await future.json()) as { items: unknown[] }).items).toEqual([]);
  });
});

describe('query parameters are plain name=value pairs', () => {
  it('a parameter given twice, or in bracket notation, is 400 VALIDATION_FAILED, never read as a nested value', async () => {
    await expectValidationFailed(await call('/tasks?limit=5&limit=6'), '/query/limit');
    const bracketed = await call('/tasks?status[in]=open');
    expect(bracketed.status).toBe(400);
    expect(((await bracketed.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
    const nested = await call('/me?filter[a][b]=1');
    expect(nested.status).toBe(400);
    expect(((await nested.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
  });

  it('an encoded value reads decoded, as the same value sent raw', async () => {
    const task = (await (await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Encoded' }) })).json()) as { id: string };
    const encoded = await call(`/tasks?updatedSince=${encodeURIComponent('2020-01-01T00:00:00+00:00')}&limit=200`);
    expect(encoded.status).toBe(200);
    expect(((await encoded.json()) as { items: { id: string }[] }).items.map((item) => item.id)).toContain(task.id);
  });
});

describe('paths are matched as the document writes them, whatever else the request gets wrong', () => {
  it('a path parameter that is not valid percent-encoding is 400 VALIDATION_FAILED in the common body, not an HTML page', async () => {
    const response = await call('/tasks/%ZZ');
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    await expectValidationFailed(response, '/path/taskId');
  });

  it('a concrete path wins over a template that also matches it: /tasks/changes is the feed, not a task', async () => {
    const feed = await call('/tasks/changes');
    expect(feed.status).toBe(200);
    expect(Object.keys((await feed.json()) as object)).toEqual(expect.arrayContaining(['changes', 'nextCursor', 'hasMore']));
  });

  it('one trailing slash and the letters\' case do not matter; an empty segment is another path (404)', async () => {
    const task = (await (await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Found either way' }) })).json()) as { id: string };
    for (const path of [`/tasks/${task.id}/`, `/TASKS/${task.id}`, '/Me', '/me/']) expect((await call(path)).status, path).toBe(200);
    expect((await call(`/tasks/${task.id}//`)).status).toBe(404);
    expect(((await (await call('/tasks//')).json()) as { code: string }).code).toBe('NOT_FOUND');
  });

  it('a method the path does not take is 405 with Allow; a HEAD is answered as the GET, without a body', async () => {
    const refused = await call('/me', { method: 'PUT' });
    expect(refused.status).toBe(405);
    expect(refused.headers.get('allow')).toBe('GET, HEAD, DELETE');
    // Every method Allow names is answered.
    const head = await call('/me', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });
});

describe('OAuth authorization endpoint answers', () => {
  it('its redirects carry no body (the document declares none), only Location', async () => {
    const clientId = await registeredApp(server);
    const { challenge } = pkcePair();
    const response = await fetch(authorizeUrl(server, { client_id: clientId, redirect_uri: APP_REDIRECT, code_challenge: challenge, response_type: 'token' }), { redirect: 'manual' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/^https:\/\/app\.example\.com\/oauth\/callback\?error=unsupported_response_type/);
    expect(response.headers.get('content-type')).toBeNull();
    expect(await response.text()).toBe('');
  });

  it('its JSON 400s (a query of the wrong shape) carry the security headers its 400 response declares', async () => {
    const response = await fetch(`${server.baseUrl}/oauth/authorize?client_id=${'x'.repeat(300)}`, { redirect: 'manual' });
    expect(response.status).toBe(400);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(((await response.json()) as { code: string }).code).toBe('VALIDATION_FAILED');
  });

  it('withdrawing an app with a too-long client id is the documented 400 VALIDATION_FAILED', async () => {
    await expectValidationFailed(await call(`/oauth/authorizations/${'c'.repeat(256)}`, { method: 'DELETE' }), '/params/clientId');
  });
});

type ResponseObject = { headers?: Record<string, { required?: boolean; $ref?: string }>; $ref?: string };
type OpenApiDocument = {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject> }>>;
  components: { responses: Record<string, ResponseObject>; headers: Record<string, { required?: boolean }> };
};

/** The headers the served document marks `required: true` for this operation's response. */
async function requiredHeaders(path: string, method: string, status: number): Promise<string[]> {
  const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as OpenApiDocument;
  let response = document.paths[path]![method]!.responses[String(status)]!;
  if (response.$ref) response = document.components.responses[response.$ref.split('/').pop()!]!;
  return Object.entries(response.headers ?? {})
    .filter(([, header]) => (header.$ref ? document.components.headers[header.$ref.split('/').pop()!]!.required : header.required))
    .map(([name]) => name);
}

async function expectRequiredHeaders(response: Response, path: string, method: string) {
  const required = await requiredHeaders(path, method, response.status);
  expect(required.length).toBeGreaterThan(0);
  expect(required.filter((name) => !response.headers.has(name))).toEqual([]);
}

describe('the OAuth endpoints answer every 400 in the OAuth error body (RFC 6749 §5.2, RFC 7591 §3.2.2)', () => {
  const form = (path: string, body: string) =>
    fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });

  async function expectOAuthError(response: Response, error: string) {
    expect(response.status).toBe(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['error', 'error_description']);
    expect(body.error).toBe(error);
    expect(body.error_description).toEqual(expect.any(String));
    return body;
  }

  it('a NUL character in a form field of the token endpoint is invalid_request, not the common body', async () => {
    const body = await expectOAuthError(await form('/oauth/token', 'grant_type=refresh_token&client_id=taskctl&refresh_token=a%00b'), 'invalid_request');
    expect(body.error_description).toContain('NUL');
  });

  it('a NUL character in the token to revoke is invalid_request', async () => {
    await expectOAuthError(await form('/oauth/revoke', 'token=abc%00def'), 'invalid_request');
  });

  it('a device authorisation request with a NUL character is invalid_request', async () => {
    await expectOAuthError(await form('/oauth/device_authorization', 'client_id=task%00ctl'), 'invalid_request');
  });

  it('a registration that is not valid JSON, or holds a NUL character, is invalid_client_metadata', async () => {
    const post = (body: string) => fetch(`${server.baseUrl}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    await expectOAuthError(await post('{"redirect_uris": ['), 'invalid_client_metadata');
    await expectOAuthError(await post(JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], client_name: 'a\u0000b' })), 'invalid_client_metadata');
  });

  it('the statuses the document gives the common body keep it: a body too large is 413 PAYLOAD_TOO_LARGE', async () => {
    const response = await form('/oauth/token', `grant_type=refresh_token&refresh_token=${'a'.repeat(20_000)}`);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });
});

describe('every response header the document marks required is sent', () => {
  it('201 on create: Location and the nine rate-limit headers', async () => {
    const response = await call('/tasks', { method: 'POST', body: JSON.stringify({ title: 'Headers' }) });
    expect(response.status).toBe(201);
    expect(await requiredHeaders('/tasks', 'post', 201)).toEqual(expect.arrayContaining(['Location', 'X-RateLimit-Limit', 'X-RateLimit-Reset-client']));
    await expectRequiredHeaders(response, '/tasks', 'post');
  });

  it('401 without credentials: WWW-Authenticate and the rate-limit headers', async () => {
    const response = await fetch(`${server.baseUrl}/me`);
    expect(response.status).toBe(401);
    expect(await requiredHeaders('/me', 'get', 401)).toContain('WWW-Authenticate');
    await expectRequiredHeaders(response, '/me', 'get');
  });

  it('429 on a locked login: Retry-After and the rate-limit headers', async () => {
    const email = uniqueEmail('locked');
    let response: Response | undefined;
    for (let attempt = 0; attempt < 6; attempt++) {
      response = await fetch(`${server.baseUrl}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: 'wrong password' }) });
    }
    expect(response!.status).toBe(429);
    expect(await requiredHeaders('/auth/login', 'post', 429)).toContain('Retry-After');
    await expectRequiredHeaders(response!, '/auth/login', 'post');
  });

  it('302 from the authorization endpoint: Location; its 400 page: the security headers', async () => {
    const clientId = await registeredApp(server);
    const redirect = await fetch(authorizeUrl(server, { client_id: clientId, redirect_uri: APP_REDIRECT, response_type: 'token' }), { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    await expectRequiredHeaders(redirect, '/oauth/authorize', 'get');
    const page = await fetch(authorizeUrl(server, { client_id: 'no-such-client', redirect_uri: APP_REDIRECT }), { redirect: 'manual' });
    expect(page.status).toBe(400);
    expect(await requiredHeaders('/oauth/authorize', 'get', 400)).toEqual(expect.arrayContaining(['Content-Security-Policy', 'X-Frame-Options']));
    await expectRequiredHeaders(page, '/oauth/authorize', 'get');
  });
});

describe('the reference page loads nothing from elsewhere', () => {
  it('serves its favicon and logo itself, and its Redoc bundle asks no CDN for a logo', async () => {
    const icon = await fetch(`${server.baseUrl}/favicon.ico`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    expect(Buffer.from(await icon.arrayBuffer()).subarray(0, 4)).toEqual(Buffer.from([0, 0, 1, 0]));

    const document = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as { info: { 'x-logo': { url: string }; contact: unknown } };
    expect(document.info.contact).toBeDefined();
    const logo = await fetch(`${server.baseUrl}${document.info['x-logo'].url}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toMatch(/^image\/svg\+xml/);

    const page = await (await fetch(`${server.baseUrl}/docs`)).text();
    expect(page).toContain('href="/favicon.ico"');
    const bundle = await (await fetch(`${server.baseUrl}/docs/redoc.standalone.js`)).text();
    expect(bundle).not.toContain('cdn.redoc.ly');
  });

  it('answers a favicon request it cannot meet (If-Match, a range past the end) and goes on serving', async () => {
    expect((await fetch(`${server.baseUrl}/favicon.ico`, { headers: { 'if-match': '"x"' } })).status).toBe(412);
    expect((await fetch(`${server.baseUrl}/favicon.ico`, { headers: { range: 'bytes=99999999-' } })).status).toBe(416);
    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200);
  });
});
