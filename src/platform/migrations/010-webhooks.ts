import type { Knex } from 'knex';

// docs/webhooks.md. Deliveries are an outbox: one row per subscribed webhook, carrying the event's id and
// body, is written in the transaction of the change it reports (one table and few indexes: every
// subscribed task write pays for them), and a worker sends the deliveries under a lease
// (runner_id, lease_until) so that instances never send the same attempt at once and a process that
// dies mid-send leaves the attempt to be taken again when its lease lapses.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('webhooks', (t) => {
    t.string('id', 36).primary();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('url', 2048).notNullable();
    t.text('events').notNullable();
    t.string('description', 500).nullable();
    t.boolean('enabled').notNullable().defaultTo(true);
    t.string('disabled_reason', 200).nullable();
    t.string('secret', 100).notNullable();
    t.string('previous_secret', 100).nullable();
    t.bigInteger('previous_secret_until').nullable();
    // The OAuth app that made it: deleted with the app's authorisation.
    t.string('created_by_client_id', 255).nullable();
    // Deliveries that ended failed since the last success; 20 turn the webhook off.
    t.integer('failed_in_a_row').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.index(['account_id', 'created_at']);
  });
  await db.schema.createTable('webhook_deliveries', (t) => {
    t.string('id', 36).primary();
    t.string('webhook_id', 36).notNullable().references('webhooks.id').onDelete('CASCADE');
    // The webhook-id of every attempt; the event's other deliveries (other webhooks, redeliveries) share it.
    t.string('event_id', 40).notNullable();
    t.string('event_type', 40).notNullable();
    // The exact body sent: `{ type, timestamp, data }`.
    t.text('payload').notNullable();
    t.string('status', 16).notNullable();
    t.integer('attempts').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('next_attempt_at').nullable();
    t.bigInteger('last_attempt_at').nullable();
    t.integer('last_status_code').nullable();
    t.string('last_error', 300).nullable();
    t.string('runner_id', 36).nullable();
    t.bigInteger('lease_until').nullable();
    t.index(['webhook_id', 'created_at', 'id']);
  });
  // The worker's question, "what is due?", reads only pending rows.
  await db.raw(`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`);
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('webhook_deliveries');
  await db.schema.dropTable('webhooks');
}
