import type { Knex } from 'knex';
import { inTaskBatches, writeSearchTerms } from '../../tasks/task-index.repository.js';
import { isPostgres } from '../db.js';

// Each task's search terms (src/tasks/task-index.repository.ts) in a full-text index, which intersects the
// tasks of several words and labels from its lists alone (src/tasks/task-search.repository.ts).
//
// PostgreSQL: a GIN index of the terms as a tsvector, each term a lexeme as written (no parser, no
// dictionary); a word's start is a prefix query (`:*`).
//
// SQLite: an FTS5 table kept by triggers on `tasks`. It holds no text (contentless), only each task's
// terms under the task's `doc`, a number of its own: the implicit rowid of `tasks`, whose key is its text
// id, may change on VACUUM. The `ascii` tokenizer takes a term (letters and digits) as one token; no
// positions are kept (detail=none); prefix indexes for a word's first 1 to 4 bytes (an account's part of
// a term is 32 hex digits and a letter) make the start of a short word one list, not a merge of many.
export const TERMS_TABLE = 'task_terms';

export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('tasks', (table) => table.text('search_terms'));
  if (isPostgres(db)) {
    await inTaskBatches(db, (batch) => writeSearchTerms(db, batch));
    await db.raw(`create index tasks_search_terms_index on tasks using gin (array_to_tsvector(string_to_array(search_terms, ' ')))`);
    return;
  }
  await db.raw('alter table tasks add column doc integer');
  await db.raw('update tasks set doc = rowid');
  await db.raw('create unique index tasks_doc_index on tasks (doc)');
  await db.raw(
    `create virtual table ${TERMS_TABLE} using fts5(terms, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii', prefix = '35 37 39 41')`,
  );
  // A row inserted with its number (a task created through the API: src/tasks/tasks.repository.ts) has
  // its terms indexed; any other row is numbered first. A change of the terms replaces them. The
  // constant conditions skip the index's work where there is nothing to forget or to learn.
  await db.raw(`create trigger tasks_terms_on_insert after insert on tasks for each row when new.doc is not null and new.search_terms is not null begin
    insert into ${TERMS_TABLE} (rowid, terms) values (new.doc, new.search_terms);
  end`);
  await db.raw(`create trigger tasks_numbered_on_insert after insert on tasks for each row when new.doc is null begin
    update tasks set doc = (select coalesce(max(doc), 0) + 1 from tasks) where rowid = new.rowid;
    insert into ${TERMS_TABLE} (rowid, terms) select doc, search_terms from tasks where rowid = new.rowid and search_terms is not null;
  end`);
  await db.raw(`create trigger tasks_terms_on_update after update of search_terms on tasks for each row when old.search_terms is not new.search_terms begin
    delete from ${TERMS_TABLE} where rowid = old.doc and old.search_terms is not null;
    insert into ${TERMS_TABLE} (rowid, terms) select new.doc, new.search_terms where new.search_terms is not null;
  end`);
  await db.raw(`create trigger tasks_terms_on_delete after delete on tasks for each row when old.search_terms is not null begin
    delete from ${TERMS_TABLE} where rowid = old.doc;
  end`);
  await inTaskBatches(db, (batch) => writeSearchTerms(db, batch));
}

export async function down(db: Knex): Promise<void> {
  if (isPostgres(db)) {
    await db.raw('drop index tasks_search_terms_index');
  } else {
    await db.raw('drop trigger tasks_terms_on_delete');
    await db.raw('drop trigger tasks_terms_on_update');
    await db.raw('drop trigger tasks_numbered_on_insert');
    await db.raw('drop trigger tasks_terms_on_insert');
    await db.raw(`drop table ${TERMS_TABLE}`);
    await db.raw('drop index tasks_doc_index');
    await db.raw('alter table tasks drop column doc');
  }
  await db.schema.alterTable('tasks', (table) => table.dropColumn('search_terms'));
}
