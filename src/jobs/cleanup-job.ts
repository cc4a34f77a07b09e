import type { AppContext } from '../app-context.js';

/** Expired or revoked tokens are kept this long (for support questions), then deleted. */
const keepDeadTokensMs = 7 * 24 * 3600 * 1000;
const batchSize = 500;

/**
 * Housekeeping: deletes dashboard user tokens dead for a week, in small
 * batches so a long backlog never holds a big lock. Runs on one instance per
 * interval (the job runner's lease); a repeated delete would be harmless anyway.
 */
export function registerCleanupJob(context: AppContext): void {
  const { db, jobs, config } = context;
  jobs.every('cleanup', config.cleanupIntervalMs, async (signal) => {
    const cutoff = new Date(Date.now() - keepDeadTokensMs).toISOString();
    while (!signal.aborted) {
      const batch = await db
        .selectFrom('user_tokens')
        .select('id')
        .where((eb) => eb.or([eb('expires_at', '<', cutoff), eb('revoked_at', '<', cutoff)]))
        .limit(batchSize)
        .execute();
      if (batch.length === 0) return;
      await db.deleteFrom('user_tokens').where('id', 'in', batch.map((row) => row.id)).execute();
      if (batch.length < batchSize) return;
    }
  });
}
