import type { Knex } from 'knex';

// The change feed (docs/change-feed.md, src/tasks/task-changes.ts): every task write takes the next numbers of
// its account's change counter (accounts.task_change_seq) in its own transaction, stamps the task with
// it (tasks.change_seq) and raises tasks.version; a delete leaves a tombstone with its number.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('accounts', (t) => {
    t.bigInteger('task_change_seq').notNullable().defaultTo(0);
  });
  await db.schema.alterTable('tasks', (t) => {
    t.integer('version').notNullable().defaultTo(1);
    t.bigInteger('change_seq').notNullable().defaultTo(0);
  });
  // Tasks stored before the feed existed get numbers in the order they last changed, so an initial
  // sync walks them like any others.
  await db.raw(
    `update tasks set change_seq = numbered.n
     from (select id, row_number() over (partition by account_id order by updated_at, id) as n from tasks) as numbered
     where tasks.id = numbered.id`,
  );
  await db.raw('update accounts set task_change_seq = coalesce((select max(change_seq) from tasks where tasks.account_id = accounts.id), 0)');
  await db.schema.alterTable('tasks', (t) => {
    t.unique(['account_id', 'change_seq']);
  });

  await db.schema.createTable('task_tombstones', (t) => {
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.bigInteger('change_seq').notNullable();
    t.string('task_id', 36).notNullable();
    t.bigInteger('deleted_at').notNullable();
    t.primary(['account_id', 'change_seq']);
    t.index(['account_id', 'deleted_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('task_tombstones');
  await db.schema.alterTable('tasks', (t) => {
    t.dropUnique(['account_id', 'change_seq']);
    t.dropColumn('change_seq');
    t.dropColumn('version');
  });
  await db.schema.alterTable('accounts', (t) => {
    t.dropColumn('task_change_seq');
  });
}
