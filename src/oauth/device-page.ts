import type { Scope } from '../http/caller.js';
import { html } from '../platform/html.js';
import { page, scopeItems, signInAndDecide, STYLE_HASH } from './consent-page.js';

/** The pages of /oauth/device (RFC 8628 §3.3): enter the code, then sign in and approve, then done. */

export function renderCodeEntryPage({ userCode, error }: { userCode?: string; error?: string }): string {
  return page(
    'Connect a device',
    html`<h1>Connect a device to your Task Service account</h1>
${error && html`<p class="error" role="alert">${error}</p>`}
<p>Enter the code your device shows (for example in the terminal where you ran <code>taskctl login --device</code>).</p>
<form method="get" action="device">
<label for="user_code">Code</label>
<input id="user_code" name="user_code" type="text" autocomplete="off" autocapitalize="characters" spellcheck="false" required value="${userCode}" placeholder="BCDF-GHJK">
<div class="actions"><button type="submit" value="allow">Continue</button></div>
</form>`,
  );
}

export interface DeviceConsentPage {
  clientName: string;
  scopes: readonly Scope[];
  userCode: string;
  csrfToken: string;
  email?: string;
  error?: string;
}

export function renderDeviceConsentPage({ clientName, scopes, userCode, csrfToken, email, error }: DeviceConsentPage): string {
  return page(
    `Authorise ${clientName}`,
    html`<h1><strong>${clientName}</strong> wants to use your Task Service account</h1>
${error && html`<p class="error" role="alert">${error}</p>`}
<p>Only continue if your device shows the code <strong><code>${userCode}</code></strong> and you started this sign-in yourself.</p>
<p>It will be able to:</p>
<ul>${scopeItems(scopes)}</ul>
<form method="post" action="device">
<input type="hidden" name="user_code" value="${userCode}">
<input type="hidden" name="csrf_token" value="${csrfToken}">
${signInAndDecide(email)}
</form>`,
  );
}

export function renderDeviceDonePage(approved: boolean): string {
  return approved
    ? page('Device connected', html`<h1>Device connected</h1>\n<p>You can close this page and go back to your device.</p>`)
    : page('Request denied', html`<h1>Request denied</h1>\n<p>The device was not connected. You can close this page.</p>`);
}

/** As the consent page's headers, but the forms here post (and get) only to this server. */
export const DEVICE_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src ${STYLE_HASH}; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
};
