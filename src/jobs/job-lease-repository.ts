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
 * Claims the next run of `name` for `holder`: only when no run is in progress
 * (its lease ran out or was released) and the last run started at least
 * `intervalMs` ago. One UPDATE with both conditions in its WHERE: on
 * PostgreSQL the row lock makes concurrent claimers wait and then see the new
 * values, on SQLite writers are serialized; either way one instance gets it.
 * Each instance applies its own interval, so instances configured differently
 * (a rolling config change, tests) still never run the job twice at once.
 */
export async function claimJobLease(db: Db, name: string, holder: string, now: Date, intervalMs: number, leaseMs: number): Promise<boolean> {
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
    .where((eb) => eb.or([eb('last_started_at', 'is', null), eb('last_started_at', '<=', new Date(now.getTime() - intervalMs).toISOString())]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Keeps a long run's lease alive, only while this instance still holds it. */
export async function extendJobLease(db: Db, name: string, holder: string, until: Date): Promise<void> {
  await db.updateTable('job_leases').set({ lease_until: until.toISOString() }).where('name', '=', name).where('holder', '=', holder).execute();
}

/**
 * A run finished: release the lease. `handBack` (the run was cut short by
 * shutdown) also forgets its start, so another instance runs the job at once.
 */
export async function finishJobLease(db: Db, name: string, holder: string, now: Date, handBack: boolean): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ last_finished_at: now.toISOString(), lease_until: now.toISOString(), ...(handBack ? { last_started_at: null } : {}) })
    .where('name', '=', name)
    .where('holder', '=', holder)
    .execute();
}
