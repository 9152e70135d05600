import type { Knex } from 'knex';

// Every DELETE of a task writes its tombstone (src/tasks/task-feed.repository.ts), and one index on
// (account_id, deleted_at) was half of what that cost on SQLite (bench/change-feed.bench.ts). Its one
// reader was the purge of old tombstones, now and then; the purge walks them by change number instead,
// oldest first, on the primary key (account_id, change_seq), and stops at the first one still kept.
const INDEX = 'task_tombstones_account_id_deleted_at_index';

export async function up(db: Knex): Promise<void> {
  await db.raw(`drop index ${INDEX}`);
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`create index ${INDEX} on task_tombstones (account_id, deleted_at)`);
}
