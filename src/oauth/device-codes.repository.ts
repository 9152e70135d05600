import type { Db } from '../platform/db.js';

/** `withdrawn`: the account withdrew the app's authorisation after approving (or redeeming) the code. */
export type DeviceCodeStatus = 'pending' | 'approved' | 'denied' | 'used' | 'withdrawn';

export interface DeviceCodeRow {
  device_code_hash: string;
  user_code_hash: string;
  client_id: string;
  scope: string;
  status: DeviceCodeStatus;
  interval_seconds: number;
  last_polled_at: number | null;
  account_id: string | null;
  family_id: string;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  used_at: number | null;
}

/** What a poll of the token endpoint found, each outcome decided by one conditional UPDATE. */
export type PollOutcome =
  | { kind: 'approved'; row: DeviceCodeRow }
  | { kind: 'pending' }
  | { kind: 'slow-down'; intervalSeconds: number }
  | { kind: 'denied' }
  | { kind: 'expired' }
  | { kind: 'invalid' };

/** Rows are kept this long after they expire (a late poll still hears `expired_token`), then dropped. */
const KEEP_AFTER_EXPIRY_MS = 3_600_000;
/** RFC 8628 §3.5: each slow_down adds 5 seconds to the interval. */
export const SLOW_DOWN_STEP_SECONDS = 5;
/** A poll this much early is still on time: timers and networks jitter. */
const POLL_GRACE_MS = 200;

export interface DeviceCodesRepository {
  /** Stores a new request, false when its user code is already taken (the caller draws another). */
  insert: (row: DeviceCodeRow) => Promise<boolean>;
  /** A pending, unexpired request by its user code (for the verification page to show). */
  findPending: (userCodeHash: string, now: number) => Promise<DeviceCodeRow | undefined>;
  /** pending -> approved | denied, only while pending and unexpired; false otherwise. */
  decide: (userCodeHash: string, decision: { approved: true; accountId: string } | { approved: false }, now: number) => Promise<DeviceCodeRow | undefined>;
  /** One poll of the token endpoint by `clientId`. */
  poll: (deviceCodeHash: string, clientId: string, now: number) => Promise<PollOutcome>;
  /** The authorisation was withdrawn: approved codes stop working, and in-flight redemptions revoke what they issue. */
  withdraw: (accountId: string, clientId: string) => Promise<void>;
  isWithdrawn: (deviceCodeHash: string) => Promise<boolean>;
}

export function createDeviceCodesRepository(db: Db): DeviceCodesRepository {
  const table = 'oauth_device_codes';
  const live = (deviceCodeHash: string, clientId: string, now: number) =>
    db<DeviceCodeRow>(table).where({ device_code_hash: deviceCodeHash, client_id: clientId }).where('expires_at', '>', now);

  return {
    insert: async (row) => {
      await db(table).where('expires_at', '<', row.created_at - KEEP_AFTER_EXPIRY_MS).delete();
      const inserted = await db(table).insert(row).onConflict('user_code_hash').ignore().returning('device_code_hash');
      return inserted.length === 1;
    },

    findPending: (userCodeHash, now) =>
      db<DeviceCodeRow>(table).where({ user_code_hash: userCodeHash, status: 'pending' }).where('expires_at', '>', now).first(),

    decide: async (userCodeHash, decision, now) => {
      const set = decision.approved
        ? { status: 'approved', account_id: decision.accountId, decided_at: now }
        : { status: 'denied', decided_at: now };
      const [row] = (await db(table)
        .update(set)
        .where({ user_code_hash: userCodeHash, status: 'pending' })
        .where('expires_at', '>', now)
        .returning('*')) as DeviceCodeRow[];
      return row;
    },

    poll: async (deviceCodeHash, clientId, now) => {
      const [approved] = (await live(deviceCodeHash, clientId, now)
        .where({ status: 'approved' })
        .update({ status: 'used', used_at: now, last_polled_at: now })
        .returning('*')) as DeviceCodeRow[];
      if (approved) return { kind: 'approved', row: approved };

      const onTime = await live(deviceCodeHash, clientId, now)
        .where({ status: 'pending' })
        .where((q) => q.whereNull('last_polled_at').orWhereRaw('last_polled_at + interval_seconds * 1000 <= ?', [now + POLL_GRACE_MS]))
        .update({ last_polled_at: now });
      if (onTime === 1) return { kind: 'pending' };

      const [tooFast] = (await live(deviceCodeHash, clientId, now)
        .where({ status: 'pending' })
        .update({ last_polled_at: now, interval_seconds: db.raw('interval_seconds + ?', [SLOW_DOWN_STEP_SECONDS]) })
        .returning(['interval_seconds'])) as Pick<DeviceCodeRow, 'interval_seconds'>[];
      if (tooFast) return { kind: 'slow-down', intervalSeconds: tooFast.interval_seconds };

      // Nothing changed: the row only says which refusal to give.
      const row = await db<DeviceCodeRow>(table).where({ device_code_hash: deviceCodeHash, client_id: clientId }).first();
      if (!row || row.status === 'used' || row.status === 'withdrawn') return { kind: 'invalid' };
      if (row.status === 'denied') return { kind: 'denied' };
      if (Number(row.expires_at) <= now) return { kind: 'expired' };
      // Approved between our UPDATEs: the next poll gets the tokens.
      return { kind: 'pending' };
    },

    withdraw: async (accountId, clientId) => {
      await db(table).update({ status: 'withdrawn' }).where({ account_id: accountId, client_id: clientId }).whereIn('status', ['approved', 'used']);
    },

    isWithdrawn: async (deviceCodeHash) => {
      const row = await db<DeviceCodeRow>(table).select('status').where({ device_code_hash: deviceCodeHash }).first();
      return row?.status === 'withdrawn';
    },
  };
}
