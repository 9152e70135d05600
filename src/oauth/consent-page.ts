import { createHash } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import type { Scope } from '../http/caller.js';
import { html, joinHtml, rawHtml, type SafeHtml } from '../platform/html.js';
import type { AuthorizationRequest } from './authorization-request.js';
import { redirectCspSource } from './redirect-uris.js';
import { SCOPE_DESCRIPTIONS } from './scopes.js';

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
main{max-width:26rem;margin:3rem auto;background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;margin:0 0 1rem}ul{padding-left:1.2rem}
label{display:block;margin:.8rem 0 .2rem;font-weight:600}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;padding:.5rem;font:inherit}
.actions{display:flex;gap:.8rem;margin-top:1.4rem}button{flex:1;padding:.6rem;font:inherit;cursor:pointer}
button[value=allow]{background:#1f5eff;color:#fff;border:0;border-radius:4px}
.error{background:#fdecea;color:#8a1c12;padding:.6rem .8rem;border-radius:4px}
.note{color:#5a6275;font-size:.9rem}
.unverified{color:#8a1c12;font-weight:400;font-size:1rem}`;
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

export interface ConsentPage {
  request: AuthorizationRequest;
  csrfToken: string;
  email?: string;
  error?: string;
}

/** The sign-in and consent page: everything from the request is escaped; its form posts back here. */
export function renderConsentPage({ request, csrfToken, email, error }: ConsentPage): string {
  const appName = request.client.name ?? request.client.id;
  const hidden: [string, string | undefined][] = [
    ['response_type', 'code'],
    ['client_id', request.client.id],
    ['redirect_uri', request.redirectUri],
    ['code_challenge', request.codeChallenge],
    ['code_challenge_method', 'S256'],
    ['state', request.state],
    ['scope', request.scopes.join(' ')],
    ['resource', request.resource ?? undefined],
    ['csrf_token', csrfToken],
  ];
  // Allow comes first: pressing Enter in the password field submits the first button.
  return page(
    `Authorise ${appName}`,
    html`${heading(request)}
${error && html`<p class="error" role="alert">${error}</p>`}
${resourceLine(request)}
<p>It will be able to:</p>
<ul>${scopeItems(request.scopes)}</ul>
<p class="note">You will be sent back to <code>${request.redirectUri}</code>.</p>
<form method="post" action="authorize">
${joinHtml(
  hidden.filter(([, value]) => value !== undefined).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`),
  '\n',
)}
${signInAndDecide(email)}
</form>`,
  );
}

/** The app's own name is a claim: only the clients we ship are named without a warning. */
function heading(request: AuthorizationRequest): SafeHtml {
  const { client } = request;
  if (client.verified) return html`<h1><strong>${client.name ?? client.id}</strong> wants to use your Task Service account</h1>`;
  const documentHost = client.id.startsWith('https://') ? URL.parse(client.id)?.host : undefined;
  const claimed = client.name
    ? html`An app calling itself <strong>${client.name}</strong> <span class="unverified">(unverified name)</span>`
    : 'An app that gave no name';
  const from = documentHost && html` Its description is published at <code>${documentHost}</code>.`;
  return html`<h1>${claimed} wants to use your Task Service account</h1>
<p class="note">The Task Service has not checked who this app is: the name is the one it chose for itself.${from} Its client id is <code>${client.id}</code>.</p>`;
}

/** Which of our resources the tokens will be for (RFC 8707): the REST API or the MCP server. */
function resourceLine(request: AuthorizationRequest): SafeHtml {
  if (request.resource) {
    return html`<p>It asks for access through the <strong>Task Service MCP server</strong> (<code>${request.resource}</code>), for an AI assistant or another MCP client.</p>`;
  }
  return html`<p>It asks for access through the <strong>Task Service API</strong>.</p>`;
}

export function renderErrorPage(message: string): string {
  return page(
    'Authorisation failed',
    html`<h1>This authorisation request cannot go on</h1>
<p class="error" role="alert">${message}</p>
<p class="note">Close this window and start again from the app.</p>`,
  );
}

/**
 * Headers of every OAuth page: nothing but our own inline style may load, no framing, nothing cached,
 * no Referer (the query carries the PKCE challenge and state). Forms may post here and, because some
 * browsers check the redirect after a post against form-action, on to the verified redirect URI.
 */
export function pageHeaders(redirectUri?: string): Record<string, string> {
  const formAction = redirectUri ? `'self' ${redirectCspSource(redirectUri)}` : "'none'";
  return { 'Content-Type': 'text/html; charset=utf-8', ...pageSecurityHeaders(formAction) };
}

export function sendPage(res: Response, status: number, html: string, redirectUri?: string): void {
  res.status(status).set(pageHeaders(redirectUri)).send(html);
}

/**
 * The same headers, set before validation on every answer of /oauth/authorize and /oauth/device: their JSON 400s (a query
 * or form of the wrong shape) and 429s carry them too, as the document declares.
 */
export const oauthPageHeaders: RequestHandler = (_req, res, next) => {
  res.set(pageSecurityHeaders("'none'"));
  next();
};

/** A whole OAuth page around `body`, styled by the one inline style STYLE_HASH allows. */
export function page(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${rawHtml(STYLE)}</style>
</head>
<body><main>
${body}
</main></body>
</html>
`.markup;
}

function pageSecurityHeaders(formAction: string): Record<string, string> {
  return {
    'Content-Security-Policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-store',
  };
}

/** The sign-in fields and the allow / deny buttons, the same on the consent and the device pages. */
export const signInAndDecide = (email: string | undefined): SafeHtml => html`<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions">
<button type="submit" name="decision" value="allow">Sign in and allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>`;

/** One list item per scope: what it allows, and its name. */
export const scopeItems = (scopes: readonly Scope[]): SafeHtml[] =>
  scopes.map((scope) => html`<li>${SCOPE_DESCRIPTIONS[scope]} <code>${scope}</code></li>`);
