import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuthFlowError, type IssuedTokens } from '@task-service/sdk';
import { CLIENT_ID, type Context } from './context.js';
import { CliError } from './errors.js';
import type { SavedLogin } from './login-store.js';
import { loginFromTokenResponse } from './transport.js';

/** How long the loopback listener waits for the browser. */
const BROWSER_TIMEOUT_MS = 10 * 60_000;

/** Every scope the server offers (so `taskctl tokens` works too), unless --scope names fewer. */
export async function scopeToAsk(context: Context, requested: string | undefined): Promise<string | undefined> {
  if (requested) return requested;
  const metadata = await context.anonymousClient().getAuthorizationServerMetadata();
  return metadata.data?.scopes_supported?.join(' ');
}

/**
 * RFC 8252: authorization code + PKCE with the browser, back to a listener on 127.0.0.1 and a free
 * port (the server accepts any port for taskctl's loopback redirect). The SDK builds the request,
 * then checks the callback's state and iss and exchanges the code.
 */
export async function browserLogin(context: Context, options: { openBrowser: boolean; scope: string | undefined }): Promise<SavedLogin> {
  const client = context.anonymousClient();
  const scope = await scopeToAsk(context, options.scope);
  const listener = createServer();
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(0, '127.0.0.1', resolve);
  });
  const { port } = listener.address() as AddressInfo;
  const redirectUri = `http://127.0.0.1:${port}/callback`;
  try {
    const authorization = await client.createAuthorization({ redirectUri, scope });
    process.stderr.write(`Sign in to ${context.server} in your browser:\n\n  ${authorization.url}\n\n`);
    if (options.openBrowser) {
      const { default: open } = await import('open');
      await open(authorization.url).catch(() => process.stderr.write('Could not open a browser: open the address above yourself.\n'));
    }
    process.stderr.write('Waiting for the browser to come back (Ctrl-C to stop)...\n');

    const tokens = await new Promise<IssuedTokens>((resolve, reject) => {
      const timer = setTimeout(() => reject(new CliError('No answer from the browser within 10 minutes. Run `taskctl login` again.')), BROWSER_TIMEOUT_MS);
      listener.on('request', (req: IncomingMessage, res: ServerResponse) => {
        const callbackUrl = new URL(req.url ?? '/', redirectUri);
        if (req.method !== 'GET' || callbackUrl.pathname !== '/callback') return page(res, 404, 'Not found', 'This address only takes the sign-in callback.');
        // A callback of another sign-in (a stale tab, a forged link) is turned away without ending this one.
        if (callbackUrl.searchParams.get('state') !== authorization.state) {
          return page(res, 400, 'Not this sign-in', 'This answer does not belong to the sign-in taskctl is waiting for. Use the address taskctl printed.');
        }
        client
          .exchangeCode({ callbackUrl, state: authorization.state, codeVerifier: authorization.codeVerifier, redirectUri })
          .then(async (result) => {
            if (result.error) throw await context.explain(result.error);
            page(res, 200, 'Signed in', 'taskctl is signed in. You can close this tab and go back to the terminal.');
            clearTimeout(timer);
            resolve(result.data);
          })
          .catch((err: unknown) => {
            const message = err instanceof OAuthFlowError ? flowMessage(err) : err instanceof Error ? err.message : String(err);
            page(res, 400, 'Sign-in failed', `${message} Go back to the terminal.`);
            clearTimeout(timer);
            reject(err instanceof CliError ? err : new CliError(message));
          });
      });
    });
    return saveLogin(context, tokens);
  } finally {
    listener.closeAllConnections();
    listener.close();
  }
}

/** RFC 8628: a code to enter in a browser anywhere, then polling until the person approves. */
export async function deviceLogin(context: Context, options: { scope: string | undefined }): Promise<SavedLogin> {
  const client = context.anonymousClient();
  const metadata = await context.unwrap(await client.getAuthorizationServerMetadata());
  const endpoint = (metadata as { device_authorization_endpoint?: string }).device_authorization_endpoint;
  if (!endpoint) throw new CliError(`${context.server} does not offer the device authorization grant. Use \`taskctl login\` with a browser.`);
  const scope = options.scope ?? metadata.scopes_supported?.join(' ');
  const started = await formPost(context, endpoint, { client_id: CLIENT_ID, ...(scope ? { scope } : {}) });
  if (!started.ok) throw new CliError(`The server refused the device sign-in: ${describeOAuthError(started.body)}`);
  const device = started.body as { device_code: string; user_code: string; verification_uri: string; verification_uri_complete?: string; expires_in: number; interval?: number };

  process.stderr.write(
    `To sign in, open this address in a browser on any device:\n\n  ${device.verification_uri}\n\nand enter the code:  ${device.user_code}\n\n` +
      (device.verification_uri_complete ? `(or open ${device.verification_uri_complete})\n` : '') +
      `Waiting for approval (the code expires in ${Math.round(device.expires_in / 60)} minutes; Ctrl-C to stop)...\n`,
  );
  let interval = device.interval ?? 5;
  const deadline = Date.now() + device.expires_in * 1000;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, interval * 1000));
    const polled = await formPost(context, metadata.token_endpoint, {
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
      device_code: device.device_code,
      client_id: CLIENT_ID,
    });
    if (polled.ok) {
      const body = polled.body as { access_token: string; refresh_token: string; expires_in: number; scope: string; token_type: 'Bearer' };
      return saveLogin(context, { accessToken: body.access_token, refreshToken: body.refresh_token, expiresIn: body.expires_in, scope: body.scope, tokenType: 'Bearer' });
    }
    const error = (polled.body as { error?: string }).error;
    if (error === 'authorization_pending' && Date.now() < deadline) continue;
    // RFC 8628 §3.5: slow down by 5 seconds for this and every later poll.
    if (error === 'slow_down') {
      interval += 5;
      continue;
    }
    if (error === 'access_denied') throw new CliError('The sign-in was denied in the browser.');
    if (error === 'expired_token' || error === 'authorization_pending') throw new CliError('The code expired before it was approved. Run `taskctl login --device` again.');
    throw new CliError(`The device sign-in failed: ${describeOAuthError(polled.body)}`);
  }
}

function saveLogin(context: Context, tokens: IssuedTokens): SavedLogin {
  const login = loginFromTokenResponse(context.server, CLIENT_ID, {
    access_token: tokens.accessToken,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    scope: tokens.scope ?? '',
    token_type: 'Bearer',
  });
  context.store.save(login, { makeDefault: true });
  return login;
}

async function formPost(context: Context, url: string, form: Record<string, string>): Promise<{ ok: boolean; status: number; body: unknown }> {
  const response = await context.send(
    new Request(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' }, body: new URLSearchParams(form) }),
  );
  const body: unknown = await response.json().catch(() => ({}));
  if (response.status === 429) throw await context.explainResponse(response, body);
  return { ok: response.ok, status: response.status, body };
}

function describeOAuthError(body: unknown): string {
  const { error, error_description: description } = (body ?? {}) as { error?: string; error_description?: string };
  return description ? `${description} (${error})` : (error ?? 'no reason given');
}

function flowMessage(err: OAuthFlowError): string {
  if (err.code === 'access_denied') return 'The sign-in was denied in the browser.';
  if (err.code === 'issuer_mismatch' || err.code === 'issuer_missing') return `The answer did not come from the expected server: ${err.message}`;
  return err.message;
}

function page(res: ServerResponse, status: number, title: string, text: string): void {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body style="font:16px system-ui,sans-serif;margin:3rem auto;max-width:30rem"><h1>${title}</h1><p>${escape(text)}</p></body></html>`;
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
  res.end(html);
}

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
