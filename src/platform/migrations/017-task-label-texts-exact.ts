import type { Knex } from 'knex';
import { inTaskBatches, labelsOf, writeSearchTexts, type IndexedFields } from '../../tasks/task-index.repository.js';

// A row's `search_labels` writes a label key's line breaks as `\n` (and its backslashes as `\\`), so that a
// walk's test of the text is exact and needs no look-up in the index (src/tasks/task-index.repository.ts).
// Only a task whose labels hold a line break or a backslash has a text to rewrite: in its stored JSON,
// both are written with a backslash.

const rewritten = (batch: readonly IndexedFields[]) => batch.filter((task) => task.labels.includes('\\'));

export async function up(db: Knex): Promise<void> {
  await inTaskBatches(db, (batch) => writeSearchTexts(db, rewritten(batch)));
}

export async function down(db: Knex): Promise<void> {
  await inTaskBatches(db, async (batch) => {
    for (const task of rewritten(batch)) {
      const keys = labelsOf(JSON.parse(task.labels) as string[]).map(([key]) => key);
      // The text as it was written before: each key as it is, between line breaks.
      await db('tasks').where('id', task.id).update({ search_labels: `\n${keys.join('\n')}\n` });
    }
  });
}
