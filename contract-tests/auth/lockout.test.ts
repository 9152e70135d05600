import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signedInClient, startServer, uniqueEmail, type TestServer } from '../support/server.js';

const MAX_FAILED = 3;
const LOCKOUT_MINUTES = 2;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({
    env: { LOGIN_MAX_FAILED_ATTEMPTS: String(MAX_FAILED), LOGIN_LOCKOUT_MINUTES: String(LOCKOUT_MINUTES) },
  });
});
afterAll(async () => {
  await server?.stop();
});

const login = (email: string, password: string) => server.client().login({ email, password });
const WRONG = 'not the password';

async function failTimes(email: string, times: number) {
  for (let i = 0; i < times; i++) {
    const response = await login(email, WRONG);
    expect(response.error?.code, `failed login ${i + 1}`).toBe('INVALID_CREDENTIALS');
  }
}

const attemptsRow = (email: string) => server.database.knex()('login_attempts').where({ email }).first();

function expectLocked(response: Awaited<ReturnType<typeof login>>) {
  expect(response.response.status).toBe(429);
  const retryAfter = Number(response.response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(LOCKOUT_MINUTES * 60);
  expect(response.error!.body).toEqual({
    statusCode: 429,
    code: 'ACCOUNT_LOCKED',
    message: expect.any(String),
    retryAfterSeconds: retryAfter,
  });
  expect(response.error!.isRateLimited).toBe(true);
  return retryAfter;
}

describe('login lockout (unlocked → unlocked)', () => {
  it('when logins fail below the maximum, each is 401 and the counter grows by one', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, 1);
    expect(await attemptsRow(email)).toMatchObject({ failed_count: 1, locked_until: null });
    await failTimes(email, 1);
    expect(await attemptsRow(email)).toMatchObject({ failed_count: 2, locked_until: null });
  });

  it('when a login succeeds, the counter resets: the maximum of failures is needed again to lock', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED - 1);
    expect((await login(email, PASSWORD)).response.status).toBe(200);
    expect(await attemptsRow(email)).toMatchObject({ failed_count: 0, locked_until: null });
    await failTimes(email, MAX_FAILED);
    expectLocked(await login(email, PASSWORD));
  });
});

describe('login lockout (unlocked → locked → unlocked)', () => {
  it('when 3 logins fail in a row, the 3rd is still 401 and the 4th is 429 ACCOUNT_LOCKED even with the right password', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    const retryAfter = expectLocked(await login(email, PASSWORD));
    expect(retryAfter).toBeGreaterThan(LOCKOUT_MINUTES * 60 - 10);
  });

  it('attempts during the lock do not extend it', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    const { locked_until: lockedUntil } = await attemptsRow(email);
    expect(Number(lockedUntil)).toBeGreaterThan(Date.now());
    for (let i = 0; i < 3; i++) expectLocked(await login(email, i === 0 ? PASSWORD : WRONG));
    expect(await attemptsRow(email)).toMatchObject({ locked_until: lockedUntil, failed_count: MAX_FAILED });
  });

  it('when the lock has ended, the right password works and the counter starts again from 0', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    await server.database.knex()('login_attempts').where({ email }).update({ locked_until: Date.now() - 1 });
    // A full series of failures again before the next lock: the old count is gone.
    await failTimes(email, MAX_FAILED);
    expectLocked(await login(email, PASSWORD));
    await server.database.knex()('login_attempts').where({ email }).update({ locked_until: Date.now() - 1 });
    expect((await login(email, PASSWORD)).response.status).toBe(200);
  });

  it('the email is matched trimmed and lower-cased, so another spelling of a locked email is locked too', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    expectLocked(await login(` ${email.toUpperCase()}`, PASSWORD));
  });

  it('a lock does not block refreshing a session that already exists', async () => {
    const { email, tokens } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    expectLocked(await login(email, PASSWORD));
    expect((await server.client().refreshTokens({ refreshToken: tokens.refreshToken })).response.status).toBe(200);
  });
});

describe('login lockout for unknown emails', () => {
  it('counts and locks them alike, with bodies that do not tell whether the account exists', async () => {
    const known = (await signedInClient(server)).email;
    const unknown = uniqueEmail('ghost');
    const knownFailure = await login(known, WRONG);
    const unknownFailure = await login(unknown, WRONG);
    expect(unknownFailure.error!.body).toEqual(knownFailure.error!.body);
    await failTimes(known, MAX_FAILED - 1);
    await failTimes(unknown, MAX_FAILED - 1);
    const knownLocked = await login(known, PASSWORD);
    const unknownLocked = await login(unknown, PASSWORD);
    expectLocked(knownLocked);
    expectLocked(unknownLocked);
    expect({ ...unknownLocked.error!.body, retryAfterSeconds: 0 }).toEqual({ ...knownLocked.error!.body, retryAfterSeconds: 0 });
  });
});

describe('login lockout under concurrency and restarts', () => {
  it('25 parallel wrong logins with a maximum of 3 give exactly 3 × 401 and 22 × 429', async () => {
    const { email } = await signedInClient(server);
    const responses = await Promise.all(Array.from({ length: 25 }, () => login(email, WRONG)));
    const codes = responses.map((response) => response.error?.code);
    expect(codes.filter((code) => code === 'INVALID_CREDENTIALS')).toHaveLength(3);
    expect(codes.filter((code) => code === 'ACCOUNT_LOCKED')).toHaveLength(22);
    expectLocked(await login(email, PASSWORD));
  });

  it('parallel logins for an unknown email are bounded the same way', async () => {
    const email = uniqueEmail('ghost-parallel');
    const responses = await Promise.all(Array.from({ length: 10 }, () => login(email, WRONG)));
    const statuses = responses.map((response) => response.response.status);
    expect(statuses.filter((status) => status === 401)).toHaveLength(3);
    expect(statuses.filter((status) => status === 429)).toHaveLength(7);
  });

  it('the lock survives a server restart', async () => {
    const { email } = await signedInClient(server);
    await failTimes(email, MAX_FAILED);
    await server.restart();
    expectLocked(await login(email, PASSWORD));
  });
});
