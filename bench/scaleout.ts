/**
 * Scale-out benchmark (issue 5): throughput of POST /agent/message (demo model,
 * which answers instantly) and of the escalation poll with one vs two
 * instances on PostgreSQL + Redis, and the operator-reply → end-user frame
 * latency on one instance vs across two. Real `parley serve` processes.
 *
 *   PARLEY_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
 *   PARLEY_BENCH_REDIS_URL=redis://127.0.0.1:6379 node --import tsx bench/scaleout.ts
 *
 * Prints a Markdown section for BENCHMARKS.md. Runs in a schema of its own, dropped at the end.
 */
import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import pg from 'pg';
import { ApiClient } from '../test/support/api-client.js';
import { bootstrapInto, spawnServer, type ServerProcess } from '../test/support/server-process.js';
import { SseReader } from '../test/support/sse-reader.js';

const baseUrl = process.env['PARLEY_BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env['PARLEY_BENCH_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const durationMs = Number(process.env['PARLEY_BENCH_DURATION_MS'] ?? 5000);
const concurrency = Number(process.env['PARLEY_BENCH_CONCURRENCY'] ?? 16);
const latencySamples = Number(process.env['PARLEY_BENCH_LATENCY_SAMPLES'] ?? 200);

interface Throughput {
  requests: number;
  errors: number;
  perSecond: number;
  p50: number;
  p99: number;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** `concurrency` closed-loop clients spread round-robin over the instances for `durationMs`. */
async function measure(clients: ApiClient[], call: (client: ApiClient, i: number) => Promise<number>): Promise<Throughput> {
  const latencies: number[] = [];
  let errors = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      let i = 0;
      while (Date.now() - started < durationMs) {
        const client = clients[(worker + i) % clients.length]!;
        const t0 = performance.now();
        const status = await call(client, i++).catch(() => 0);
        latencies.push(performance.now() - t0);
        if (status < 200 || status >= 300) errors++;
      }
    }),
  );
  const elapsed = (Date.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { requests: latencies.length, errors, perSecond: latencies.length / elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

/** Operator reply posted on `replyOn`, frame read on a stream held by `streamOn`: ms per reply. */
async function replyLatency(streamOn: ServerProcess, replyOn: ServerProcess, sdkKey: string, operatorKey: string): Promise<number[]> {
  const sdk = new ApiClient(streamOn.url, { authorization: `Bearer ${sdkKey}` });
  const operator = new ApiClient(replyOn.url, { authorization: `Bearer ${operatorKey}` });
  const started = await sdk.post('/agent/escalation', { reason: 'user_requested' });
  const escalationId = started.body.data.escalationId as string;
  const opened = await SseReader.open(sdk.url(`/agent/escalation/${escalationId}/stream`), sdk.headers);
  const stream = opened.stream!;
  await stream.next(); // status
  const samples: number[] = [];
  for (let i = 0; i < latencySamples; i++) {
    const t0 = performance.now();
    const reply = await operator.post(`/escalations/${escalationId}/message`, { content: `reply ${i}`, operatorName: 'Bench' });
    if (reply.status >= 300) throw new Error(`operator reply answered ${reply.status}`);
    for (;;) {
      const frame = await stream.next(5000);
      if (frame.data.type === 'human-message') break;
    }
    samples.push(performance.now() - t0);
  }
  stream.close();
  return samples.sort((a, b) => a - b);
}

async function main(): Promise<void> {
  const schema = `parley_bench_${randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create schema "${schema}"`);
  const databaseUrl = new URL(baseUrl);
  databaseUrl.searchParams.set('options', `-c search_path=${schema}`);
  const prefix = `parley-bench-${randomBytes(3).toString('hex')}:`;
  const env = { PARLEY_REDIS_PREFIX: prefix, PARLEY_RATE_LIMITS_ENABLED: 'false', LOG_LEVEL: 'error' };
  const servers: ServerProcess[] = [];
  try {
    const [a, b] = await Promise.all([spawnServer({ databaseUrl: databaseUrl.toString(), redisUrl, env }), spawnServer({ databaseUrl: databaseUrl.toString(), redisUrl, env })]);
    servers.push(a!, b!);
    const tenant = await bootstrapInto(databaseUrl.toString());
    const sdk = (server: ServerProcess) => new ApiClient(server.url, { authorization: `Bearer ${tenant.sdkKey}` });
    const escalation = (await sdk(a!).post('/agent/escalation', { reason: 'user_requested' })).body.data.escalationId as string;
    await new ApiClient(a!.url, { authorization: `Bearer ${tenant.operatorKey}` }).post(`/escalations/${escalation}/message`, { content: 'hello', operatorName: 'Bench' });

    const message = (client: ApiClient) => client.post('/agent/message', { content: 'hello there' }).then((r) => r.status);
    const poll = (client: ApiClient) => client.get(`/agent/escalation/${escalation}`).then((r) => r.status);
    const rows: string[] = [];
    for (const [label, call] of [['POST /agent/message', message], ['GET /agent/escalation/:id (poll)', poll]] as const) {
      const one = await measure([sdk(a!)], call);
      const two = await measure([sdk(a!), sdk(b!)], call);
      rows.push(`| ${label} | 1 | ${one.perSecond.toFixed(0)} | ${one.p50.toFixed(1)} | ${one.p99.toFixed(1)} | ${one.errors} |`);
      rows.push(`| ${label} | 2 | ${two.perSecond.toFixed(0)} | ${two.p50.toFixed(1)} | ${two.p99.toFixed(1)} | ${two.errors} |`);
    }
    const single = await replyLatency(a!, a!, tenant.sdkKey, tenant.operatorKey);
    const cross = await replyLatency(b!, a!, tenant.sdkKey, tenant.operatorKey);

    const out = [
      `Machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; PostgreSQL and Redis on the same machine;`,
      `${concurrency} closed-loop clients for ${durationMs / 1000} s per row, round-robin over the instances; the load generator runs on the same machine.`,
      '',
      '| route | instances | req/s | p50 ms | p99 ms | errors |',
      '|---|---|---|---|---|---|',
      ...rows,
      '',
      `Operator reply (POST on instance A) → end-user \`human-message\` frame, ${latencySamples} replies, one at a time:`,
      '',
      '| stream held by | p50 ms | p99 ms |',
      '|---|---|---|',
      `| same instance (A) | ${percentile(single, 50).toFixed(1)} | ${percentile(single, 99).toFixed(1)} |`,
      `| other instance (B, through Redis) | ${percentile(cross, 50).toFixed(1)} | ${percentile(cross, 99).toFixed(1)} |`,
    ];
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    await Promise.all(servers.map((server) => server.stop('SIGTERM')));
    await admin.query(`drop schema if exists "${schema}" cascade`);
    await admin.end();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exitCode = 1;
});
