/**
 * Server side of bench/escalation.ts, run as a child process so that its
 * memory is measured alone: `parley` (the real app on SQLite) or `bare` (a
 * minimal Node SSE server holding the same connections, the baseline).
 */
import { createServer } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { configWith } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { InProcessEventBus } from '../src/events/in-process-event-bus.js';
import { validateModelSetting } from '../src/projects/model-setting.js';
import { bootstrap } from '../src/provisioning/bootstrap.js';

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const send = (message: unknown) => process.send?.(message);

async function startParley(): Promise<() => Promise<void>> {
  // Rate limits off: the benchmark measures capacity, not the limiter (see BENCHMARKS.md).
  const config = configWith({ rateLimits: { ...configWith({}).rateLimits, enabled: false }, logLevel: 'silent', port: 0, databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'parley-bench-')), 'bench.db')}`, webhookDeliveryEnabled: false });
  const database = openDatabase(config.databaseUrl);
  await migrateToLatest(database);
  const bus = new InProcessEventBus();
  const app = await buildApp({ config, database, bus, logger: pino({ level: 'silent' }) });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const tenant = await bootstrap(database.db, { userTokenTtlSeconds: 3600 }, validateModelSetting);
  send({ ready: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, tenant });
  return async () => {
    await app.close();
    await database.close();
  };
}

async function startBare(): Promise<() => Promise<void>> {
  const server = createServer((request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    response.write('data: {"type":"status","status":"pending"}\n\n');
    const ping = setInterval(() => response.write(': ping\n\n'), 15_000);
    request.on('close', () => clearInterval(ping));
  });
  server.maxConnections = 100_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  send({ ready: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
  return async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  };
}

const stop = await (process.argv[2] === 'bare' ? startBare() : startParley());
process.on('message', async (message) => {
  if (message === 'memory') {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 200));
    gc();
    send({ memory: process.memoryUsage() });
  } else if (message === 'stop') {
    await stop();
    process.exit(0);
  }
});
