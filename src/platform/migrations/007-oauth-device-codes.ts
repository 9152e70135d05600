import type { Knex } from 'knex';

// The OAuth device authorization grant (RFC 8628): one row per device authorisation request, from
// POST /oauth/device_authorization until its device code is redeemed or expires. Both codes are
// stored only as SHA-256 digests; the state moves pending -> approved | denied -> used, each step
// one conditional UPDATE.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('oauth_device_codes', (t) => {
    t.string('device_code_hash', 64).primary();
    t.string('user_code_hash', 64).notNullable().unique();
    t.string('client_id', 255).notNullable();
    t.text('scope').notNullable();
    t.string('status', 16).notNullable();
    t.integer('interval_seconds').notNullable();
    t.bigInteger('last_polled_at').nullable();
    t.string('account_id', 36).nullable().references('accounts.id').onDelete('CASCADE');
    // The refresh-token family the code issues, named up front like an authorisation code's.
    t.string('family_id', 36).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable().index();
    t.bigInteger('decided_at').nullable();
    t.bigInteger('used_at').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('oauth_device_codes');
}
