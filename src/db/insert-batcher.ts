import type { Db } from './database.js';

interface Pending<T> {
  row: T;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for hot single-row inserts (session creation): rows arriving in
 * the same event-loop turn are written as one multi-row INSERT in one
 * transaction, so SQLite pays one commit for the lot instead of one each. When
 * the batch fails, each row is retried alone, so one bad row fails only its own
 * request. Inside a caller's transaction there is no batching: the row must be
 * part of that transaction.
 */
export class InsertBatcher<T> {
  private queue: Array<Pending<T>> = [];
  private scheduled = false;

  constructor(
    private readonly db: Db,
    private readonly insertRows: (db: Db, rows: T[]) => Promise<void>,
    private readonly maxBatch = 200,
  ) {}

  add(row: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ row, resolve, reject });
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
    try {
      if (batch.length === 1) await this.insertRows(this.db, [batch[0]!.row]);
      else await this.db.transaction().execute((trx) => this.insertRows(trx, batch.map((item) => item.row)));
      for (const item of batch) item.resolve();
    } catch (error) {
      if (batch.length === 1) {
        batch[0]!.reject(error);
        return;
      }
      for (const item of batch) {
        await this.insertRows(this.db, [item.row]).then(item.resolve, item.reject);
      }
    }
  }
}

const batchers = new WeakMap<Db, Map<string, InsertBatcher<unknown>>>();

/** The batcher of one table on one database (created on first use). */
export function insertBatcherFor<T>(db: Db, name: string, insertRows: (db: Db, rows: T[]) => Promise<void>): InsertBatcher<T> {
  let byName = batchers.get(db);
  if (!byName) {
    byName = new Map();
    batchers.set(db, byName);
  }
  let batcher = byName.get(name) as InsertBatcher<T> | undefined;
  if (!batcher) {
    batcher = new InsertBatcher<T>(db, insertRows);
    byName.set(name, batcher as InsertBatcher<unknown>);
  }
  return batcher;
}
