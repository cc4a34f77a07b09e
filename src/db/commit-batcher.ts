import type { Db } from './database.js';

type Work = (trx: Db) => Promise<void>;

interface Pending {
  work: Work;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for independent transactional writes (the rows of an agent turn):
 * writes submitted in the same event-loop turn run one after another inside ONE
 * transaction, so the database pays one commit (one WAL append on SQLite) for
 * the lot. Each caller's promise settles only after that commit, so nothing is
 * reported stored before it is. When the shared transaction fails, it is rolled
 * back whole and each write is retried in a transaction of its own, so one bad
 * write fails only its own caller. Writes must not depend on each other.
 */
export class CommitBatcher {
  private queue: Pending[] = [];
  private scheduled = false;

  constructor(private readonly db: Db, private readonly maxBatch = 100) {}

  run(work: Work): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ work, resolve, reject });
      if (this.queue.length >= this.maxBatch) {
        void this.flush();
      } else if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    if (batch.length === 1) {
      await this.alone(batch[0]!);
      return;
    }
    try {
      await this.db.transaction().execute(async (trx) => {
        for (const item of batch) await item.work(trx);
      });
    } catch {
      for (const item of batch) await this.alone(item);
      return;
    }
    for (const item of batch) item.resolve();
  }

  private async alone(item: Pending): Promise<void> {
    await this.db.transaction().execute(item.work).then(item.resolve, item.reject);
  }
}

const batchers = new WeakMap<Db, CommitBatcher>();

/** The commit batcher of one database (created on first use). */
export function commitBatcherFor(db: Db): CommitBatcher {
  let batcher = batchers.get(db);
  if (!batcher) {
    batcher = new CommitBatcher(db);
    batchers.set(db, batcher);
  }
  return batcher;
}
