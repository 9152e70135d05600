import type { Knex } from 'knex';

// An API token minted by an OAuth app (or by a token that app minted) lives under that app's
// authorisation: withdrawing the app must revoke it too, or an app could outlive its withdrawal.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('api_tokens', (t) => {
    t.string('oauth_client_id', 255).nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('api_tokens', (t) => {
    t.dropColumn('oauth_client_id');
  });
}
