import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Makes sure the job has its lease row; a no-op when another instance made it first. */
export async function ensureJobLease(db: Db, name: string): Promise<void> {
  await db
    .insertInto('job_leases')
    .values({ name, holder: null, lease_until: new Date(0).toISOString() })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/**
 * Claims the next run of `name` for `holder` when the current lease has run
 * out. One UPDATE with the expiry in its WHERE: on PostgreSQL the row lock
 * makes concurrent claimers wait and then see the new lease_until, on SQLite
 * writers are serialized; either way exactly one instance gets the row.
 */
export async function claimJobLease(db: Db, name: string, holder: string, now: Date, leaseMs: number): Promise<boolean> {
  const result = await db
    .updateTable('job_leases')
    .set({
      holder,
      lease_until: new Date(now.getTime() + leaseMs).toISOString(),
      run_count: sql<number>`run_count + 1`,
      last_started_at: now.toISOString(),
    })
    .where('name', '=', name)
    .where('lease_until', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Keeps a long run's lease alive, only while this instance still holds it. */
export async function extendJobLease(db: Db, name: string, holder: string, until: Date): Promise<void> {
  await db.updateTable('job_leases').set({ lease_until: until.toISOString() }).where('name', '=', name).where('holder', '=', holder).execute();
}

/** A run finished: record it; `handBack` frees the lease at once (the run was cut short). */
export async function finishJobLease(db: Db, name: string, holder: string, now: Date, handBack: boolean): Promise<void> {
  await db
    .updateTable('job_leases')
    .set(handBack ? { last_finished_at: now.toISOString(), lease_until: now.toISOString() } : { last_finished_at: now.toISOString() })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
