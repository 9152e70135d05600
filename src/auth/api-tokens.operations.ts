import { operation, type OperationEntry } from '../http/operations.js';
import type { ApiTokens } from './api-tokens.service.js';

/** /api-tokens: the validator has identified the caller and checked its scopes before these run. */
export function apiTokensOperations(apiTokens: ApiTokens): OperationEntry[] {
  return [
    operation('listApiTokens', async ({ caller }) => ({ status: 200, body: { items: await apiTokens.list(caller.accountId) } })),
    operation('createApiToken', async ({ caller, body }) => {
      const created = await apiTokens.create(caller, body);
      return { status: 201, headers: { Location: `/api-tokens/${created.id}`, 'Cache-Control': 'no-store' }, body: created };
    }),
    operation('revokeApiToken', async ({ caller, params }) => {
      await apiTokens.revoke(caller.accountId, params.tokenId);
      return { status: 204 };
    }),
  ];
}
