/**
 * Agent benchmarks (issue 3, "Performance"), each beside its baseline in one run:
 *   (a) POST /agent/message with the in-process demo model vs a bare Fastify hello-world
 *   (b) POST /agent/message through the fake OpenAI-compatible upstream vs a minimal relay route
 *   (c) streaming: upstream chunk sent → client text-delta received, vs reading the upstream directly
 *   (d) server memory with 1,000 concurrent open streams
 * Run: node --import tsx bench/agent.ts   (BENCH_SECONDS, BENCH_ROUNDS, BENCH_CONCURRENCY, BENCH_STREAMS, BENCH_LOADER to change)
 * Servers and upstreams run in child processes; this process only generates load and measures.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, Agent } from 'node:http';
import { cpus, totalmem } from 'node:os';
import { streamReply } from '../src/models/model-call.js';
import { resolveLanguageModel } from '../src/models/model-registry.js';
import { runLoad, type LoadOutcome } from './load-client.js';
import { createInterface } from 'node:readline';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 32);
const openStreams = Number(process.env['BENCH_STREAMS'] ?? 1000);

interface Child {
  process: ChildProcess;
  info: { url: string; sdkKey?: string };
  ask(line: string): Promise<Record<string, number>>;
  stop(): void;
}

async function startChild(script: string, args: string[], extraNodeArgs: string[] = []): Promise<Child> {
  const child = spawn(process.execPath, [...extraNodeArgs, '--import', 'tsx', script, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout! });
  const queue: Array<(line: string) => void> = [];
  lines.on('line', (line) => queue.shift()?.(line));
  const next = () => new Promise<string>((resolve) => queue.push(resolve));
  const info = JSON.parse(await next()) as Child['info'];
  return {
    process: child,
    info,
    ask: async (line) => {
      const answer = next();
      child.stdin!.write(`${line}\n`);
      return JSON.parse(await answer) as Record<string, number>;
    },
    stop: () => child.kill('SIGKILL'),
  };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * BENCH_LOADER=autocannon drives (a) and (b) with autocannon in its own process (bench/load.ts,
 * as the platform benchmark does) instead of this process's Node http client. autocannon
 * sends requests faster, so the baselines reach higher throughput and every ratio is harsher.
 */
const loader = process.env['BENCH_LOADER'] === 'autocannon' ? 'autocannon' : 'node-http';

function autocannon(url: string, body: string, headers: Record<string, string>, durationSeconds: number): Promise<LoadOutcome> {
  return runLoad({ url, method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body, connections: concurrency, duration: durationSeconds });
}

async function loadWithAutocannon(server: Child, url: string, body: string, headers: Record<string, string>): Promise<LoadResult> {
  await autocannon(url, body, headers, 1);
  const cpuBefore = (await server.ask('cpu'))['cpuMs']!;
  const result = await autocannon(url, body, headers, seconds);
  const cpuAfter = (await server.ask('cpu'))['cpuMs']!;
  return { rps: result.requestsPerSecond, p50: result.p50, p99: result.p99, errors: result.non2xx + result.errors, cpuMsPerRequest: (cpuAfter - cpuBefore) / Math.max(1, result.total) };
}

/** Closed-loop load: `concurrency` keep-alive connections, each sending the next request when the last answers. */
async function load(server: Child, url: string, body: string, headers: Record<string, string>): Promise<LoadResult> {
  if (loader === 'autocannon') return loadWithAutocannon(server, url, body, headers);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(url);
  const send = () =>
    new Promise<number>((resolve) => {
      const req = httpRequest(
        { agent, method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers } },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', () => resolve(0));
      req.end(body);
    });
  const run = async (durationMs: number, record: boolean) => {
    const latencies: number[] = [];
    let errors = 0;
    const end = performance.now() + durationMs;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (performance.now() < end) {
          const started = performance.now();
          const status = await send();
          if (record) latencies.push(performance.now() - started);
          if (status !== 200) errors++;
        }
      }),
    );
    return { latencies, errors };
  };
  await run(1000, false);
  const cpuBefore = (await server.ask('cpu'))['cpuMs']!;
  const { latencies, errors } = await run(seconds * 1000, true);
  const cpuAfter = (await server.ask('cpu'))['cpuMs']!;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return { rps: latencies.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99), errors, cpuMsPerRequest: (cpuAfter - cpuBefore) / Math.max(1, latencies.length) };
}

interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Server CPU time (user + system) per request: what the server itself spends. */
  cpuMsPerRequest: number;
}

const fmt = (r: LoadResult) => `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, server CPU ${r.cpuMsPerRequest.toFixed(3)} ms/req${r.errors ? `, ${r.errors} errors` : ''}`;
const auth = (child: Child) => ({ authorization: `Bearer ${child.info.sdkKey}` });
const messageBody = JSON.stringify({ content: 'hello there', context: { currentScreen: 'home' } });

const rounds = Number(process.env['BENCH_ROUNDS'] ?? 3);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Target {
  child: Child;
  url: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * Baseline and subject in alternating rounds, both servers up the whole time (the idle
 * one costs nothing), so a neighbour's load on a shared machine hits both alike; the
 * ratio reported is the median of the per-round ratios.
 */
async function compare(label: string, baselineName: string, baseline: Target, subjectName: string, subject: Target, goalPercent: number): Promise<void> {
  const results: Array<{ base: LoadResult; subject: LoadResult }> = [];
  for (let round = 1; round <= rounds; round++) {
    const base = await load(baseline.child, baseline.url, baseline.body, baseline.headers);
    const measured = await load(subject.child, subject.url, subject.body, subject.headers);
    results.push({ base, subject: measured });
    console.log(`${label} round ${round}: ${baselineName} ${fmt(base)} | ${subjectName} ${fmt(measured)} → ${((100 * measured.rps) / base.rps).toFixed(1)}%`);
  }
  const ratios = results.map((r) => r.subject.rps / r.base.rps);
  const pick = (select: (r: { base: LoadResult; subject: LoadResult }) => number) => median(results.map(select));
  console.log(
    `${label} median of ${rounds} rounds: ${baselineName} ${pick((r) => r.base.rps).toFixed(0)} req/s (${pick((r) => r.base.cpuMsPerRequest).toFixed(3)} ms CPU/req); ` +
      `${subjectName} ${pick((r) => r.subject.rps).toFixed(0)} req/s, p50 ${pick((r) => r.subject.p50).toFixed(2)} ms, p99 ${pick((r) => r.subject.p99).toFixed(2)} ms (${pick((r) => r.subject.cpuMsPerRequest).toFixed(3)} ms CPU/req) ` +
      `→ ${(100 * median(ratios)).toFixed(1)}% (rounds: ${ratios.map((r) => `${(100 * r).toFixed(0)}%`).join(', ')}; target ≥ ${goalPercent}%)`,
  );
}

async function benchA(): Promise<void> {
  const hello = await startChild('bench/agent-server.ts', ['hello']);
  const parley = await startChild('bench/agent-server.ts', ['parley', 'demo:parley-demo']);
  await compare(
    '(a)',
    'hello-world',
    { child: hello, url: `${hello.info.url}/hello`, body: '{}', headers: {} },
    'POST /agent/message (demo model in process)',
    { child: parley, url: `${parley.info.url}/api/v1/agent/message`, body: messageBody, headers: auth(parley) },
    20,
  );
  hello.stop();
  parley.stop();
}

async function benchB(): Promise<void> {
  const upstream = await startChild('bench/agent-upstream.ts', ['answer']);
  const relay = await startChild('bench/agent-server.ts', ['relay', upstream.info.url]);
  const parley = await startChild('bench/agent-server.ts', ['parley', 'openai-compatible:fake', upstream.info.url]);
  await compare(
    '(b)',
    'minimal relay',
    { child: relay, url: `${relay.info.url}/relay`, body: messageBody, headers: {} },
    'POST /agent/message via fake upstream',
    { child: parley, url: `${parley.info.url}/api/v1/agent/message`, body: messageBody, headers: auth(parley) },
    60,
  );
  relay.stop();
  parley.stop();
  upstream.stop();
}

/** Reads an SSE body, calling onData with each frame's data as it arrives. */
async function readFrames(response: Response, onData: (data: string, at: bigint) => void): Promise<void> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    const at = process.hrtime.bigint();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      for (const line of block.split('\n')) if (line.startsWith('data: ')) onData(line.slice(6), at);
    }
  }
}

/**
 * (c) The upstream runs in its own process, as a real one would, and stamps each chunk with
 * the machine's monotonic clock; the bench process reads the stream directly and through
 * Parley (a third process) and compares arrival times with the stamps.
 */
async function benchC(): Promise<void> {
  const upstream = await startChild('bench/agent-upstream.ts', ['timed']);
  const direct: number[] = [];
  const viaPipe: number[] = [];
  const viaSdk: number[] = [];
  const viaParley: number[] = [];
  // For context: the same upstream read through the AI SDK provider Parley uses, in this process.
  const { model } = resolveLanguageModel({ provider: 'openai-compatible', model: 'fake', baseUrl: upstream.info.url }, {});
  const collect = (into: number[]) => (text: string, at: bigint) => {
    for (const stamp of text.match(/t\d+/g) ?? []) into.push(Number(at / 1000n - BigInt(stamp.slice(1))) / 1000);
  };
  const parley = await startChild('bench/agent-server.ts', ['parley', 'openai-compatible:fake', upstream.info.url]);
  const pipe = await startChild('bench/agent-server.ts', ['pipe', upstream.info.url]);
  const readUpstreamFrames = (into: number[]) => (data: string, at: bigint) => {
    if (data !== '[DONE]') collect(into)((JSON.parse(data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content ?? '', at);
  };
  for (let round = 0; round < 8; round++) {
    await readFrames(await fetch(`${upstream.info.url}/chat/completions`, { method: 'POST', body: '{"stream":true}' }), readUpstreamFrames(direct));
    await readFrames(await fetch(pipe.info.url, { method: 'POST', body: '{"stream":true}' }), readUpstreamFrames(viaPipe));
    await streamReply({ model, system: '', messages: [{ role: 'user', content: 'hi' }], tools: [], abortSignal: new AbortController().signal, onTextDelta: (text) => collect(viaSdk)(text, process.hrtime.bigint()) });
    const streamed = await fetch(`${parley.info.url}/api/v1/agent/message/stream`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth(parley) }, body: messageBody });
    await readFrames(streamed, (data, at) => {
      const parsed = JSON.parse(data) as { type: string; content?: string };
      if (parsed.type === 'text-delta') collect(viaParley)(parsed.content ?? '', at);
    });
  }
  parley.stop();
  pipe.stop();
  upstream.stop();
  // The first round warms both paths up (JIT, connections); it is not counted.
  const steady = (all: number[]) => all.slice(50).sort((a, b) => a - b);
  const d = steady(direct);
  const p = steady(viaParley);
  const k = steady(viaSdk);
  const r = steady(viaPipe);
  console.log(`(c) chunk → client, upstream read directly: p50 ${percentile(d, 50).toFixed(3)} ms, p99 ${percentile(d, 99).toFixed(3)} ms (${d.length} chunks)`);
  console.log(`(c) for context, chunk → client through a bare byte pipe (one more process and hop, no parsing): p50 ${percentile(r, 50).toFixed(3)} ms, p99 ${percentile(r, 99).toFixed(3)} ms (${r.length} chunks) → the hop alone adds p50 ${(percentile(r, 50) - percentile(d, 50)).toFixed(3)} ms`);
  console.log(`(c) for context, chunk → text through the AI SDK provider (openai-compatible) in the reading process: p50 ${percentile(k, 50).toFixed(3)} ms, p99 ${percentile(k, 99).toFixed(3)} ms (${k.length} chunks)`);
  console.log(`(c) chunk → client text-delta through Parley: p50 ${percentile(p, 50).toFixed(3)} ms, p99 ${percentile(p, 99).toFixed(3)} ms (${p.length} chunks)`);
  console.log(`(c) added by Parley: p50 ${(percentile(p, 50) - percentile(d, 50)).toFixed(3)} ms (target < 0.5), p99 ${(percentile(p, 99) - percentile(d, 99)).toFixed(3)} ms (target < 3)`);
}

async function benchD(): Promise<void> {
  const upstream = await startChild('bench/agent-upstream.ts', ['stall']);
  const parley = await startChild('bench/agent-server.ts', ['parley', 'openai-compatible:fake', upstream.info.url], ['--expose-gc']);
  // One finished request first, so the idle figure includes the loaded code paths.
  await fetch(`${parley.info.url}/api/v1/agent/message/stream`, { method: 'POST', headers: { 'content-type': 'application/json', ...auth(parley) }, body: messageBody }).then(async (r) => {
    const reader = r.body!.getReader();
    await reader.read();
    await reader.cancel();
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  const idle = await parley.ask('rss');
  const agent = new Agent({ keepAlive: false, maxSockets: Infinity });
  const target = new URL(`${parley.info.url}/api/v1/agent/message/stream`);
  const started = performance.now();
  const openOne = () =>
    new Promise<{ destroy(): void }>((resolve, reject) => {
        const req = httpRequest({ agent, method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname, headers: { 'content-type': 'application/json', ...auth(parley) } }, (res) => {
          res.setEncoding('utf8');
          let seen = '';
          const onData = (chunk: string) => {
            seen += chunk;
            if (seen.includes('"text-delta"')) {
              res.off('data', onData);
              resolve({ destroy: () => req.destroy() });
            }
          };
          res.on('data', onData);
        });
        req.on('error', reject);
        req.end(messageBody);
      });
  // Opened 50 at a time: 1,000 simultaneous connects would overflow the listen backlog and
  // measure SYN retransmits instead of the server.
  const opened: Array<{ destroy(): void }> = [];
  while (opened.length < openStreams) {
    const batchStart = performance.now();
    opened.push(...(await Promise.all(Array.from({ length: Math.min(50, openStreams - opened.length) }, openOne))));
    if (process.env["BENCH_VERBOSE"]) console.log(`  ${opened.length} open, last batch ${(performance.now() - batchStart).toFixed(0)} ms`);
  }
  const openMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 500));
  const loaded = await parley.ask('rss');
  for (const stream of opened) stream.destroy();
  parley.stop();
  upstream.stop();
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  console.log(`(d) server RSS idle: ${mb(idle['rss']!)} MB (heap ${mb(idle['heapUsed']!)} MB)`);
  console.log(`(d) server RSS with ${openStreams} open streams: ${mb(loaded['rss']!)} MB (heap ${mb(loaded['heapUsed']!)} MB) → ${((loaded['rss']! - idle['rss']!) / openStreams / 1024).toFixed(1)} KB per stream; all opened in ${openMs.toFixed(0)} ms`);
}

console.log(`agent benchmarks on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 1_073_741_824).toFixed(0)} GB, Node ${process.version}; ${seconds} s per load run at ${concurrency} connections, load from ${loader}`);
const only = process.argv[2];
for (const [name, run] of [['a', benchA], ['b', benchB], ['c', benchC], ['d', benchD]] as const) {
  if (!only || only.includes(name)) await run();
}
process.exit(0);
