import { compiledQuery, type Queryable, type StepBuilder } from '../platform/compiled-query.js';
import { isPostgres } from '../platform/db.js';
import { placeTaken } from './task-quota.js';
import { newTaskIndexValues, SEARCH_TEXT_COLUMNS } from './task-index.repository.js';
import { COLUMNS, type NewTaskRow, type TaskRow } from './tasks.repository.js';

// A create on PostgreSQL as one statement (src/tasks/task-changes.ts, created).

/** A listener's write as a step of the statement that makes a change (src/tasks/task-changes.ts), with its values. */
export interface StatementStep {
  build: StepBuilder;
  values: readonly unknown[];
}

/**
 * PostgreSQL: takes a place under the cap with the change number (src/tasks/task-quota.ts), inserts the
 * task and runs a listener's step, as one statement of data-modifying WITHs. On its own it commits as
 * one: a create is one round trip where a transaction took five (BEGIN, the cap's UPDATE, the INSERT, the
 * listener's INSERT, COMMIT). Its words and labels are indexed by its row's search texts and two more steps (src/tasks/task-index.repository.ts). The account row is locked first, as by every task write. Undefined at the
 * cap (nothing written); else the row and how many rows the step wrote.
 */
export async function insertTaskWithinCap(
  db: Queryable,
  row: NewTaskRow,
  maxTasks: number,
  step?: StatementStep,
): Promise<{ row: TaskRow; stepWrote: number } | undefined> {
  if (!isPostgres(db)) throw new Error('insertTaskWithinCap: only PostgreSQL runs a create as one statement');
  let shape = createShapes.get(step?.build);
  if (!shape) {
    shape = createShape(step?.build);
    createShapes.set(step?.build, shape);
  }
  const created = await shape.first(db, [
    row.account_id,
    maxTasks,
    ...NEW_COLUMNS.map((column) => row[column]),
    ...newTaskIndexValues(row),
    ...(step?.values ?? []),
  ]);
  if (created === undefined) return undefined;
  const { step_wrote: stepWrote, ...inserted } = created;
  return { row: inserted, stepWrote: Number(stepWrote) };
}

const PLACE_TAKEN = 'place_taken';
const CREATED = 'created';
const STEP = 'step';
const WORDS = 'words_indexed';
const LABELS = 'labels_indexed';

/** The create with a step (or none), compiled once for each. */
function createShape(step: StepBuilder | undefined) {
  return compiledQuery<unknown[], TaskRow & { step_wrote: string | number }>((db, $) => {
    // Bare placeholders: PostgreSQL types each from the column it is inserted into (inside an expression
    // it would be text, which an integer or bigint column refuses).
    const values = NEW_COLUMNS.map((_, i) => $(2 + i));
    const indexAt = 2 + NEW_COLUMNS.length;
    const query = db
      .queryBuilder()
      .with(PLACE_TAKEN, placeTaken(db, $(0), $(1)))
      .with(
        CREATED,
        db.raw(`insert into tasks (??, ??, change_seq) select ${values.map(() => '?').join(', ')}, ?, ?, ?, task_change_seq from ?? returning ??`, [
          NEW_COLUMNS,
          [...SEARCH_TEXT_COLUMNS],
          ...values,
          $(indexAt),
          $(indexAt + 1),
          $(indexAt + 2),
          PLACE_TAKEN,
          COLUMNS,
        ]),
      );
    query
      .with(WORDS, db.raw(`insert into task_words (task_id, account_id, word) select c.id, c.account_id, w from ?? c, unnest(?::text[]) as w`, [CREATED, $(indexAt + 3)]))
      .with(
        LABELS,
        db.raw(`insert into task_labels (task_id, account_id, label, name) select c.id, c.account_id, l.k, l.n from ?? c, unnest(?::text[], ?::text[]) as l(k, n)`, [
          CREATED,
          $(indexAt + 4),
          $(indexAt + 5),
        ]),
      );
    if (step) query.with(STEP, step(db, (i) => $(indexAt + 6 + i), CREATED));
    return query
      .select(`${CREATED}.*`)
      .select(db.raw(step ? `(select count(*) from ${STEP}) as step_wrote` : '0 as step_wrote'))
      .from(CREATED);
  });
}
const createShapes = new Map<StepBuilder | undefined, ReturnType<typeof createShape>>();

/** What a create gives: every column but the change number, which its insert takes. */
const NEW_COLUMNS = COLUMNS.filter((column): column is keyof NewTaskRow => column !== 'change_seq');
