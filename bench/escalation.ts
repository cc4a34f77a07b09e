/**
 * Escalation streams under load (issue 4 "Performance"); not a test.
 *   node --import tsx bench/escalation.ts [streams=10000] [replySeconds=10] [operators=50]
 * 1. Baseline: a bare Node SSE server (child process) holding `streams` idle connections.
 * 2. Parley (child process, SQLite): `streams` end-user escalation streams, one per escalation;
 *    memory per idle stream = (RSS after − RSS before) / streams, after GC, in both servers.
 * 3. Under that load, `operators` workspace feeds, and operator replies at 100/s into random
 *    escalations for `replySeconds`: latency from sending the reply to its human-message frame.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { cpus, totalmem } from 'node:os';

const streams = Number(process.argv[2] ?? 10_000);
const replySeconds = Number(process.argv[3] ?? 10);
const operators = Number(process.argv[4] ?? 50);
const agent = new Agent({ keepAlive: true, maxSockets: Infinity });

interface Child { process: ChildProcess; url: string; tenant?: any }

async function startChild(kind: 'parley' | 'bare'): Promise<Child> {
  const child = fork(new URL('./escalation-server.ts', import.meta.url), [kind], { execArgv: ['--import', 'tsx', '--expose-gc', '--max-old-space-size=4096', ...(process.env['BENCH_CPU_PROF'] ? ['--cpu-prof', '--cpu-prof-dir', process.env['BENCH_CPU_PROF']] : [])] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.on('message', (message: any) => {
      if (message.ready) resolve({ process: child, url: message.ready, tenant: message.tenant });
    });
  });
}

function ask(child: Child, what: string): Promise<any> {
  return new Promise((resolve) => {
    const onMessage = (message: any) => {
      if (message.memory) {
        child.process.off('message', onMessage);
        resolve(message.memory);
      }
    };
    child.process.on('message', onMessage);
    child.process.send(what);
  });
}

async function json(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<any> {
  const response = await fetch(url, { method, headers: { ...headers, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return response.json();
}

/** Opens one SSE connection; resolves after the first frame; `onData` gets every chunk. */
function openSse(url: string, headers: Record<string, string>, onData: (chunk: string) => void): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { agent, headers }, (response) => {
      response.setEncoding('utf8');
      let first = true;
      response.on('data', (chunk: string) => {
        onData(chunk);
        if (first) {
          first = false;
          resolve(response);
        }
      });
    });
    request.on('error', reject);
    request.end();
  });
}

async function inBatches<T>(count: number, size: number, work: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    out.push(...(await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => work(start + i)))));
  }
  return out;
}

const mb = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} RAM, Node ${process.version}`);
console.log(`streams=${streams} replySeconds=${replySeconds} operators=${operators}\n`);

// 1. Baseline.
const bare = await startChild('bare');
const bareBefore = await ask(bare, 'memory');
const bareResponses = await inBatches(streams, 500, () => openSse(bare.url, {}, () => undefined));
const bareAfter = await ask(bare, 'memory');
const barePerStream = (bareAfter.rss - bareBefore.rss) / streams;
console.log(`bare Node SSE: RSS ${mb(bareBefore.rss)} → ${mb(bareAfter.rss)}; ${(barePerStream / 1024).toFixed(1)} KB per idle stream (heap ${((bareAfter.heapUsed - bareBefore.heapUsed) / streams / 1024).toFixed(1)} KB)`);
for (const response of bareResponses) response.destroy();
bare.process.send('stop');

// 2. Parley.
const parley = await startChild('parley');
const sdk = { authorization: `Bearer ${parley.tenant.sdkKey}` };
const operator = { authorization: `Bearer ${parley.tenant.operatorKey}` };
const startedAt = Date.now();
const escalationIds: string[] = await inBatches(streams, 50, async () => (await json(`${parley.url}/api/v1/agent/escalation`, 'POST', sdk, { reason: 'user_requested' })).data.escalationId);
console.log(`created ${streams} escalations in ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);

const received = new Map<string, number>();
const tokenPattern = /bench-(\d+)/g;
const onFrame = (chunk: string) => {
  for (const match of chunk.matchAll(tokenPattern)) if (!received.has(match[1]!)) received.set(match[1]!, performance.now());
};
const parleyBefore = await ask(parley, 'memory');
const openStart = Date.now();
const parleyResponses = await inBatches(streams, 500, (i) => openSse(`${parley.url}/api/v1/agent/escalation/${escalationIds[i]}/stream`, sdk, onFrame));
const parleyAfter = await ask(parley, 'memory');
const parleyPerStream = (parleyAfter.rss - parleyBefore.rss) / streams;
console.log(`opened ${streams} streams in ${((Date.now() - openStart) / 1000).toFixed(1)} s`);
console.log(`Parley: RSS ${mb(parleyBefore.rss)} → ${mb(parleyAfter.rss)}; ${(parleyPerStream / 1024).toFixed(1)} KB per idle stream (heap ${((parleyAfter.heapUsed - parleyBefore.heapUsed) / streams / 1024).toFixed(1)} KB)`);

// 3. Feeds and replies at 100/s.
let feedEvents = 0;
const feeds = await inBatches(operators, 50, () => openSse(`${parley.url}/api/v1/escalations/stream`, operator, (chunk) => {
  feedEvents += (chunk.match(/^data: /gm) ?? []).length;
}));
const sentAt = new Map<string, number>();
const repliedTo = new Set<string>();
const replies: Array<Promise<unknown>> = [];
const total = replySeconds * 100;
const replyStart = performance.now();
for (let n = 0; n < total; n++) {
  const due = replyStart + n * 10;
  const wait = due - performance.now();
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  const id = escalationIds[Math.floor(Math.random() * escalationIds.length)]!;
  repliedTo.add(id);
  sentAt.set(String(n), performance.now());
  replies.push(json(`${parley.url}/api/v1/escalations/${id}/message`, 'POST', operator, { content: `bench-${n}` }));
}
await Promise.all(replies);
await new Promise((resolve) => setTimeout(resolve, 1000));
const latencies = [...sentAt].map(([token, sent]) => (received.get(token) ?? NaN) - sent).filter(Number.isFinite).sort((a, b) => a - b);
console.log(`replies: ${total} sent at 100/s, ${latencies.length} human-message frames received`);
console.log(`reply → frame latency: p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`);
// Each reply is one operator-message event; the first reply into an escalation adds escalation-claimed.
console.log(`workspace feed: ${operators} operators received ${feedEvents} of ${operators * (total + repliedTo.size)} events`);
const underLoad = await ask(parley, 'memory');
console.log(`Parley RSS under load: ${mb(underLoad.rss)}`);

for (const response of [...parleyResponses, ...feeds]) response.destroy();
parley.process.send('stop');
agent.destroy();
