import type { Knex } from 'knex';
import { isPostgres } from '../db.js';

// SQLite only: the tombstones stored in their primary key's order (WITHOUT ROWID), so a DELETE's
// tombstone writes two B-trees (the table and its deleted_at index) instead of three (the rowid
// table, the primary key's own index, deleted_at). Most of the change feed's cost on a DELETE was
// that write at COMMIT (bench/change-feed.bench.ts, docs/benchmarks.md#change-feed). PostgreSQL's
// tables are heaps either way.
const COLUMNS = 'account_id, change_seq, task_id, deleted_at';

async function rebuild(db: Knex, withoutRowid: boolean): Promise<void> {
  await db.raw(
    `create table task_tombstones_rebuilt (
       account_id varchar(36) not null, change_seq bigint not null, task_id varchar(36) not null, deleted_at bigint not null,
       foreign key(account_id) references accounts(id) on delete cascade, primary key (account_id, change_seq)
     )${withoutRowid ? ' without rowid' : ''}`,
  );
  await db.raw(`insert into task_tombstones_rebuilt (${COLUMNS}) select ${COLUMNS} from task_tombstones`);
  await db.raw('drop table task_tombstones');
  await db.raw('alter table task_tombstones_rebuilt rename to task_tombstones');
  await db.raw('create index task_tombstones_account_id_deleted_at_index on task_tombstones (account_id, deleted_at)');
}

export async function up(db: Knex): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, true);
}

export async function down(db: Knex): Promise<void> {
  if (!isPostgres(db)) await rebuild(db, false);
}
