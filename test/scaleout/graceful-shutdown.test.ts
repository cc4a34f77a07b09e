import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.js';
import { startOpenAIUpstream } from '../fakes/openai-upstream.js';
import { readSse } from '../agent/agent-support.js';
import { ApiClient } from '../support/api-client.js';
import { databaseUrlFor } from '../support/harness.js';
import { bootstrapInto, spawnServer, type ServerProcess } from '../support/server-process.js';

/** Starts a POST whose body is held back: the request is in flight until `finish()`. */
function slowPost(url: string, path: string, headers: Record<string, string>, body: string) {
  const half = Math.floor(body.length / 2);
  let resolveResponse: (value: { status: number; body: string }) => void = () => {};
  let rejectResponse: (error: Error) => void = () => {};
  const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
    resolveResponse = resolve;
    rejectResponse = reject;
  });
  const request = httpRequest(`${url}/api/v1${path}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
    let text = '';
    res.on('data', (chunk: Buffer) => (text += chunk.toString()));
    res.on('end', () => resolveResponse({ status: res.statusCode ?? 0, body: text }));
  });
  request.on('error', rejectResponse);
  request.write(body.slice(0, half));
  return { response, finish: () => request.end(body.slice(half)) };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Shutdown does not depend on the dialect; each case spawns a process, so this runs on
// SQLite only. The PostgreSQL + Redis variant is in multi-instance.test.ts.
describe.each(['sqlite' as const])('graceful shutdown of a real server process on %s', (dialect) => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.stop('SIGKILL');
    server = undefined;
  });

  it('answers /ready 503 as soon as SIGTERM arrives while /health stays 200, then exits 0', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    server = await spawnServer({ databaseUrl, env: { PARLEY_SHUTDOWN_DRAIN_DELAY_MS: '1500' } });
    expect((await server.anonymous.get('/ready')).status).toBe(200);
    server.child.kill('SIGTERM');
    await sleep(300);
    const ready = await server.anonymous.get('/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toEqual({ success: false, error: { code: 'SERVICE_UNAVAILABLE', message: expect.any(String) } });
    expect((await server.anonymous.get('/health')).status).toBe(200);
    expect(await server.exited).toBe(0);
  });

  it('lets an in-flight write finish after SIGTERM, stops accepting, and exits 0 with the write stored', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    server = await spawnServer({ databaseUrl });
    const tenant = await bootstrapInto(databaseUrl);
    const inFlight = slowPost(server.url, '/agent/session', { authorization: `Bearer ${tenant.sdkKey}` }, JSON.stringify({ userId: 'in-flight-user' }));
    await sleep(200);
    server.child.kill('SIGTERM');
    await sleep(300);
    // The listener is closed: a new connection is refused.
    await expect(new ApiClient(server.url).get('/health')).rejects.toThrow();
    inFlight.finish();
    const response = await inFlight.response;
    expect(response.status).toBe(201);
    const sessionId = JSON.parse(response.body).data.sessionId as string;
    expect(await server.exited).toBe(0);
    const database = openDatabase(databaseUrl, { poolSize: 1 });
    try {
      const row = await database.db.selectFrom('sessions').select('user_id').where('id', '=', sessionId).executeTakeFirst();
      expect(row?.user_id).toBe('in-flight-user');
    } finally {
      await database.close();
    }
  });

  it('does not wait longer than PARLEY_SHUTDOWN_TIMEOUT_MS for a request that never completes', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    server = await spawnServer({ databaseUrl, env: { PARLEY_SHUTDOWN_TIMEOUT_MS: '500' } });
    const tenant = await bootstrapInto(databaseUrl);
    const stuck = slowPost(server.url, '/agent/session', { authorization: `Bearer ${tenant.sdkKey}` }, JSON.stringify({ userId: 'never-finished' }));
    stuck.response.catch(() => {});
    await sleep(200);
    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('lets a streamed agent turn finish after SIGTERM, then exits 0', async () => {
    const upstream = await startOpenAIUpstream();
    try {
      upstream.enqueue({ text: 'one two three four five six', chunkDelayMs: 120 });
      const databaseUrl = databaseUrlFor(dialect);
      server = await spawnServer({ databaseUrl });
      const tenant = await bootstrapInto(databaseUrl, { model: 'openai-compatible:fake-llm', modelBaseUrl: upstream.url });
      const response = await fetch(`${server.url}/api/v1/agent/message/stream`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.sdkKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'count for me' }),
      });
      expect(response.status).toBe(200);
      const frames = readSse(response);
      await sleep(250);
      server.child.kill('SIGTERM');
      const received = await frames;
      expect(received.at(-1)?.type).toBe('done');
      expect(received.filter((frame) => frame.type === 'text-delta').map((frame) => frame.content).join('')).toBe('one two three four five six');
      expect(await server.exited).toBe(0);
    } finally {
      await upstream.close();
    }
  });
});
