import { parseScopes, sha256Hex, type AuthComponent } from '../auth/auth.component.js';
import type { AuthorizationsRepository } from './authorizations.repository.js';
import type { OAuthClient } from './clients.service.js';
import { renderErrorPage } from './consent-page.js';
import { signInRefused } from './consent.service.js';
import type { Csrf } from './csrf.js';
import type { DeviceCodeRow, DeviceCodesRepository } from './device-codes.repository.js';
import { renderCodeEntryPage, renderDeviceConsentPage, renderDeviceDonePage } from './device-page.js';
import { displayUserCode, normaliseUserCode } from './user-codes.js';

/** What /oauth/device answers: always a page (there is no client to redirect to). */
export interface DevicePage {
  status: 200 | 400 | 429;
  html: string;
  headers: Record<string, string>;
}

export interface DeviceForm {
  user_code?: string;
  csrf_token?: string;
  decision?: 'allow' | 'deny';
  email?: string;
  password?: string;
}

export interface DeviceVerification {
  /** GET /oauth/device[?user_code=...]. */
  show: (userCode: string | undefined, origin: { issuer: string; cookieHeader: string | undefined }) => Promise<DevicePage>;
  /** POST /oauth/device. */
  submit: (form: DeviceForm, origin: { issuer: string; cookieHeader: string | undefined }) => Promise<DevicePage>;
}

const UNKNOWN_CODE = 'That code is not valid, or it has expired or already been used. Check the code on your device, or start again there.';

/**
 * The verification page of the device grant (RFC 8628 §3.3): the person enters the user code, then
 * signs in and approves on a form with the consent page's CSRF protection, lockout and sign-in budget.
 */
export function createDeviceVerification(deps: {
  findClient: (clientId: string) => Promise<OAuthClient | undefined>;
  csrf: Csrf;
  verifyCredentials: AuthComponent['verifyCredentials'];
  repository: DeviceCodesRepository;
  authorizations: AuthorizationsRepository;
}): DeviceVerification {
  const { findClient, csrf, verifyCredentials, repository, authorizations } = deps;
  const plain = (status: DevicePage['status'], html: string): DevicePage => ({ status, html, headers: {} });

  const consentPage = async (
    row: DeviceCodeRow,
    userCode: string,
    origin: { issuer: string; cookieHeader: string | undefined },
    extra: { status?: 200 | 429; error?: string; email?: string; headers?: Record<string, string> } = {},
  ): Promise<DevicePage> => {
    const client = await findClient(row.client_id);
    const nonce = csrf.nonceFor(origin.cookieHeader);
    return {
      status: extra.status ?? 200,
      html: renderDeviceConsentPage({
        clientName: client?.name ?? row.client_id,
        scopes: parseScopes(row.scope),
        userCode: displayUserCode(userCode),
        csrfToken: csrf.mint(nonce, csrfParams(userCode)),
        email: extra.email,
        error: extra.error,
      }),
      headers: { 'Set-Cookie': csrf.cookie(nonce, origin.issuer.startsWith('https:')), ...extra.headers },
    };
  };

  return {
    show: async (typed, origin) => {
      if (typed === undefined || typed.trim() === '') return plain(200, renderCodeEntryPage({}));
      const userCode = normaliseUserCode(typed);
      const row = userCode && (await repository.findPending(sha256Hex(userCode), Date.now()));
      if (!userCode || !row) return plain(200, renderCodeEntryPage({ userCode: typed, error: UNKNOWN_CODE }));
      return consentPage(row, userCode, origin);
    },

    submit: async (form, origin) => {
      const userCode = normaliseUserCode(form.user_code);
      if (!userCode || !csrf.verify(origin.cookieHeader, form.csrf_token, csrfParams(userCode))) {
        return plain(400, renderErrorPage('This form has expired or was not sent from this page. Enter the code from your device again.'));
      }
      const userCodeHash = sha256Hex(userCode);
      const row = await repository.findPending(userCodeHash, Date.now());
      if (!row) return plain(200, renderCodeEntryPage({ error: UNKNOWN_CODE }));

      if (form.decision === 'deny') {
        await repository.decide(userCodeHash, { approved: false }, Date.now());
        return plain(200, renderDeviceDonePage(false));
      }
      if (!form.email || !form.password) return consentPage(row, userCode, origin, { error: 'Enter your email and password.', email: form.email });
      let accountId: string;
      try {
        accountId = await verifyCredentials(form.email, form.password);
      } catch (err) {
        const refusal = signInRefused(err);
        if (!refusal) throw err;
        return consentPage(row, userCode, origin, { ...refusal, email: form.email });
      }
      const approved = await repository.decide(userCodeHash, { approved: true, accountId }, Date.now());
      if (!approved) return plain(200, renderCodeEntryPage({ error: UNKNOWN_CODE }));
      await authorizations.record(accountId, approved.client_id, parseScopes(approved.scope), Date.now());
      return plain(200, renderDeviceDonePage(true));
    },
  };
}

/** The CSRF token of the approval form is bound to the user code it was rendered for. */
function csrfParams(userCode: string): string[] {
  return ['device', userCode];
}
