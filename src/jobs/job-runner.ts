import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/database.js';
import { claimJobLease, ensureJobLease, extendJobLease, finishJobLease } from './job-lease-repository.js';

/**
 * How long a run holds its lease without renewal. A running instance renews it
 * every third of this; an instance that died mid-run blocks the job this long.
 */
const runLeaseMs = 30_000;

/** One run of a job. `signal` aborts when the instance shuts down: stop early and return. */
export type JobWork = (signal: AbortSignal) => Promise<void>;

interface Job {
  name: string;
  intervalMs: number;
  work: JobWork;
  timer: NodeJS.Timeout | null;
  running: Promise<void> | null;
  hasLeaseRow: boolean;
}

/**
 * The one runner for background work (popular prompts, webhook delivery,
 * cleanup). `every(name, intervalMs, work)` runs `work` about once per
 * interval across ALL instances on the database: before each run an instance
 * claims the job's row in job_leases (no run in progress, last one started
 * an interval ago), and only the instance whose claim succeeds runs it. A run
 * holds a renewed lease while it works and releases it when done; a run cut
 * short by shutdown hands the job back so another instance runs it at once. Work that processes items (deliveries, outbox rows)
 * should still claim each item (see claimRows in db/dialect.ts) so that a
 * run outliving a lost lease cannot repeat an item.
 */
export class JobRunner {
  /** This process's id in job_leases.holder (and in logs). */
  readonly instanceId = `${process.pid}-${randomBytes(4).toString('hex')}`;
  private readonly jobs = new Map<string, Job>();
  private readonly abort = new AbortController();
  private stopped = false;

  constructor(private readonly db: Db, private readonly logger: FastifyBaseLogger) {}

  every(name: string, intervalMs: number, work: JobWork): void {
    if (this.jobs.has(name)) throw new Error(`job ${name} is registered twice`);
    if (this.stopped) return;
    const job: Job = { name, intervalMs, work, timer: null, running: null, hasLeaseRow: false };
    this.jobs.set(name, job);
    // A short random first delay spreads instances that start together.
    this.schedule(job, Math.floor(Math.random() * Math.min(intervalMs, 1000)));
  }

  /** Stops scheduling, signals running work to stop, and waits for it at most `timeoutMs`. */
  async stop(timeoutMs: number): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.abort.abort();
    const running: Array<Promise<void>> = [];
    for (const job of this.jobs.values()) {
      if (job.timer) clearTimeout(job.timer);
      if (job.running) running.push(job.running);
    }
    if (running.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.allSettled(running), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
    clearTimeout(timer);
  }

  private schedule(job: Job, delayMs: number): void {
    if (this.stopped) return;
    job.timer = setTimeout(() => {
      job.timer = null;
      job.running = this.tick(job).finally(() => {
        job.running = null;
        // Polling a few times per interval (at least every 5 s) keeps the cluster's
        // cadence close to the interval whichever instance wins, and picks up a
        // handed-back run soon, at one cheap UPDATE per poll.
        this.schedule(job, Math.max(25, Math.min(5000, Math.floor(job.intervalMs / 4))));
      });
    }, delayMs);
    job.timer.unref();
  }

  private async tick(job: Job): Promise<void> {
    let claimed = false;
    try {
      if (!job.hasLeaseRow) {
        await ensureJobLease(this.db, job.name);
        job.hasLeaseRow = true;
      }
      claimed = await claimJobLease(this.db, job.name, this.instanceId, new Date(), job.intervalMs, runLeaseMs);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error, job: job.name }, 'could not claim job lease');
      return;
    }
    if (!claimed) return;
    const keepAlive = setInterval(() => {
      extendJobLease(this.db, job.name, this.instanceId, new Date(Date.now() + runLeaseMs)).catch((error: unknown) =>
        this.logger.warn({ err: error, job: job.name }, 'could not extend job lease'),
      );
    }, runLeaseMs / 3);
    keepAlive.unref();
    try {
      await job.work(this.abort.signal);
    } catch (error) {
      if (!this.stopped) this.logger.error({ err: error, job: job.name }, 'job run failed');
    } finally {
      clearInterval(keepAlive);
    }
    try {
      // Cut short by shutdown (or failed during it): hand the lease back so another instance runs it now.
      await finishJobLease(this.db, job.name, this.instanceId, new Date(), this.stopped);
    } catch (error) {
      if (!this.stopped) this.logger.warn({ err: error, job: job.name }, 'could not record job run');
    }
  }
}
