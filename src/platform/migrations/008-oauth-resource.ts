import type { Knex } from 'knex';

// RFC 8707: a grant is for one resource, the REST API (null) or the MCP server (its URL); the code
// carries it to the tokens, and the refresh-token family keeps it for every access token it issues.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('oauth_authorization_codes', (t) => {
    t.string('resource', 2048).nullable();
  });
  await db.schema.alterTable('refresh_tokens', (t) => {
    t.string('resource', 2048).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('oauth_authorization_codes', (t) => {
    t.dropColumn('resource');
  });
  await db.schema.alterTable('refresh_tokens', (t) => {
    t.dropColumn('resource');
  });
}
