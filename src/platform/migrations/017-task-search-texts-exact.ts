import type { Knex } from 'knex';
import { inTaskBatches, labelsOf, wordsOf, writeSearchTexts, type IndexedFields } from '../../tasks/task-index.repository.js';

// A row's search texts write a space within a word (NFKD makes one of a few letters) as a line break, and a
// label key's line breaks as `\n` and its backslashes as `\\`, so that a walk's test of the texts is exact
// and needs no look-up in the index (src/tasks/task-index.repository.ts). Only a task with such a word, or
// with a label that holds a line break or a backslash (in its stored JSON both are written with a
// backslash), has texts to rewrite.

const wordsWithSpaces = (task: IndexedFields) => wordsOf(task).some((word) => word.includes(' '));
const rewritten = (batch: readonly IndexedFields[]) => batch.filter((task) => task.labels.includes('\\') || wordsWithSpaces(task));

export async function up(db: Knex): Promise<void> {
  await inTaskBatches(db, (batch) => writeSearchTexts(db, rewritten(batch)));
}

export async function down(db: Knex): Promise<void> {
  await inTaskBatches(db, async (batch) => {
    for (const task of rewritten(batch)) {
      const words = wordsOf(task);
      const keys = labelsOf(JSON.parse(task.labels) as string[]).map(([key]) => key);
      // The texts as they were written before: each word after a space, each key between line breaks, as they are.
      await db('tasks')
        .where('id', task.id)
        .update({ search_words: words.length === 0 ? null : words.map((word) => ` ${word}`).join(''), search_labels: keys.length === 0 ? null : `\n${keys.join('\n')}\n` });
    }
  });
}
