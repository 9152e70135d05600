import type { Db } from '../platform/db.js';

export interface LockoutSettings {
  maxFailedAttempts: number;
  lockoutMinutes: number;
}

export type AttemptReservation = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * The login lockout (docs/security.md), kept in login_attempts by normalised email so a restart unlocks
 * nobody and unknown emails lock alike. Each attempt is counted as a failure *before* its password is
 * verified, in one conditional statement: parallel attempts can never verify more than the maximum.
 */
export interface LoginLockout {
  /** Counts this attempt against the email, or refuses it while the email is locked. */
  reserveAttempt: (email: string, now?: number) => Promise<AttemptReservation>;
  /** A successful login: the counter restarts from 0 and no lock remains. */
  recordSuccess: (email: string, now?: number) => Promise<void>;
}

export function createLoginLockout(db: Db, settings: LockoutSettings): LoginLockout {
  const lockoutMs = settings.lockoutMinutes * 60_000;
  const max = settings.maxFailedAttempts;

  // The attempt that brings the count to the maximum sets the lock at once; its own password is
  // still verified (and a right one lifts the lock again). A lock that has ended restarts the count.
  const reserveSql = `
    insert into login_attempts (email, failed_count, locked_until, updated_at)
    values (?, 1, cast(? as bigint), ?)
    on conflict (email) do update set
      failed_count = case when login_attempts.locked_until is null then login_attempts.failed_count + 1 else 1 end,
      locked_until = case
        when (case when login_attempts.locked_until is null then login_attempts.failed_count + 1 else 1 end) >= ?
        then cast(? as bigint) else null end,
      updated_at = ?
    where login_attempts.locked_until is null or login_attempts.locked_until <= ?
    returning failed_count`;

  return {
    reserveAttempt: async (email, now = Date.now()) => {
      const lockUntil = now + lockoutMs;
      const reserved = rawRows<{ failed_count: number }>(
        await db.raw(reserveSql, [email, max <= 1 ? lockUntil : null, now, max, lockUntil, now, now]),
      );
      if (reserved.length > 0) return { allowed: true };
      const row = await db('login_attempts').select('locked_until').where({ email }).first<{ locked_until: number | null } | undefined>();
      const lockedUntil = row?.locked_until ?? lockUntil;
      return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((lockedUntil - now) / 1000)) };
    },
    recordSuccess: async (email, now = Date.now()) => {
      await db('login_attempts').update({ failed_count: 0, locked_until: null, updated_at: now }).where({ email });
    },
  };
}

/** Rows of a knex `raw` result: PostgreSQL wraps them in `{ rows }`, better-sqlite3 returns the array. */
function rawRows<Row>(result: unknown): Row[] {
  if (Array.isArray(result)) return result as Row[];
  return ((result as { rows?: Row[] }).rows ?? []) as Row[];
}
