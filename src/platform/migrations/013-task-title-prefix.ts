import type { Knex } from 'knex';
import { isPostgres } from '../db.js';

// The completion of a task id from the start of its title (src/tasks/task-titles.repository.ts) is
// one range of this index per keystroke, and of its id one range of the second; on PostgreSQL in byte
// order ("C"), so that a range is a prefix whatever the database's collation (SQLite's is bytes already,
// and its primary key serves the id).
const INDEX = 'tasks_account_id_lower_title_index';
const ID_INDEX = 'tasks_account_id_id_bytes_index';

export async function up(db: Knex): Promise<void> {
  if (isPostgres(db)) {
    await db.raw(`create index ${INDEX} on tasks (account_id, (lower(title) collate "C"))`);
    await db.raw(`create index ${ID_INDEX} on tasks (account_id, (id collate "C"))`);
  } else {
    await db.raw(`create index ${INDEX} on tasks (account_id, lower(title))`);
  }
}

export async function down(db: Knex): Promise<void> {
  await db.raw(`drop index ${INDEX}`);
  if (isPostgres(db)) await db.raw(`drop index ${ID_INDEX}`);
}
