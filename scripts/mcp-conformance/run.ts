// Runs the official MCP conformance suite's server scenarios that apply to us against the real /mcp.
// Usage: node --import tsx scripts/mcp-conformance/run.ts  (from the project root; `npm run test:mcp-conformance`)
//
// The suite needs Node 22 (fs.globSync): it and the `node@22` package live in this folder's own
// node_modules, installed here, never in the root's. The server stays on the Node that runs this script.
// The suite sends no credentials, so it talks to a loopback proxy that adds an MCP access token (got
// through the real OAuth flow, for the proxy's address) and passes everything else on untouched, Host
// and Origin included: the DNS-rebinding scenario meets the server's own protection.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startServer } from '../../contract-tests/support/server.js';

/** Scenarios about what this server is; the others exercise the suite's reference tools, resources and prompts (see docs/conformance.md). */
const SCENARIOS = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'];

const folder = new URL('.', import.meta.url).pathname;
const node22 = join(folder, 'node_modules', '.bin', 'node');
const suite = join(folder, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

if (!existsSync(node22) || !existsSync(suite)) {
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

let failed = false;
try {
  accessToken = await mcpAccessToken(base);
  for (const scenario of SCENARIOS) {
    // Not spawnSync: the proxy the suite talks to runs in this process and must keep serving.
    const exitCode = await new Promise<number | null>((resolve) => {
      const child = spawn(node22, [suite, 'server', '--url', `${base}/mcp`, '--scenario', scenario], { stdio: 'inherit', timeout: 120_000 });
      child.on('exit', (code) => resolve(code));
    });
    if (exitCode !== 0) {
      failed = true;
      process.stderr.write(`MCP conformance scenario ${scenario} failed (exit ${exitCode})\n`);
    }
  }
} finally {
  proxy.close();
  await server.stop();
}
process.exit(failed ? 1 : 0);

/** A fresh account, a registered app, consent on the page (played as a browser would), and the code exchanged for an MCP token. */
async function mcpAccessToken(baseUrl: string): Promise<string> {
  const email = `conformance-${Date.now()}@example.com`;
  const password = 'conformance horse battery staple';
  await expectOk(await post(`${baseUrl}/auth/register`, JSON.stringify({ email, password }), 'application/json'));
  const redirectUri = 'http://127.0.0.1:53682/callback';
  const registered = await post(`${baseUrl}/oauth/register`, JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirectUri] }), 'application/json');
  const { client_id: clientId } = (await expectOk(registered).json()) as { client_id: string };
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
  const page = expectOk(await fetch(`${baseUrl}/oauth/authorize?${query}`));
  const cookie = page.headers.get('set-cookie')?.split(';')[0] ?? '';
  const fields = Object.fromEntries(
    [...(await page.text()).matchAll(/<input type="hidden" name="(\w+)" value="([^"]*)">/g)].map((match) => [
      match[1]!,
      match[2]!.replace(/&#(\d+);/g, (_m, code: string) => String.fromCharCode(Number(code))),
    ]),
  );
  const consent = await fetch(`${baseUrl}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    body: new URLSearchParams({ ...fields, email, password, decision: 'allow' }),
  });
  const code = new URL(consent.headers.get('location') ?? 'about:blank').searchParams.get('code');
  if (!code) throw new Error(`consent did not give a code (HTTP ${consent.status})`);
  const tokens = await post(
    `${baseUrl}/oauth/token`,
    new URLSearchParams({ grant_type: 'authorization_code', client_id: clientId, redirect_uri: redirectUri, code, code_verifier: verifier, resource }).toString(),
    'application/x-www-form-urlencoded',
  );
  return ((await expectOk(tokens).json()) as { access_token: string }).access_token;
}

function post(url: string, body: string, contentType: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });
}

function expectOk(response: Response): Response {
  if (!response.ok) throw new Error(`${response.url} answered HTTP ${response.status}`);
  return response;
}
