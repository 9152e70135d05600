import { Router, type Request, type Response } from 'express';
import type { operations } from '../../generated/api.js';
import { publicBaseUrl } from '../http/public-url.js';
import type { AuthorizationParams } from './authorization-request.js';
import type { Authorizations } from './authorizations.service.js';
import { RegistrationRefused, type Clients, type RegistrationRequest } from './clients.service.js';
import { sendPage } from './consent-page.js';
import type { Consent, ConsentForm, ConsentOutcome } from './consent.service.js';
import { authorizationServerMetadata, mcpProtectedResourceMetadata, protectedResourceMetadata } from './metadata.js';
import type { OAuthLibraryAdapter } from './oauth-library.adapter.js';

type TokenForm = NonNullable<operations['issueOAuthToken']['requestBody']>['content']['application/x-www-form-urlencoded'];
type RevokeForm = NonNullable<operations['revokeOAuthToken']['requestBody']>['content']['application/x-www-form-urlencoded'];

export interface OAuthRouterDeps {
  publicUrl: string | undefined;
  clients: Clients;
  consent: Consent;
  library: OAuthLibraryAdapter;
  revoke: (token: string, clientId: string | undefined) => Promise<void>;
  authorizations: Authorizations;
}

/** /.well-known/* and /oauth/*: the validator has checked shapes and callers before these run. */
export function createOAuthRouter(deps: OAuthRouterDeps): Router {
  const { publicUrl, clients, consent, library, revoke, authorizations } = deps;
  const baseUrl = (req: Request) => publicBaseUrl(req, publicUrl);
  const router = Router();

  router.get('/.well-known/oauth-authorization-server', (req, res) => {
    res.json(authorizationServerMetadata(baseUrl(req)));
  });

  router.get('/.well-known/oauth-protected-resource', (req, res) => {
    res.json(protectedResourceMetadata(baseUrl(req)));
  });

  router.get('/.well-known/oauth-protected-resource/mcp', (req, res) => {
    res.json(mcpProtectedResourceMetadata(baseUrl(req)));
  });

  router.post('/oauth/register', async (req, res) => {
    try {
      res.status(201).set('Cache-Control', 'no-store').json(await clients.register(req.body as RegistrationRequest));
    } catch (err) {
      if (!(err instanceof RegistrationRefused)) throw err;
      sendOAuthError(res, 400, err.error, err.description);
    }
  });

  router.get('/oauth/authorize', async (req, res) => {
    const outcome = await consent.show(req.query as AuthorizationParams, { issuer: baseUrl(req), cookieHeader: req.headers.cookie });
    send(res, outcome, 302);
  });

  router.post('/oauth/authorize', async (req, res) => {
    const outcome = await consent.submit(req.body as ConsentForm, { issuer: baseUrl(req), cookieHeader: req.headers.cookie });
    // 303: the browser follows a form post's redirect with a GET.
    send(res, outcome, 303);
  });

  router.post('/oauth/token', async (req, res) => {
    const outcome = await library.token({ headers: req.headers, method: req.method, body: req.body as TokenForm, baseUrl: baseUrl(req) });
    if (!outcome.ok) {
      // RFC 6749 §5.2: a client that tried the Authorization header is challenged in its own scheme.
      const scheme = AUTH_SCHEME.exec(req.headers.authorization ?? '')?.[1];
      if (outcome.status === 401 && scheme) res.set('WWW-Authenticate', `${scheme} realm="task-service"`);
      return sendOAuthError(res, outcome.status, outcome.body.error, outcome.body.error_description);
    }
    res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(outcome.body);
  });

  router.post('/oauth/revoke', async (req, res) => {
    const { token, client_id: clientId } = req.body as RevokeForm;
    if (!token) return sendOAuthError(res, 400, 'invalid_request', 'token is required.');
    await revoke(token, clientId);
    res.status(200).end();
  });

  router.get('/oauth/authorizations', async (req, res) => {
    res.json(await authorizations.list(req.caller!));
  });

  router.delete('/oauth/authorizations/:clientId', async (req, res) => {
    await authorizations.revoke(req.caller!, req.params.clientId!);
    res.status(204).end();
  });

  return router;
}

function send(res: Response, outcome: ConsentOutcome, redirectStatus: 302 | 303): void {
  if (outcome.kind === 'redirect') {
    // No body: Express's redirect would send a text/plain one the document does not declare.
    res.status(redirectStatus).set('Cache-Control', 'no-store').location(outcome.location).end();
    return;
  }
  res.set(outcome.headers);
  sendPage(res, outcome.status, outcome.html, outcome.redirectUri);
}

/** The scheme token of an Authorization header (RFC 9110 §11.1), never what follows it: that holds credentials. */
const AUTH_SCHEME = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+)(?:[ \t]|$)/;

/** RFC 6749 §5.2 / RFC 7591 §3.2.2 bodies, not the common error body. */
function sendOAuthError(res: Response, status: number, error: string, description: string): void {
  res.status(status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json({ error, error_description: description });
}
