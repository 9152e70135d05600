import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { closeDb, createDb, migrate, type Db } from '../platform/db.js';
import { createLoginLockout, type LoginLockout } from './login-lockout.js';

const MINUTE = 60_000;
const T0 = 1_800_000_000_000;
const email = 'ada@example.com';

let db: Db;
let lockout: LoginLockout;
beforeEach(async () => {
  db = createDb({ client: 'sqlite', filename: ':memory:' });
  await migrate(db);
  lockout = createLoginLockout(db, { maxFailedAttempts: 3, lockoutMinutes: 15 });
});
afterEach(async () => {
  await closeDb(db);
});

const reserveTimes = async (times: number, now: number) => {
  for (let i = 0; i < times; i++) expect(await lockout.reserveAttempt(email, now)).toEqual({ allowed: true });
};

describe('the login lockout store', () => {
  it('allows the maximum of attempts, then refuses with the seconds until the lock ends', async () => {
    await reserveTimes(3, T0);
    expect(await lockout.reserveAttempt(email, T0 + 1_500)).toEqual({ allowed: false, retryAfterSeconds: 15 * 60 - 1 });
    expect(await lockout.reserveAttempt(email, T0 + 15 * MINUTE - 300)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  it('does not extend the lock for attempts made during it', async () => {
    await reserveTimes(3, T0);
    for (let minute = 1; minute < 15; minute++) await lockout.reserveAttempt(email, T0 + minute * MINUTE);
    expect(await db('login_attempts').where({ email }).first()).toMatchObject({ failed_count: 3, locked_until: T0 + 15 * MINUTE });
  });

  it('ends the lock at locked_until, and the counter starts again from 0', async () => {
    await reserveTimes(3, T0);
    const end = T0 + 15 * MINUTE;
    await reserveTimes(3, end);
    expect(await lockout.reserveAttempt(email, end + 1)).toMatchObject({ allowed: false });
  });

  it('a success resets the counter and lifts a lock', async () => {
    await reserveTimes(2, T0);
    await lockout.recordSuccess(email, T0);
    await reserveTimes(3, T0);
    expect((await lockout.reserveAttempt(email, T0)).allowed).toBe(false);
    await lockout.recordSuccess(email, T0);
    expect((await lockout.reserveAttempt(email, T0)).allowed).toBe(true);
  });

  it('keys on the exact (already normalised) email: other emails are unaffected', async () => {
    await reserveTimes(3, T0);
    expect((await lockout.reserveAttempt('grace@example.com', T0)).allowed).toBe(true);
  });

  it('a maximum lowered below a stored count locks at the next attempt instead of never', async () => {
    await reserveTimes(2, T0);
    const stricter = createLoginLockout(db, { maxFailedAttempts: 1, lockoutMinutes: 15 });
    expect(await stricter.reserveAttempt(email, T0)).toEqual({ allowed: true });
    expect((await stricter.reserveAttempt(email, T0)).allowed).toBe(false);
  });

  it('with a maximum of 1, the very first failure locks', async () => {
    const single = createLoginLockout(db, { maxFailedAttempts: 1, lockoutMinutes: 1 });
    expect(await single.reserveAttempt('new@example.com', T0)).toEqual({ allowed: true });
    expect(await single.reserveAttempt('new@example.com', T0)).toEqual({ allowed: false, retryAfterSeconds: 60 });
  });
});
