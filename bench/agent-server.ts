/**
 * One server for bench/agent.ts, run in its own process so the load generator does
 * not share its event loop. argv[2] picks it:
 *   hello            bare Fastify hello-world
 *   relay <url>      minimal Fastify route relaying one fetch to <url>/chat/completions
 *   pipe <url>       bare node:http server piping <url>/chat/completions' stream through, bytes untouched
 *   parley [model] [baseUrl]  the real app on a fresh SQLite file, one provisioned project
 * Prints one JSON line { url, sdkKey? } on stdout when listening; answers "rss" and "cpu" on stdin
 * with its memory and CPU time so far, and exits on "exit".
 */
import { mkdtempSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.js';
import { configWith } from '../src/config/config.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { InProcessEventBus } from '../src/events/in-process-event-bus.js';
import { validateModelSetting } from '../src/projects/model-setting.js';
import { bootstrap } from '../src/provisioning/bootstrap.js';

const [kind = 'hello', modelArg, baseUrl] = process.argv.slice(2);

async function start(): Promise<{ url: string; sdkKey?: string }> {
  if (kind === 'hello') {
    const app = Fastify();
    app.post('/hello', async () => ({ hello: 'world' }));
    app.get('/hello', async () => ({ hello: 'world' }));
    return { url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  }
  if (kind === 'relay') {
    const app = Fastify();
    app.post('/relay', async (request) => {
      const response = await fetch(`${modelArg}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'fake', messages: [{ role: 'user', content: (request.body as { content: string }).content }] }),
      });
      return response.json();
    });
    return { url: await app.listen({ port: 0, host: '127.0.0.1' }) };
  }
  if (kind === 'pipe') {
    // The floor for any streaming relay: one more process and network hop, no parsing at all.
    const target = new URL(`${modelArg}/chat/completions`);
    const server = createServer((req, res) => {
      const upstream = httpRequest(target, { method: 'POST', headers: { 'content-type': 'application/json' } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, { 'content-type': answer.headers['content-type'] ?? 'text/event-stream' });
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }
  // Rate limits off: the benchmark measures capacity, not the limiter (see BENCHMARKS.md).
  const config = configWith({ rateLimits: { ...configWith({}).rateLimits, enabled: false }, logLevel: 'silent', port: 0, databaseUrl: `sqlite:${join(mkdtempSync(join(tmpdir(), 'parley-bench-')), 'parley.db')}`, modelTimeoutMs: 600_000, ssePingIntervalMs: 15_000 });
  // As server.ts opens it.
  const database = openDatabase(config.databaseUrl, { backgroundCheckpoints: true });
  await migrateToLatest(database);
  const app = await buildApp({ config, database, bus: new InProcessEventBus(), logger: pino({ level: 'silent' }) });
  const tenant = await bootstrap(database.db, { model: modelArg ?? 'demo:parley-demo', modelBaseUrl: baseUrl, userTokenTtlSeconds: 3600 }, validateModelSetting);
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, sdkKey: tenant.sdkKey };
}

const info = await start();
process.stdout.write(`${JSON.stringify(info)}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (line: string) => {
  if (line.trim() === 'exit') process.exit(0);
  if (line.trim() === 'cpu') {
    const { user, system } = process.cpuUsage();
    process.stdout.write(`${JSON.stringify({ cpuMs: (user + system) / 1000 })}\n`);
  }
  if (line.trim() === 'rss') {
    globalThis.gc?.();
    process.stdout.write(`${JSON.stringify({ rss: process.memoryUsage().rss, heapUsed: process.memoryUsage().heapUsed })}\n`);
  }
});
