import type { Knex } from 'knex';

// Times are BIGINT epoch milliseconds everywhere: one representation on SQLite and PostgreSQL.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('accounts', (t) => {
    t.string('id', 36).primary();
    t.string('email', 254).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.string('name', 200).nullable();
    // The task cap's counter, moved only by conditional updates (see tasks/task-quota.ts).
    t.integer('task_count').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
  });

  // Keyed by the normalised email, not the account: unknown emails lock the same way.
  await db.schema.createTable('login_attempts', (t) => {
    t.string('email', 254).primary();
    t.integer('failed_count').notNullable().defaultTo(0);
    t.bigInteger('locked_until').nullable();
    t.bigInteger('updated_at').notNullable();
  });

  await db.schema.createTable('refresh_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('token_hash', 64).notNullable().unique();
    t.string('family_id', 36).notNullable().index();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE').index();
    t.string('client_id', 255).notNullable();
    t.text('scope').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('rotated_at').nullable();
    t.bigInteger('revoked_at').nullable();
  });

  await db.schema.createTable('api_tokens', (t) => {
    t.string('id', 36).primary();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE').index();
    t.string('name', 100).notNullable();
    t.string('token_hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.text('scopes').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').nullable();
    t.bigInteger('last_used_at').nullable();
    t.bigInteger('revoked_at').nullable();
  });

  await db.schema.createTable('connector_accounts', (t) => {
    t.string('id', 36).primary();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.string('external_id', 2048).notNullable();
    t.string('display_name', 500).notNullable();
    t.text('credentials_encrypted').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('last_synced_at').nullable();
    t.unique(['account_id', 'type', 'external_id']);
  });

  // The per-type cap's counter, one row per (account, type), moved by conditional updates.
  await db.schema.createTable('connector_account_counts', (t) => {
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('type', 32).notNullable();
    t.integer('count').notNullable().defaultTo(0);
    t.primary(['account_id', 'type']);
  });

  await db.schema.createTable('tasks', (t) => {
    t.string('id', 36).primary();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('title', 500).notNullable();
    t.text('notes').nullable();
    t.string('status', 16).notNullable();
    t.integer('priority').notNullable();
    t.bigInteger('due_at').nullable();
    t.text('labels').notNullable();
    t.bigInteger('completed_at').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.string('connector_account_id', 36).nullable().references('connector_accounts.id').onDelete('SET NULL');
    t.string('connector_type', 32).nullable();
    t.string('external_id', 1024).nullable();
    t.text('external_url').nullable();
    t.index(['account_id', 'created_at', 'id']);
    t.index(['account_id', 'updated_at']);
    t.unique(['connector_account_id', 'external_id']);
  });

  await db.schema.createTable('idempotency_keys', (t) => {
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('key', 255).notNullable();
    t.string('request_hash', 64).notNullable();
    t.integer('response_status').nullable();
    t.text('response_body').nullable();
    t.bigInteger('created_at').notNullable();
    t.primary(['account_id', 'key']);
  });

  await db.schema.createTable('sync_jobs', (t) => {
    t.string('id', 36).primary();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('connector_account_id', 36).notNullable().references('connector_accounts.id').onDelete('CASCADE');
    t.string('status', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('started_at').nullable();
    t.bigInteger('finished_at').nullable();
    t.integer('fetched').notNullable().defaultTo(0);
    t.integer('created').notNullable().defaultTo(0);
    t.integer('updated').notNullable().defaultTo(0);
    t.integer('unchanged').notNullable().defaultTo(0);
    t.integer('dropped_over_quota').notNullable().defaultTo(0);
    t.text('error').nullable();
    t.index(['connector_account_id', 'created_at']);
    t.index(['status']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'sync_jobs',
    'idempotency_keys',
    'tasks',
    'connector_account_counts',
    'connector_accounts',
    'api_tokens',
    'refresh_tokens',
    'login_attempts',
    'accounts',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
}
