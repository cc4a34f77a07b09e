import type { Kysely } from 'kysely';

/** One row per periodic job: which instance holds its current run, and until when. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text', (c) => c.notNull())
    .addColumn('run_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_started_at', 'text')
    .addColumn('last_finished_at', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').execute();
}
