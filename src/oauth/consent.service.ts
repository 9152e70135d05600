import type { AuthComponent } from '../auth/auth.component.js';
import { AppError } from '../platform/errors.js';
import {
  PARAM_NAMES,
  parseAuthorizationRequest,
  redirectWith,
  type AuthorizationParams,
  type AuthorizationRequest,
  type ParsedAuthorization,
} from './authorization-request.js';
import type { AuthorizationsRepository } from './authorizations.repository.js';
import type { OAuthClient } from './clients.service.js';
import { renderConsentPage, renderErrorPage } from './consent-page.js';
import type { Csrf } from './csrf.js';
import type { OAuthLibraryAdapter } from './oauth-library.adapter.js';

/** What the authorisation endpoint answers: an HTML page, or a redirect back to the client. */
export type ConsentOutcome =
  | { kind: 'page'; status: 200 | 400 | 429; html: string; redirectUri?: string; headers: Record<string, string> }
  | { kind: 'redirect'; location: string };

export interface ConsentForm extends AuthorizationParams {
  csrf_token?: string;
  decision: 'allow' | 'deny';
  email?: string;
  password?: string;
}

/** Where the request came to: the issuer (for `iss`, RFC 9207) and whether cookies may be Secure. */
export interface Origin {
  issuer: string;
  cookieHeader: string | undefined;
}

export interface Consent {
  /** GET /oauth/authorize. */
  show: (params: AuthorizationParams, origin: Origin) => Promise<ConsentOutcome>;
  /** POST /oauth/authorize. */
  submit: (form: ConsentForm, origin: Origin) => Promise<ConsentOutcome>;
}

export function createConsent(deps: {
  findClient: (clientId: string) => Promise<OAuthClient | undefined>;
  csrf: Csrf;
  verifyCredentials: AuthComponent['verifyCredentials'];
  library: OAuthLibraryAdapter;
  authorizations: AuthorizationsRepository;
}): Consent {
  const { findClient, csrf, verifyCredentials, library, authorizations } = deps;

  const consentPage = (
    request: AuthorizationRequest,
    origin: Origin,
    extra: { status?: 200 | 429; error?: string; email?: string; headers?: Record<string, string> } = {},
  ): ConsentOutcome => {
    const nonce = csrf.nonceFor(origin.cookieHeader);
    const csrfToken = csrf.mint(nonce, renderedParams(request));
    return {
      kind: 'page',
      status: extra.status ?? 200,
      html: renderConsentPage({ request, csrfToken, email: extra.email, error: extra.error }),
      redirectUri: request.redirectUri,
      headers: { 'Set-Cookie': csrf.cookie(nonce, origin.issuer.startsWith('https:')), ...extra.headers },
    };
  };

  /** Error pages and error redirects; undefined for a valid request. */
  const refusal = (parsed: ParsedAuthorization, issuer: string): ConsentOutcome | undefined => {
    if (parsed.kind === 'error-page') return errorPage(parsed.message);
    if (parsed.kind === 'redirect-error') {
      const { redirectUri, error, description, state } = parsed;
      return { kind: 'redirect', location: redirectWith(redirectUri, { error, error_description: description, state, iss: issuer }) };
    }
    return undefined;
  };

  return {
    show: async (params, origin) => {
      const parsed = await parseAuthorizationRequest(params, findClient, origin.issuer);
      return refusal(parsed, origin.issuer) ?? consentPage((parsed as { request: AuthorizationRequest }).request, origin);
    },

    submit: async (form, origin) => {
      const params = Object.fromEntries(PARAM_NAMES.map((name) => [name, form[name]])) as AuthorizationParams;
      if (!csrf.verify(origin.cookieHeader, form.csrf_token, PARAM_NAMES.map((name) => params[name]))) {
        return errorPage('This form has expired or was not sent from this sign-in page. Start again from the app.');
      }
      const parsed = await parseAuthorizationRequest(params, findClient, origin.issuer);
      const refused = refusal(parsed, origin.issuer);
      if (refused) return refused;
      const { request } = parsed as { request: AuthorizationRequest };
      const back = (response: Record<string, string | undefined>): ConsentOutcome => ({
        kind: 'redirect',
        location: redirectWith(request.redirectUri, { ...response, state: request.state, iss: origin.issuer }),
      });

      if (form.decision === 'deny') return back({ error: 'access_denied', error_description: 'The account holder denied the request.' });
      if (!form.email || !form.password) return consentPage(request, origin, { error: 'Enter your email and password.', email: form.email });
      let accountId: string;
      try {
        accountId = await verifyCredentials(form.email, form.password);
      } catch (err) {
        const signInRefusal = signInRefused(err);
        if (!signInRefusal) throw err;
        return consentPage(request, origin, { ...signInRefusal, email: form.email });
      }
      const code = await library.issueCode(request, accountId);
      await authorizations.record(accountId, request.client.id, request.scopes, Date.now());
      return back({ code });
    },
  };
}

/** The hidden fields of the consent page, in PARAM_NAMES order: what its CSRF token is bound to. */
function renderedParams(request: AuthorizationRequest): (string | undefined)[] {
  return ['code', request.client.id, request.redirectUri, request.codeChallenge, 'S256', request.state, request.scopes.join(' '), request.resource ?? undefined];
}

function errorPage(message: string): ConsentOutcome {
  return { kind: 'page', status: 400, html: renderErrorPage(message), headers: {} };
}

/** How the page answers a sign-in the auth component refused (wrong credentials, locked); undefined for other errors. */
export function signInRefused(err: unknown): { status: 200 | 429; error: string; headers?: Record<string, string> } | undefined {
  if (!(err instanceof AppError)) return undefined;
  if (err.code === 'INVALID_CREDENTIALS') return { status: 200, error: 'The email or password is wrong.' };
  if (err.code === 'ACCOUNT_LOCKED') {
    const seconds = Number(err.headers['Retry-After'] ?? 60);
    const minutes = Math.ceil(seconds / 60);
    return {
      status: 429,
      error: `Too many failed sign-ins: this account is locked. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      headers: { 'Retry-After': String(seconds) },
    };
  }
  return undefined;
}
