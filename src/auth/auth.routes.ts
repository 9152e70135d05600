import { Router, type Response } from 'express';
import type { components } from '../../generated/api.js';
import type { AuthService } from './auth.service.js';
import type { TokenPair } from './token-pairs.js';

type Schemas = components['schemas'];

/** /auth/* and GET /me: the validator has checked every body and the caller before these run. */
export function createAuthRouter(service: AuthService): Router {
  const router = Router();

  router.post('/auth/register', async (req, res) => {
    sendTokens(res, 201, await service.register(req.body as Schemas['RegisterRequest']));
  });

  router.post('/auth/login', async (req, res) => {
    sendTokens(res, 200, await service.login(req.body as Schemas['LoginRequest']));
  });

  router.post('/auth/refresh', async (req, res) => {
    sendTokens(res, 200, await service.refresh((req.body as Schemas['RefreshRequest']).refreshToken));
  });

  router.post('/auth/logout', async (req, res) => {
    await service.logout((req.body as Schemas['RefreshRequest']).refreshToken);
    res.status(204).end();
  });

  router.delete('/me', async (req, res) => {
    await service.deleteAccount(req.caller!, (req.body as Schemas['DeleteAccountRequest']).password);
    res.status(204).end();
  });

  router.get('/me', async (req, res) => {
    res.json(await service.getAccount(req.caller!.accountId));
  });

  return router;
}

/** Token responses must not be cached by anything between us and the client (RFC 6749 §5.1). */
function sendTokens(res: Response, status: 200 | 201, tokens: TokenPair): void {
  res.status(status).set('Cache-Control', 'no-store').json(tokens);
}
