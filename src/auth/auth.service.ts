import type { components } from '../../generated/api.js';
import { ALL_SCOPES, type Caller, type CallerAccount } from '../http/caller.js';
import { errors } from '../platform/errors.js';
import { toIso } from '../platform/time.js';
import { WEB_CLIENT_ID } from './access-tokens.js';
import type { AccountsRepository } from './accounts.repository.js';
import type { LoginLockout } from './login-lockout.js';
import type { Passwords } from './passwords.js';
import type { TokenPair, TokenPairs } from './token-pairs.js';

type Schemas = components['schemas'];

export interface AuthService {
  register: (request: Schemas['RegisterRequest']) => Promise<TokenPair>;
  login: (request: Schemas['LoginRequest']) => Promise<TokenPair>;
  /**
   * The account id for a right email and password, through the lockout (429 ACCOUNT_LOCKED, 401
   * INVALID_CREDENTIALS): every sign-in door (the OAuth consent page too) checks passwords this way.
   */
  verifyCredentials: (email: string, password: string) => Promise<string>;
  refresh: (refreshToken: string) => Promise<TokenPair>;
  logout: (refreshToken: string) => Promise<void>;
  /** The caller's account: `alreadyRead` when the identify step read it for this request, else read now. */
  getAccount: (accountId: string, alreadyRead?: CallerAccount) => Promise<Schemas['Account']>;
  /** Closes the caller's account: a web session and the password (through the lockout) are required. */
  deleteAccount: (caller: Caller, password: string) => Promise<void>;
}

/** Emails are compared trimmed and lower-cased, for accounts and for the lockout alike. */
export const normaliseEmail = (email: string): string => email.trim().toLowerCase();

export function createAuthService(deps: {
  accounts: AccountsRepository;
  passwords: Passwords;
  lockout: LoginLockout;
  tokenPairs: TokenPairs;
}): AuthService {
  const { accounts, passwords, lockout, tokenPairs } = deps;
  const webSession = (accountId: string) => tokenPairs.issue({ accountId, clientId: WEB_CLIENT_ID, scopes: ALL_SCOPES });

  const verifyCredentials = async (email: string, password: string): Promise<string> => {
    const normalised = normaliseEmail(email);
    const attempt = await lockout.reserveAttempt(normalised);
    if (!attempt.allowed) throw errors.accountLocked(attempt.retryAfterSeconds);
    const account = await accounts.findByEmail(normalised);
    const verified = await passwords.verify(account?.password_hash, password);
    if (!account || !verified) throw errors.invalidCredentials();
    await lockout.recordSuccess(normalised);
    return account.id;
  };

  return {
    register: async ({ email, password, name }) => {
      const passwordHash = await passwords.hash(password);
      const account = await accounts.insert({ email: normaliseEmail(email), passwordHash, name: name ?? null, now: Date.now() });
      if (!account) throw errors.emailInUse();
      return webSession(account.id);
    },

    login: async ({ email, password }) => webSession(await verifyCredentials(email, password)),

    verifyCredentials,

    refresh: (refreshToken) => tokenPairs.rotate(refreshToken, WEB_CLIENT_ID),

    logout: (refreshToken) => tokenPairs.revokeSession(refreshToken),

    deleteAccount: async (caller, password) => {
      if (caller.kind !== 'web') {
        throw errors.webSessionRequired();
      }
      const account = await accounts.findById(caller.accountId);
      if (!account) throw errors.unauthenticated();
      await verifyCredentials(account.email, password);
      await accounts.delete(account.id);
    },

    getAccount: async (accountId, alreadyRead) => {
      const account = alreadyRead ?? (await accounts.profileOf(accountId));
      // An access token outlives a deleted account by at most its lifetime; it identifies nobody now.
      if (!account) throw errors.unauthenticated();
      return { id: account.id, email: account.email, name: account.name, createdAt: toIso(account.createdAtMs) };
    },
  };
}
