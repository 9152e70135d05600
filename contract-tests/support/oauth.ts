// Shared by the oauth-*.test.ts files: a PKCE client speaking the authorisation server's HTTP as a
// browser and an app would (no SDK: these endpoints are form-encoded and answer HTML or redirects).
import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import { PASSWORD, signedInClient, type TestServer } from './server.js';

export const TASKCTL_REDIRECT = 'http://127.0.0.1:53682/callback';
export const APP_REDIRECT = 'https://app.example.com/oauth/callback';

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(server: TestServer, metadata: Record<string, unknown>) {
  const response = await fetch(`${server.baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

export async function registeredApp(server: TestServer, metadata: Record<string, unknown> = {}): Promise<string> {
  const { response, body } = await registerClient(server, { client_name: 'Test app', redirect_uris: [APP_REDIRECT], ...metadata });
  expect(response.status).toBe(201);
  return body.client_id as string;
}

export interface AuthorizeParams {
  client_id: string;
  redirect_uri: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
  state?: string;
  scope?: string;
  /** RFC 8707: the resource the token is for. */
  resource?: string;
}

export function authorizeUrl(server: TestServer, params: AuthorizeParams): string {
  const query = new URLSearchParams({ response_type: 'code', code_challenge_method: 'S256', ...params } as Record<string, string>);
  return `${server.baseUrl}/oauth/authorize?${query}`;
}

export interface ConsentPage {
  response: Response;
  html: string;
  cookie: string | undefined;
  /** The form's hidden fields (CSRF token included), decoded. */
  fields: Record<string, string>;
}

export async function openConsentPage(server: TestServer, params: AuthorizeParams, cookie?: string): Promise<ConsentPage> {
  const response = await fetch(authorizeUrl(server, params), { redirect: 'manual', headers: cookie ? { cookie } : {} });
  return readPage(response);
}

export async function readPage(response: Response): Promise<ConsentPage> {
  const html = await response.text();
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescapeHtml(match[2]!);
  const cookie = response.headers.get('set-cookie')?.split(';')[0];
  return { response, html, cookie, fields };
}

export function submitConsent(
  server: TestServer,
  page: ConsentPage,
  form: { email?: string; password?: string; decision: 'allow' | 'deny' },
  overrides: { fields?: Record<string, string>; omit?: string[]; cookie?: string | null } = {},
): Promise<Response> {
  const cookie = overrides.cookie === undefined ? page.cookie : overrides.cookie;
  const entries = Object.entries({ ...page.fields, ...overrides.fields, ...form }).filter(
    (entry): entry is [string, string] => entry[1] !== undefined && !overrides.omit?.includes(entry[0]),
  );
  const body = new URLSearchParams(entries);
  return fetch(`${server.baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    body,
  });
}

/** The query of a redirect back to the client, checking it goes where it should. */
export function redirectParams(response: Response, expectedBase: string): Record<string, string> {
  expect([302, 303]).toContain(response.status);
  const location = new URL(response.headers.get('location')!);
  expect(`${location.origin}${location.pathname}`).toBe(expectedBase);
  return Object.fromEntries(location.searchParams);
}

export interface SignedInAccount {
  email: string;
}

/** Consents as a fresh (or the given) account and returns the code with its verifier. */
export async function authorizedCode(
  server: TestServer,
  options: { clientId: string; redirectUri: string; scope?: string; email?: string; resource?: string },
): Promise<{ code: string; verifier: string; email: string }> {
  const email = options.email ?? (await signedInClient(server)).email;
  const { verifier, challenge } = pkcePair();
  const page = await openConsentPage(server, {
    client_id: options.clientId,
    redirect_uri: options.redirectUri,
    code_challenge: challenge,
    state: 'xyz',
    ...(options.scope ? { scope: options.scope } : {}),
    ...(options.resource ? { resource: options.resource } : {}),
  });
  expect(page.response.status).toBe(200);
  const answer = await submitConsent(server, page, { email, password: PASSWORD, decision: 'allow' });
  const params = redirectParams(answer, options.redirectUri);
  expect(params.state).toBe('xyz');
  return { code: params.code!, verifier, email };
}

export async function tokenRequest(server: TestServer, form: Record<string, string>) {
  const response = await fetch(`${server.baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form),
  });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

export function exchangeCode(server: TestServer, clientId: string, redirectUri: string, code: string, verifier: string, resource?: string) {
  return tokenRequest(server, {
    grant_type: 'authorization_code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code,
    code_verifier: verifier,
    ...(resource ? { resource } : {}),
  });
}

export function refresh(server: TestServer, clientId: string, refreshToken: string, scope?: string, resource?: string) {
  return tokenRequest(server, {
    grant_type: 'refresh_token',
    client_id: clientId,
    refresh_token: refreshToken,
    ...(scope ? { scope } : {}),
    ...(resource ? { resource } : {}),
  });
}

/** Tokens for a fresh account through the whole flow. */
export async function oauthTokens(server: TestServer, clientId: string, redirectUri: string, scope?: string) {
  const { code, verifier, email } = await authorizedCode(server, { clientId, redirectUri, scope });
  const { response, body } = await exchangeCode(server, clientId, redirectUri, code, verifier);
  expect(response.status).toBe(200);
  return { email, accessToken: body.access_token as string, refreshToken: body.refresh_token as string, scope: body.scope as string };
}

export function expectOAuthError(answer: { response: Response; body: Record<string, unknown> }, status: number, error: string): void {
  expect(answer.response.status).toBe(status);
  expect(answer.body).toEqual({ error, error_description: expect.any(String) });
  // Our own words, never the library's ("Invalid grant: ...", "Missing parameter: ...").
  expect(answer.body.error_description).not.toMatch(/^(Invalid|Missing|Unsupported|Unauthorized|Server error)\b.*:/);
}

export const bearer = (accessToken: string) => ({ authorization: `Bearer ${accessToken}` });

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code)));
}
