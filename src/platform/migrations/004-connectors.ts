import type { Knex } from 'knex';

// Sync jobs are leased by the process that runs them: a lease that is not renewed (the process
// crashed) lets any instance pick the job up again, so no job stays `running` for ever.
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('sync_jobs', (t) => {
    t.string('runner_id', 36).nullable();
    t.bigInteger('lease_until').nullable();
    t.integer('attempts').notNullable().defaultTo(0);
  });
  // At most one queued or running job per connected account, enforced by the store (both engines
  // support partial indexes), so parallel startSync calls share one job.
  await db.raw(
    `create unique index sync_jobs_one_active_per_account on sync_jobs (connector_account_id) where status in ('queued', 'running')`,
  );
}

export async function down(db: Knex): Promise<void> {
  await db.raw('drop index if exists sync_jobs_one_active_per_account');
  await db.schema.alterTable('sync_jobs', (t) => {
    t.dropColumn('runner_id');
    t.dropColumn('lease_until');
    t.dropColumn('attempts');
  });
}
