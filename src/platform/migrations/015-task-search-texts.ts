import type { Knex } from 'knex';
import { inTaskBatches, writeSearchTexts } from '../../tasks/task-index.repository.js';

// Each task's words and label keys on its own row as one text each (src/tasks/task-index.repository.ts):
// a walk through the account's tasks in a sort's order tests the row it reads, not an index per task.

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.text('search_words');
    table.text('search_labels');
  });
  // Today's tasks, in batches by id.
  await inTaskBatches(db, (batch) => writeSearchTexts(db, batch));
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => {
    table.dropColumn('search_labels');
    table.dropColumn('search_words');
  });
}
