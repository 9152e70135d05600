import { randomUUID } from 'node:crypto';
import { compiledQuery } from '../platform/compiled-query.js';
import type { CallerAccount } from '../http/caller.js';
import type { Db } from '../platform/db.js';

export interface AccountRow {
  id: string;
  email: string;
  password_hash: string;
  name: string | null;
  created_at: number;
}

export interface AccountsRepository {
  /** The new account's row, or undefined when the email is taken. */
  insert: (account: { email: string; passwordHash: string; name: string | null; now: number }) => Promise<AccountRow | undefined>;
  findByEmail: (email: string) => Promise<AccountRow | undefined>;
  findById: (id: string) => Promise<AccountRow | undefined>;
  /** The account's public columns (no password hash), or undefined when it is gone. */
  profileOf: (id: string) => Promise<CallerAccount | undefined>;
  /** Deletes the account; every row of it goes too (ON DELETE CASCADE). False when it was already gone. */
  delete: (id: string) => Promise<boolean>;
}

const COLUMNS: (keyof AccountRow)[] = ['id', 'email', 'password_hash', 'name', 'created_at'];

// Every signed-in request reads its account (http: the account check; GET /me, login): compiled once.
const byEmail = compiledQuery<[string], AccountRow>((db, $) => db('accounts').select(COLUMNS).where('email', $(0)).limit(1));
const byId = compiledQuery<[string], AccountRow>((db, $) => db('accounts').select(COLUMNS).where('id', $(0)).limit(1));
const profileById = compiledQuery<[string], Omit<AccountRow, 'password_hash'> & { task_change_seq: number | string }>((db, $) =>
  db('accounts').select('id', 'email', 'name', 'created_at', 'task_change_seq').where('id', $(0)).limit(1),
);

export function createAccountsRepository(db: Db): AccountsRepository {
  return {
    insert: async ({ email, passwordHash, name, now }) => {
      const row: AccountRow = { id: randomUUID(), email, password_hash: passwordHash, name, created_at: now };
      // ON CONFLICT DO NOTHING instead of catching the unique violation: the same on both engines.
      const inserted = await db('accounts').insert(row).onConflict('email').ignore().returning('id');
      return inserted.length > 0 ? row : undefined;
    },
    findByEmail: (email) => byEmail.first(db, [email]),
    findById: (id) => byId.first(db, [id]),
    profileOf: async (id) => {
      const row = await profileById.first(db, [id]);
      return row && { id: row.id, email: row.email, name: row.name, createdAtMs: Number(row.created_at), lastTaskChange: Number(row.task_change_seq) };
    },
    delete: async (id) => (await db('accounts').where({ id }).delete()) > 0,
  };
}
