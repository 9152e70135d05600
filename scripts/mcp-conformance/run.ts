// Runs the official MCP conformance suite against the real /mcp and our authorisation server.
// Usage: node --import tsx scripts/mcp-conformance/run.ts  (from the project root; `npm run test:mcp-conformance`)
//
// Two legs:
// - server: every scenario the 2025-11-25 revision requires (`--requirements 2025-11-25`, the revision our
//   SDK speaks), with expected-failures.yaml excusing only the scenarios that call the suite's reference
//   tools, resources and prompts by name (each entry says why). `wire-schema-valid` is checked in each.
// - authorization: the metadata endpoint and the authorization code grant, with the consent page played
//   as a browser would (the suite prints the URL it wants opened and waits on its own loopback callback).
//
// The suite needs Node 22 (fs.globSync): it and the `node@22` package live in this folder's own
// node_modules, installed here, never in the root's. The server stays on the Node that runs this script.
// The suite sends no credentials, so the server leg talks to a loopback proxy that adds an MCP access
// token (got through the real OAuth flow, for the proxy's address) and passes everything else on
// untouched, Host and Origin included: the DNS-rebinding scenario meets the server's own protection.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { startServer } from '../../contract-tests/support/server.js';

const REQUIREMENTS = '2025-11-25';
const folder = new URL('.', import.meta.url).pathname;
const node22 = join(folder, 'node_modules', '.bin', 'node');
const suitePackage = join(folder, 'node_modules', '@modelcontextprotocol', 'conformance');
const suite = join(suitePackage, 'dist', 'index.js');
const expectedFailures = join(folder, 'expected-failures.yaml');

if (!existsSync(node22) || !existsSync(suite) || installedVersion() !== pinnedVersion()) {
  execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--foreground-scripts'], { cwd: folder, stdio: 'inherit' });
}

const server = await startServer({ env: { JWT_ACCESS_EXPIRES: '1800' } });
let accessToken = '';
const proxy = createServer((req, res) => {
  const headers = { ...req.headers };
  if (!headers.authorization && req.url?.toLowerCase().startsWith('/mcp')) headers.authorization = `Bearer ${accessToken}`;
  const upstream = request({ host: '127.0.0.1', port: server.port, method: req.method, path: req.url, headers }, (answer) => {
    res.writeHead(answer.statusCode!, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
const results = mkdtempSync(join(tmpdir(), 'mcp-conformance-'));

const failures: string[] = [];
try {
  const account = await registerAccount(base);
  accessToken = await mcpAccessToken(base, account);
  await seedTasks(base, account);
  const serverLeg = await runSuite(
    ['server', '--url', `${base}/mcp`, '--requirements', REQUIREMENTS, '--expected-failures', expectedFailures, '--output-dir', join(results, 'server')],
    () => undefined,
  );
  if (serverLeg !== 0) failures.push(`server scenarios of ${REQUIREMENTS} (exit ${serverLeg})`);

  const callbackPort = await freePort();
  const clientId = await registerApp(base, `http://127.0.0.1:${callbackPort}/callback`);
  let consent: Promise<void> | undefined;
  const authorizationLeg = await runSuite(
    ['authorization', '--url', base, '--client-id', clientId, '--resource', `${base}/mcp`, '--port', String(callbackPort), '--output-dir', join(results, 'authorization')],
    (line) => {
      // The suite asks a person to open this URL; the consent page is played here, and its redirect
      // followed to the suite's callback listener, as the browser would.
      if (line.startsWith(`${base}/oauth/authorize?`)) consent ??= playConsent(line, account).catch((err: unknown) => void failures.push(`consent: ${String(err)}`));
    },
  );
  await consent;
  if (authorizationLeg !== 0) failures.push(`authorization scenarios (exit ${authorizationLeg})`);
} finally {
  proxy.close();
  await server.stop();
}
for (const failure of failures) process.stderr.write(`MCP conformance failed: ${failure}\n`);
// Each check's details (the messages that broke the wire schema, for one) are in the results: kept when something failed.
if (failures.length > 0) process.stderr.write(`Results kept in ${results}\n`);
else rmSync(results, { recursive: true, force: true });
process.exit(failures.length > 0 ? 1 : 0);

/** Runs the suite with Node 22, its output passed through and handed line by line to `onLine`. */
function runSuite(args: string[], onLine: (line: string) => void): Promise<number | null> {
  // Not spawnSync: the proxy the suite talks to runs in this process and must keep serving.
  return new Promise((resolve) => {
    const child = spawn(node22, [suite, ...args], { stdio: ['ignore', 'pipe', 'inherit'], timeout: 600_000 });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      process.stdout.write(`${line}\n`);
      onLine(line.trim());
    });
    child.on('exit', (code) => resolve(code));
  });
}

interface Account {
  email: string;
  password: string;
}

async function registerAccount(baseUrl: string): Promise<Account> {
  const account = { email: `conformance-${Date.now()}@example.com`, password: 'conformance horse battery staple' };
  await expectOk(await post(`${baseUrl}/auth/register`, JSON.stringify(account), 'application/json'));
  return account;
}

/** A few tasks, so that the resources the server lists and the completions it offers are not empty. */
async function seedTasks(baseUrl: string, account: Account) {
  const login = await post(`${baseUrl}/auth/login`, JSON.stringify(account), 'application/json');
  const { accessToken: sessionToken } = (await expectOk(login).json()) as { accessToken: string };
  for (const title of ['Write the quarterly report', 'Water the plants', 'Book the dentist']) {
    const created = await fetch(`${baseUrl}/tasks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${sessionToken}` },
      body: JSON.stringify({ title, priority: 2 }),
    });
    expectOk(created);
  }
}

async function registerApp(baseUrl: string, redirectUri: string): Promise<string> {
  const registered = await post(`${baseUrl}/oauth/register`, JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirectUri] }), 'application/json');
  return ((await expectOk(registered).json()) as { client_id: string }).client_id;
}

/** A registered app, consent on the page (played as a browser would), and the code exchanged for an MCP token. */
async function mcpAccessToken(baseUrl: string, account: Account): Promise<string> {
  const redirectUri = 'http://127.0.0.1:53682/callback';
  const clientId = await registerApp(baseUrl, redirectUri);
  const verifier = randomBytes(32).toString('base64url');
  const resource = `${baseUrl}/mcp`;
  const query = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    resource,
  });
  const location = await consentRedirect(`${baseUrl}/oauth/authorize?${query}`, account);
  const code = new URL(location).searchParams.get('code');
  if (!code) throw new Error(`consent did not give a code: ${location}`);
  const tokens = await post(
    `${baseUrl}/oauth/token`,
    new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, redirect_uri: redirectUri, code, code_verifier: verifier, resource }).toString(),
    'application/x-www-form-urlencoded',
  );
  return ((await expectOk(tokens).json()) as { access_token: string }).access_token;
}

/** Opens the consent page, signs in and allows: where the authorisation server sends the browser back to. */
async function consentRedirect(authorizeUrl: string, account: Account): Promise<string> {
  const page = expectOk(await fetch(authorizeUrl));
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const fields = Object.fromEntries(
    [...(await page.text()).matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((match) => [
      match[1]!,
      match[2]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
    ]),
  );
  const consent = await fetch(new URL('/oauth/authorize', authorizeUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...fields, email: account.email, password: account.password, decision: 'allow' }),
  });
  const location = consent.headers.get('location');
  if (consent.status !== 302 && consent.status !== 303) throw new Error(`consent answered HTTP ${consent.status}`);
  if (!location) throw new Error('consent answered without a Location');
  return location;
}

async function playConsent(authorizeUrl: string, account: Account) {
  const callback = await consentRedirect(authorizeUrl, account);
  expectOk(await fetch(callback));
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function post(url: string, body: string, contentType: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
}

function expectOk(response: Response): Response {
  if (!response.ok) throw new Error(`${response.url} answered HTTP ${response.status}`);
  return response;
}

function pinnedVersion(): string {
  return (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['@modelcontextprotocol/conformance']!;
}

function installedVersion(): string | undefined {
  const manifest = join(suitePackage, 'package.json');
  return existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version : undefined;
}
