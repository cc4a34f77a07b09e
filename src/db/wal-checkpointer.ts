import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/*
 * SQLite in WAL mode appends commits to the -wal file and, every 1000 pages by default,
 * copies them back into the database file (a checkpoint, with an fsync) inside whichever
 * commit crossed the threshold — on the server's one thread, where it cost more than all
 * the statements of an agent turn together (measured: bench/agent.ts (a), decision 0006).
 * This runs those checkpoints on a worker thread with its own connection instead:
 * PASSIVE checkpoints never wait for, or block, the server's readers and writers, and once
 * a checkpoint has caught up the next commit starts the -wal file over, so it stays small.
 * The server's connection keeps automatic checkpoints at a higher threshold as a backstop,
 * and returns to the default if the worker fails.
 */

const require = createRequire(import.meta.url);

/** Runs in the worker (CommonJS, evaluated): a checkpoint every `intervalMs`, until told to stop. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message || error) });
  }
}, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

/** Pages in the -wal file past which the server's own connection checkpoints anyway. */
export const backstopCheckpointPages = 10_000;
const defaultCheckpointPages = 1000;

export interface WalCheckpointer {
  stop(): Promise<void>;
}

/**
 * Starts background checkpoints for the database file at `path`. `setAutoCheckpoint`
 * sets the server connection's own threshold (PRAGMA wal_autocheckpoint).
 */
export function startWalCheckpointer(path: string, setAutoCheckpoint: (pages: number) => void, intervalMs = 100): WalCheckpointer {
  const worker = new Worker(workerSource, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), path, intervalMs } });
  // Never keeps the process alive by itself; the database's close stops it.
  worker.unref();
  setAutoCheckpoint(backstopCheckpointPages);
  let failed = false;
  const fallBack = () => {
    if (failed) return;
    failed = true;
    setAutoCheckpoint(defaultCheckpointPages);
  };
  let stopped: (() => void) | null = null;
  worker.on('error', fallBack);
  worker.on('message', (message: { failed?: string; stopped?: boolean }) => {
    if (message.failed !== undefined) fallBack();
    if (message.stopped) stopped?.();
  });
  let stopping: Promise<void> | null = null;
  return {
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        const end = () => void worker.terminate().then(() => resolve(), () => resolve());
        stopped = end;
        worker.once('exit', () => resolve());
        worker.postMessage('stop');
        // A worker that cannot answer (it failed) is ended anyway.
        setTimeout(end, 2000).unref();
      });
      return stopping;
    },
  };
}
