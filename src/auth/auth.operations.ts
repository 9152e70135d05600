import { operation, type OperationEntry } from '../http/operations.js';
import type { AuthService } from './auth.service.js';
import type { TokenPair } from './token-pairs.js';

/** /auth/* and /me: the validator has checked every body and the caller before these run. */
export function authOperations(service: AuthService): OperationEntry[] {
  return [
    operation('registerAccount', async ({ body }) => tokens(201, await service.register(body))),
    operation('login', async ({ body }) => tokens(200, await service.login(body))),
    operation('refreshTokens', async ({ body }) => tokens(200, await service.refresh(body.refreshToken))),
    operation('logout', async ({ body }) => {
      await service.logout(body.refreshToken);
      return { status: 204 };
    }),
    operation('deleteMe', async ({ caller, body }) => {
      await service.deleteAccount(caller, body.password);
      return { status: 204 };
    }),
    operation('getMe', async ({ caller, callerAccount }) => ({ status: 200, body: await service.getAccount(caller.accountId, callerAccount) })),
  ];
}

/** Token responses must not be cached by anything between us and the client (RFC 6749 §5.1). */
const tokens = <Status extends 200 | 201>(status: Status, pair: TokenPair) => ({ status, headers: { 'Cache-Control': 'no-store' }, body: pair });
