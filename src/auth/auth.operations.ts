import type { Request } from 'express';
import { operation, type OperationEntry } from '../http/operations.js';
import { AppError, errors } from '../platform/errors.js';
import type { AuthService } from './auth.service.js';
import type { TokenPair } from './token-pairs.js';
import type { WebSessionCookie } from './web-session-cookie.js';

/** /auth/* and /me: the validator has checked every body and the caller before these run. */
export function authOperations(service: AuthService, cookie: WebSessionCookie): OperationEntry[] {
  /** A sign-in's answer: the pair in the body, or in a cookie session the refresh token as the cookie only. */
  const signedIn = async <Status extends 200 | 201>(status: Status, session: 'token' | 'cookie' | undefined, req: Request, signIn: () => Promise<TokenPair>) => {
    if (session !== 'cookie') return tokens(status, await signIn());
    // Before the sign-in does anything: a cookie session is only for a page of this origin.
    cookie.checkSameOrigin(req);
    return inCookie(status, await signIn(), req);
  };

  const inCookie = <Status extends 200 | 201>(status: Status, { refreshToken, ...pair }: TokenPair, req: Request) => ({
    status,
    headers: { 'Cache-Control': 'no-store', 'Set-Cookie': cookie.set(req, refreshToken, pair.refreshExpiresIn) },
    body: pair,
  });

  /** A refused refresh of the cookie's token also clears the cookie: it names a session that is over. */
  const clearingOnRefusal = (err: unknown, req: Request): unknown =>
    err instanceof AppError && err.status === 401 ? new AppError(err.status, err.code, err.message, err.extras, { ...err.headers, 'Set-Cookie': cookie.clear(req) }) : err;

  return [
    operation('registerAccount', ({ body, req }) => signedIn(201, body.session, req, () => service.register(body))),
    operation('login', ({ body, req }) => signedIn(200, body.session, req, () => service.login(body))),
    operation('refreshTokens', async ({ body, req }) => {
      if (body.refreshToken !== undefined) return tokens(200, await service.refresh(body.refreshToken));
      const refreshToken = cookie.read(req);
      if (refreshToken === undefined)
        throw errors.validation(
          [{ path: '/body/refreshToken', message: 'is required: the request carries no refresh cookie' }],
          'No refresh token: the body has no refreshToken and the request carries no refresh cookie.',
        );
      try {
        return inCookie(200, await service.refresh(refreshToken), req);
      } catch (err) {
        throw clearingOnRefusal(err, req);
      }
    }),
    operation('logout', async ({ body, req }) => {
      if (body.refreshToken !== undefined) {
        await service.logout(body.refreshToken);
        return { status: 204 };
      }
      const refreshToken = cookie.read(req);
      if (refreshToken !== undefined) await service.logout(refreshToken);
      return { status: 204, headers: { 'Set-Cookie': cookie.clear(req) } };
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
