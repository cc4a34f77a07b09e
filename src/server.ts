import type { Logger } from 'pino';
import { buildApp } from './app.js';
import type { Config } from './config/config.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrate.js';
import { createEventBus } from './events/create-event-bus.js';
import { demoModelNotice } from './models/model-notice.js';

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Opens the store, applies migrations, builds the app and listens. */
export async function startServer(config: Config, logger: Logger): Promise<RunningServer> {
  const database = openDatabase(config.databaseUrl, { backgroundCheckpoints: true });
  const applied = await migrateToLatest(database);
  if (applied.length > 0) logger.info({ migrations: applied }, 'applied migrations');
  const bus = await createEventBus(config.redisUrl, { prefix: config.redisPrefix, logger });
  const app = await buildApp({ config, database, bus, logger });
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  logger.info({ url, database: database.dialect, events: config.redisUrl ? 'redis' : 'in-process' }, `Parley listening on ${url}`);
  const notice = await demoModelNotice(database.db, config);
  if (notice) logger.info(notice);

  let closing: Promise<void> | null = null;
  return {
    url,
    /**
     * Graceful: /ready turns 503 at once; after the drain delay the listener
     * stops, subscription streams end, jobs stop, in-flight requests finish
     * (bounded by PARLEY_SHUTDOWN_TIMEOUT_MS); then the bus and the pool close.
     */
    close: () => {
      closing ??= (async () => {
        app.parley.lifecycle.beginShutdown();
        if (config.shutdownDrainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainDelayMs));
        await app.close();
        await bus.close();
        await database.close();
        logger.info('shut down cleanly');
      })();
      return closing;
    },
  };
}
