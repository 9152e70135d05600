import { Router } from 'express';
import type { components } from '../../generated/api.js';
import type { ApiTokens } from './api-tokens.service.js';

type Schemas = components['schemas'];

/** /api-tokens: the validator has identified the caller before these run. */
export function createApiTokensRouter(apiTokens: ApiTokens): Router {
  const router = Router();

  router.get('/api-tokens', async (req, res) => {
    const body: Schemas['ApiTokenList'] = { items: await apiTokens.list(req.caller!.accountId) };
    res.json(body);
  });

  router.post('/api-tokens', async (req, res) => {
    const created = await apiTokens.create(req.caller!, req.body as Schemas['CreateApiTokenRequest']);
    res.status(201).location(`/api-tokens/${created.id}`).set('Cache-Control', 'no-store').json(created);
  });

  router.delete('/api-tokens/:tokenId', async (req, res) => {
    await apiTokens.revoke(req.caller!.accountId, req.params.tokenId);
    res.status(204).end();
  });

  return router;
}
