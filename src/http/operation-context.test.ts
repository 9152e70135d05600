import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { createDb } from '../platform/db.js';
import { createLogger } from '../platform/logger.js';
import { baseUrlOf, createTestApp } from '../test-support/app.js';
import type { Caller, CallerAccount } from './caller.js';
import { operation } from './operations.js';

const account = { id: '00000000-0000-4000-8000-000000000001', email: 'ada@example.com', name: null, createdAt: '2026-01-01T00:00:00.000Z' };
const callerAccount: CallerAccount = { id: account.id, email: account.email, name: null, createdAtMs: Date.parse(account.createdAt), lastTaskChange: 7 };
const caller: Caller = { accountId: account.id, clientId: 'web', kind: 'web', scopes: ['tasks:read'] };

const seen: unknown[] = [];
const app = createTestApp({
  config: loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
  db: createDb({ client: 'sqlite', filename: ':memory:' }),
  logger: createLogger('silent'),
  readiness: { database: async () => true },
  identifyCaller: async () => ({ kind: 'caller', caller, account: callerAccount }),
  rateLimit: (_req, _res, next) => next(),
  operations: [
    operation('getMe', (context) => {
      // As handlers take it: apart, `header` called on its own.
      const { caller: who, callerAccount, header, query, params } = context;
      seen.push({ who, callerAccount, probe: header('x-probe'), query, params });
      return { status: 200, body: account };
    }),
  ],
});

describe("an operation's context", () => {
  it('gives the handler its caller, its account, its headers, query and path parameters, taken apart', async () => {
    const url = await baseUrlOf(app.listen(0, '127.0.0.1'));
    expect((await fetch(`${url}/me`, { headers: { authorization: 'Bearer any', 'x-probe': 'yes' } })).status).toBe(200);
    expect(seen.at(-1)).toEqual({ who: caller, callerAccount, probe: 'yes', query: {}, params: {} });
  });
});
