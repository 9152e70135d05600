import { createSecretKey, randomUUID } from 'node:crypto';
import jwt, { type Algorithm, type VerifyOptions } from 'jsonwebtoken';
import passportJwt from 'passport-jwt';
import { ALL_SCOPES, type Caller, type Scope } from '../http/caller.js';

const { ExtractJwt, Strategy: JwtStrategy } = passportJwt;

/** RFC 9068: the header type that tells an access token from any other JWT signed with the key. */
export const ACCESS_TOKEN_TYPE = 'at+jwt';
const ALGORITHMS: Algorithm[] = ['HS256'];
export const WEB_CLIENT_ID = 'web';
/** The audience of tokens for the MCP server: its URL, `{PUBLIC_URL}/mcp` (RFC 8707). */
const OTHER_RESOURCE_AUDIENCE = /^https?:\/\/[^\s]+\/mcp$/;

export interface AccessTokenSettings {
  secret: string;
  issuer: string;
  audience: string;
  lifetimeSeconds: number;
}

/** What an access token says about its bearer. */
export interface AccessTokenSubject {
  accountId: string;
  clientId: string;
  scopes: readonly Scope[];
  /** The refresh-token family the token was issued with. */
  sessionId: string;
  /** RFC 8707: the resource the token is for when not the REST API (whose audience is the default). */
  audience?: string;
}

export interface AccessTokens {
  readonly lifetimeSeconds: number;
  sign: (subject: AccessTokenSubject) => string;
  /** The passport strategy that turns a valid bearer JWT into a Caller. */
  readonly strategy: passportJwt.Strategy;
  /** True when the token is ours and valid in every way but its `exp`: the caller should refresh. */
  isGenuineButExpired: (token: string) => boolean;
  /** The caller a genuine access token describes, expired or not (to revoke its session); undefined for anything else. */
  readIgnoringExpiry: (token: string) => Caller | undefined;
  /** When a token already verified stops being valid (its exp, in epoch ms); 0 when it has none. */
  expiresAtMs: (verifiedToken: string) => number;
}

export function createAccessTokens(settings: AccessTokenSettings): AccessTokens {
  const { issuer, audience, lifetimeSeconds } = settings;
  // jsonwebtoken takes RegExps beside strings; passport-jwt hands them on untouched.
  const accepted: [string, RegExp] = [audience, OTHER_RESOURCE_AUDIENCE];
  // A KeyObject, not the string: given a string, jsonwebtoken first tries (and fails, with a thrown
  // error) to read it as a PEM public key on every verify, which costs ~60 times the HMAC itself.
  const secret = createSecretKey(Buffer.from(settings.secret, 'utf8'));
  // passport-jwt overwrites algorithms/issuer/audience inside jsonWebTokenOptions with its top-level
  // options (undefined when absent): they must be set here, at the top level, or nothing pins them.
  const strategy = new JwtStrategy(
    {
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // passport-jwt hands the key to jsonwebtoken untouched; its types only predate KeyObject.
      secretOrKey: secret as unknown as Buffer,
      algorithms: ALGORITHMS,
      issuer,
      // The REST API's audience or the MCP server's (RFC 8707); which one a request needs is checked after.
      audience: accepted as unknown as string[],
      jsonWebTokenOptions: { complete: true, clockTolerance: 0 },
    },
    (decoded: unknown, done: passportJwt.VerifiedCallback) => {
      const caller = callerFromJwt(decoded);
      return caller ? done(null, caller) : done(null, false);
    },
  );

  const relaxed: VerifyOptions & { complete: true } = {
    algorithms: ALGORITHMS,
    issuer,
    audience: accepted,
    ignoreExpiration: true,
    complete: true,
  };

  return {
    lifetimeSeconds,
    strategy,
    sign: (subject) =>
      jwt.sign(
        {
          scope: subject.scopes.join(' '),
          cid: subject.clientId,
          sid: subject.sessionId,
          ...lifetimeClaims(lifetimeSeconds),
        },
        secret,
        {
          algorithm: 'HS256',
          header: { alg: 'HS256', typ: ACCESS_TOKEN_TYPE },
          issuer,
          audience: subject.audience ?? audience,
          subject: subject.accountId,
          jwtid: randomUUID(),
        },
      ),
    isGenuineButExpired: (token) => {
      try {
        const decoded = jwt.verify(token, secret, relaxed);
        const exp = typeof decoded.payload === 'object' ? decoded.payload.exp : undefined;
        return callerFromJwt(decoded) !== undefined && exp !== undefined && exp * 1000 <= Date.now();
      } catch {
        return false;
      }
    },
    expiresAtMs: (verifiedToken) => {
      const payload = jwt.decode(verifiedToken, { json: true });
      return typeof payload?.exp === 'number' ? payload.exp * 1000 : 0;
    },
    readIgnoringExpiry: (token) => {
      try {
        return callerFromJwt(jwt.verify(token, secret, relaxed));
      } catch {
        return undefined;
      }
    },
  };
}

/** The caller a verified (`complete`) JWT describes, or undefined when it is not one of our access tokens. */
export function callerFromJwt(decoded: unknown): Caller | undefined {
  const { header, payload } = (decoded ?? {}) as { header?: { typ?: unknown }; payload?: Record<string, unknown> };
  if (typeof header?.typ !== 'string' || !isAccessTokenType(header.typ) || !payload) return undefined;
  const { sub, cid, sid, scope, aud } = payload;
  if (typeof sub !== 'string' || typeof cid !== 'string' || typeof scope !== 'string' || typeof sid !== 'string') return undefined;
  if (!sub || !cid || !sid) return undefined;
  // jsonwebtoken checks exp only when it is there: a token without it would never expire.
  if (typeof payload.exp !== 'number' || typeof payload.iat !== 'number') return undefined;
  const caller: Caller = { accountId: sub, clientId: cid, kind: cid === WEB_CLIENT_ID ? 'web' : 'oauth', scopes: parseScopes(scope), sessionId: sid };
  if (typeof aud === 'string') caller.audience = aud;
  return caller;
}

/** Space-separated scopes (RFC 6749 §3.3); names we do not know grant nothing. */
export function parseScopes(scope: string): Scope[] {
  const names = new Set(scope.split(' '));
  return ALL_SCOPES.filter((known) => names.has(known));
}

const isAccessTokenType = (typ: string) => {
  const lower = typ.toLowerCase();
  return lower === ACCESS_TOKEN_TYPE || lower === `application/${ACCESS_TOKEN_TYPE}`;
};

/**
 * `exp - iat` is the lifetime exactly, as `expires_in` says. Both are rounded up, not down as jsonwebtoken's
 * `expiresIn` would: a token never lives less than its lifetime (with whole-second claims, a lifetime of 1
 * could otherwise end a few milliseconds after issue), and `iat` is at most a second ahead.
 */
function lifetimeClaims(lifetimeSeconds: number): { iat: number; exp: number } {
  const iat = Math.ceil(Date.now() / 1000);
  return { iat, exp: iat + lifetimeSeconds };
}
