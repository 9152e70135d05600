// Prepares what a Schemathesis run needs from a server and prints it as one JSON line, then stays up
// until it is stopped (SIGTERM) when it serves the local feed:
// - an account (registered fresh, or the one in CONFORMANCE_EMAIL / CONFORMANCE_PASSWORD);
// - an API token of that account (every scope of the document);
// - an OAuth access token of the built-in client `taskctl`, through the real consent page (PKCE);
// - with --feed: an iCalendar feed on 127.0.0.1 (the contract tests' fake) and a connected account on it,
//   so connect → sync → job runs without the server ever reaching beyond this machine.
// Usage: node --import tsx scripts/conformance/fixture.ts <base-url> [--feed]
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { startFakeIcalFeeds } from '../../contract-tests/support/fakes/ical.fake.js';
import { ALL_SCOPES } from '../../src/http/caller.js';

const [baseUrl, ...flags] = process.argv.slice(2);
if (!baseUrl) throw new Error('usage: fixture.ts <base-url> [--feed]');
const withFeed = flags.includes('--feed');
const TASKCTL_REDIRECT = 'http://127.0.0.1:53682/callback';

const email = process.env.CONFORMANCE_EMAIL ?? `conformance-${randomUUID()}@example.com`;
const password = process.env.CONFORMANCE_PASSWORD ?? randomBytes(18).toString('base64url');

const accessToken = await signIn();
// Every scope, tokens:manage and webhooks:manage included, so the API-token pass reaches /api-tokens,
// /oauth/authorizations and /webhooks past their 403s.
const apiToken = await json<{ token: string }>(
  'POST',
  '/api-tokens',
  { name: 'conformance run', scopes: [...ALL_SCOPES] },
  accessToken,
  201,
);
const oauthAccessToken = await taskctlAccessToken();

let feedUrl: string | undefined;
let connectorAccountId: string | undefined;
if (withFeed) {
  const feeds = await startFakeIcalFeeds();
  feedUrl = feeds.url('/tasks.ics');
  feeds.setFeed('/tasks.ics', [
    { uid: 'conformance-1@example.com', summary: 'Renew the TLS certificate', due: ':20261201T090000Z' },
    { uid: 'conformance-2@example.com', summary: 'Send the invoice', status: 'COMPLETED', completed: '20261101T120000Z' },
  ]);
  connectorAccountId = (await json<{ id: string }>('POST', '/connectors/ical/accounts', { url: feedUrl }, accessToken)).id;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void feeds.close().then(() => process.exit(0)));
}

process.stdout.write(`${JSON.stringify({ email, password, accessToken, apiToken: apiToken.token, oauthAccessToken, feedUrl, connectorAccountId })}\n`);

async function signIn(): Promise<string> {
  if (!process.env.CONFORMANCE_EMAIL) {
    return (await json<{ accessToken: string }>('POST', '/auth/register', { email, password, name: 'Conformance run' }, undefined, 201)).accessToken;
  }
  return (await json<{ accessToken: string }>('POST', '/auth/login', { email, password }, undefined, 200)).accessToken;
}

/** Authorization code with PKCE as `taskctl`, as a browser would: the consent page, its form, the code exchange. */
async function taskctlAccessToken(): Promise<string> {
  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: 'taskctl',
    redirect_uri: TASKCTL_REDIRECT,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    state: 'conformance',
  });
  const page = await fetch(`${baseUrl}/oauth/authorize?${query}`, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`GET /oauth/authorize answered ${page.status}`);
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)) fields[match[1]!] = unescapeHtml(match[2]!);
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const consent = await fetch(`${baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...fields, email, password, decision: 'allow' }),
  });
  const code = new URL(consent.headers.get('location') ?? 'invalid:').searchParams.get('code');
  if (!code) throw new Error(`the consent form answered ${consent.status} without a code`);
  const token = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', client_id: 'taskctl', redirect_uri: TASKCTL_REDIRECT, code, code_verifier: verifier }),
  });
  if (token.status !== 200) throw new Error(`POST /oauth/token answered ${token.status}: ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

async function json<T>(method: string, path: string, body: unknown, bearer?: string, expected?: number): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
    body: JSON.stringify(body),
  });
  if (expected ? response.status !== expected : !response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

function unescapeHtml(text: string): string {
  return text.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))).replace(/&amp;/g, '&');
}
