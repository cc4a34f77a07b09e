import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { bootstrap, type BootstrapResult } from '../../src/provisioning/bootstrap.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { ApiClient } from './api-client.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A free TCP port on loopback (picked by the OS, then released for the server to take). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  anonymous: ApiClient;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** Everything written to stdout and stderr so far (for failure messages). */
  output(): string;
  /** SIGTERM (or another signal) and the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * A real `parley serve` process, as an operator would run it: its own port,
 * the given database and optional Redis, settings from the environment.
 */
export async function spawnServer(settings: { databaseUrl: string; redisUrl?: string; env?: Record<string, string> }): Promise<ServerProcess> {
  const port = await freePort();
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith('PARLEY_') && name !== 'REDIS_URL') env[name] = value;
  }
  Object.assign(env, { PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: settings.databaseUrl, LOG_LEVEL: 'warn' }, settings.redisUrl ? { REDIS_URL: settings.redisUrl } : {}, settings.env);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/entry.ts', 'serve'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const anonymous = new ApiClient(url);
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (ended) throw new Error(`server exited before it was ready:\n${output}`);
    try {
      if ((await anonymous.get('/health')).status === 200) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    child,
    anonymous,
    exited,
    output: () => output,
    stop: async (signal = 'SIGTERM') => {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}

/** Provisions a tenant straight into the database the processes share (like `parley bootstrap`). */
export async function bootstrapInto(databaseUrl: string, model: { model?: string; modelBaseUrl?: string } = {}): Promise<BootstrapResult> {
  const database = openDatabase(databaseUrl, { poolSize: 1 });
  try {
    await migrateToLatest(database);
    return await bootstrap(database.db, { userTokenTtlSeconds: 3600, ...model }, validateModelSetting);
  } finally {
    await database.close();
  }
}
