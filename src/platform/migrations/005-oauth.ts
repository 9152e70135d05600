import type { Knex } from 'knex';

// The OAuth authorisation server: registered public clients, one-time authorisation codes, and
// which apps each account has authorised (one row per granted scope, so re-consenting adds scopes
// with one idempotent insert instead of a read-modify-write of a list).
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('oauth_clients', (t) => {
    t.string('client_id', 64).primary();
    t.string('client_name', 200).nullable();
    // A JSON array: read whole, never queried into.
    t.text('redirect_uris').notNullable();
    // What the client registered; null means every scope.
    t.text('scope').nullable();
    t.bigInteger('created_at').notNullable();
  });

  await db.schema.createTable('oauth_authorization_codes', (t) => {
    // Codes are stored only as SHA-256 digests, like refresh tokens.
    t.string('code_hash', 64).primary();
    t.string('client_id', 255).notNullable();
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.text('redirect_uri').notNullable();
    t.text('scope').notNullable();
    t.string('code_challenge', 128).notNullable();
    // The refresh-token family the code issues, named up front so a replay can revoke it.
    t.string('family_id', 36).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('expires_at').notNullable().index();
    t.bigInteger('used_at').nullable();
    // Set when what the code issued must not live: it was replayed, or the authorisation was withdrawn.
    t.bigInteger('revoked_at').nullable();
    t.index(['account_id', 'client_id']);
  });

  await db.schema.createTable('oauth_authorizations', (t) => {
    t.string('account_id', 36).notNullable().references('accounts.id').onDelete('CASCADE');
    t.string('client_id', 255).notNullable();
    t.string('scope', 64).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.primary(['account_id', 'client_id', 'scope']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['oauth_authorizations', 'oauth_authorization_codes', 'oauth_clients']) {
    await db.schema.dropTableIfExists(table);
  }
}
