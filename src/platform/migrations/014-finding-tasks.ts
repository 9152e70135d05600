import type { Knex } from 'knex';
import { inTaskBatches, writeIndexRows } from '../../tasks/task-index.repository.js';
import { isPostgres } from '../db.js';

// Finding tasks (docs/finding-tasks.md): each task's words and labels as rows of their own, and the
// tasks' sort orders as indexes, so that a filtered or sorted page reads indexes on both engines.
// Words and labels compare in byte order ("C" on PostgreSQL, SQLite's own): a word's prefix is a range.
// The due and priority orders put tasks without a due time last: `coalesce(due_at, NO_DUE_TIME)`
// (sdk/src/task-query.ts), written the same in src/tasks/task-search.repository.ts so that both engines
// use these indexes. A migration's SQL stays as it ran, so the number is written out here.
export const NO_DUE_TIME_SQL = 'coalesce(due_at, 253402300800000)';

export async function up(db: Knex): Promise<void> {
  const bytes = isPostgres(db) ? ' collate "C"' : '';
  await db.raw(`create table task_words (
    task_id varchar(36) not null references tasks (id) on delete cascade,
    account_id varchar(36) not null,
    word text${bytes} not null,
    primary key (task_id, word))`);
  await db.raw('create index task_words_account_word_index on task_words (account_id, word, task_id)');
  await db.raw(`create table task_labels (
    task_id varchar(36) not null references tasks (id) on delete cascade,
    account_id varchar(36) not null,
    label text${bytes} not null,
    name text not null,
    primary key (task_id, label))`);
  await db.raw('create index task_labels_account_label_index on task_labels (account_id, label, task_id)');

  await db.raw('create index tasks_account_updated_id_index on tasks (account_id, updated_at, id)');
  await db.raw(`create index tasks_account_due_index on tasks (account_id, (${NO_DUE_TIME_SQL}), created_at, id)`);
  await db.raw(`create index tasks_account_priority_index on tasks (account_id, priority, (${NO_DUE_TIME_SQL}), created_at, id)`);

  // Today's tasks, in batches by id.
  await inTaskBatches(db, (batch) => writeIndexRows(db, batch));
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index tasks_account_priority_index');
  await db.raw('drop index tasks_account_due_index');
  await db.raw('drop index tasks_account_updated_id_index');
  await db.schema.dropTable('task_labels');
  await db.schema.dropTable('task_words');
}
