import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { validateModelSetting } from '../src/projects/model-setting.js';
import { bootstrap } from '../src/provisioning/bootstrap.js';
import { runLoad, type LoadOutcome } from './load-client.js';

/**
 * `npm run bench -- platform`: in one run, a bare Fastify hello-world and
 * Parley (SQLite, LOG_LEVEL=warn), each in its own process, driven by
 * autocannon from a third process. Prints throughput, p99 and the ratios
 * against hello-world. BENCH_DURATION seconds per target and round (default
 * 10), BENCH_ROUNDS interleaved rounds (default 3), BENCH_CONNECTIONS (50).
 */
const duration = Number(process.env['BENCH_DURATION'] ?? 10);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const connections = Number(process.env['BENCH_CONNECTIONS'] ?? 50);
const logLevel = 'warn';

interface Load extends LoadOutcome {
  /** Server CPU time (user + system) per request, in microseconds. */
  cpuMicrosPerRequest: number;
}

function startChild(script: string, env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...pick(process.env, ['PATH', 'HOME']), ...env }, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    const lines = createInterface({ input: child.stdout! });
    lines.once('line', (line) => resolve({ child, url: (JSON.parse(line) as { url: string }).url }));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code}`)));
  });
}

function pick(env: NodeJS.ProcessEnv, names: string[]): Record<string, string> {
  return Object.fromEntries(names.filter((name) => env[name] !== undefined).map((name) => [name, env[name] as string]));
}

function load(job: { url: string; method: 'GET' | 'POST'; headers?: Record<string, string>; body?: string }, seconds: number): Promise<LoadOutcome> {
  return runLoad({ headers: {}, ...job, connections, duration: seconds });
}

function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve((message as { cpuMicros: number }).cpuMicros));
    child.send('cpu');
  });
}

async function measure(name: string, server: ChildProcess, job: Parameters<typeof load>[0]): Promise<Load> {
  const cpuBefore = await serverCpu(server);
  const loaded = await load(job, duration);
  const result = { ...loaded, cpuMicrosPerRequest: ((await serverCpu(server)) - cpuBefore) / Math.max(1, loaded.total) };
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  process.stderr.write(`${name}: ${Math.round(result.requestsPerSecond)} req/s, p99 ${result.p99} ms, ${result.cpuMicrosPerRequest.toFixed(1)} µs server CPU per request\n`);
  return result;
}

const loadBefore = loadavg().map((value) => value.toFixed(1)).join(' / ');
const dir = mkdtempSync(join(tmpdir(), 'parley-bench-'));
const databaseUrl = `sqlite:${join(dir, 'parley.db')}`;
const database = openDatabase(databaseUrl);
await migrateToLatest(database);
const tenant = await bootstrap(database.db, { userTokenTtlSeconds: 3600 }, validateModelSetting);
await database.close();

const children: ChildProcess[] = [];
try {
  const hello = await startChild('bench/hello-server.ts', {});
  children.push(hello.child);
  const parley = await startChild('bench/parley-server.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: logLevel, PARLEY_RATE_LIMITS_ENABLED: 'false' });
  children.push(parley.child);
  const auth = { authorization: `Bearer ${tenant.sdkKey}` };
  const targets = [
    { name: 'hello-world GET /', goal: '-', server: hello.child, job: { url: `${hello.url}/`, method: 'GET' as const } },
    { name: 'GET /agent/personalization', goal: '≥ 60%', server: parley.child, job: { url: `${parley.url}/api/v1/agent/personalization`, method: 'GET' as const, headers: auth } },
    {
      name: 'POST /agent/session',
      goal: '≥ 30%',
      server: parley.child,
      job: { url: `${parley.url}/api/v1/agent/session`, method: 'POST' as const, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ userId: 'bench-user', deviceInfo: { os: 'bench' } }) },
    },
  ];
  // BENCH_HEALTH=1 adds Parley's unauthenticated GET /health: the framework's own share of a request.
  if (process.env['BENCH_HEALTH'] === '1') targets.splice(1, 0, { name: 'GET /health (diagnostic)', goal: '-', server: parley.child, job: { url: `${parley.url}/api/v1/health`, method: 'GET' as const } });
  // Warm-up once (JIT, caches, SQLite pages), then interleaved rounds, so a
  // neighbour's load on a shared machine hits every target alike.
  for (const target of targets) await load(target.job, Math.min(3, duration)); // not measured
  const results: Load[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [index, target] of targets.entries()) results[index]!.push(await measure(`round ${round + 1} ${target.name}`, target.server, target.job));
  }

  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const helloRuns = results[0]!;
  const row = (index: number) => {
    const runs = results[index]!;
    const ratios = runs.map((run, round) => run.requestsPerSecond / helloRuns[round]!.requestsPerSecond);
    const target = targets[index]!;
    const cpu = median(runs.map((run) => run.cpuMicrosPerRequest));
    const helloCpu = median(helloRuns.map((run) => run.cpuMicrosPerRequest));
    return `| ${target.name} | ${Math.round(median(runs.map((run) => run.requestsPerSecond)))} | ${median(runs.map((run) => run.p50))} | ${median(runs.map((run) => run.p99))} | ${index === 0 ? '100%' : `${(median(ratios) * 100).toFixed(1)}% (rounds: ${ratios.map((r) => `${(r * 100).toFixed(0)}%`).join(', ')})`} | ${cpu.toFixed(1)} | ${index === 0 ? '100%' : `${((helloCpu / cpu) * 100).toFixed(1)}%`} | ${target.goal} |`;
  };
  const cpu = cpus();
  process.stdout.write(
    [
      `Node ${process.version}, ${cpu.length} × ${cpu[0]?.model ?? 'cpu'}, load average before the run ${loadBefore}, ${connections} connections, ${rounds} interleaved rounds of ${duration}s per target, medians; Parley on SQLite with LOG_LEVEL=${logLevel}`,
      '',
      '| target | req/s | p50 ms | p99 ms | req/s vs hello-world (per-round ratios) | server CPU µs/request | CPU capacity vs hello-world | goal |',
      '|---|---|---|---|---|---|---|---|',
      ...targets.map((_, index) => row(index)),
      '',
    ].join('\n'),
  );
} finally {
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}
