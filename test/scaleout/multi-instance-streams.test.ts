import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { clusterSkipReason, createCluster, type Cluster } from '../support/cluster.js';
import { bootstrapInto, type ServerProcess } from '../support/server-process.js';
import { SseReader } from '../support/sse-reader.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';
import { eventually } from '../support/eventually.js';

const skipReason = clusterSkipReason();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


type Tenant = Awaited<ReturnType<typeof bootstrapInto>>;
const sdk = (server: ServerProcess, tenant: Tenant) => new ApiClient(server.url, { authorization: `Bearer ${tenant.sdkKey}` });
const operator = (server: ServerProcess, tenant: Tenant) => new ApiClient(server.url, { authorization: `Bearer ${tenant.operatorKey}` });

async function escalate(server: ServerProcess, tenant: Tenant): Promise<string> {
  const response = await sdk(server, tenant).post('/agent/escalation', { reason: 'user_requested' });
  expect(response.status).toBe(201);
  return response.body.data.escalationId as string;
}

async function endUserStream(server: ServerProcess, tenant: Tenant, escalationId: string, since?: string): Promise<SseReader> {
  const client = sdk(server, tenant);
  const query = since === undefined ? '' : `?since=${encodeURIComponent(since)}`;
  const opened = await SseReader.open(client.url(`/agent/escalation/${escalationId}/stream${query}`), client.headers);
  expect(opened.status).toBe(200);
  return opened.stream!;
}

async function feed(server: ServerProcess, tenant: Tenant): Promise<SseReader> {
  const client = operator(server, tenant);
  const opened = await SseReader.open(client.url('/escalations/stream'), client.headers);
  expect(opened.status).toBe(200);
  await opened.stream!.nextFrame(); // first ping: subscribed
  return opened.stream!;
}

/** The next `count` data frames, within one overall deadline (pings keep arriving meanwhile). */
async function dataFrames(stream: SseReader, count: number, timeoutMs = 5000): Promise<any[]> {
  const frames: any[] = [];
  const deadline = Date.now() + timeoutMs;
  while (frames.length < count) {
    const frame = await stream.nextFrame(Math.max(1, deadline - Date.now()));
    if (frame.data !== undefined) frames.push(frame.data);
    if (frames.length < count && Date.now() > deadline) throw new Error(`only ${frames.length} of ${count} frames arrived: ${frames.map((f) => f.type).join(', ')}`);
  }
  return frames;
}

/** Human messages on the stream until `count` arrived (status frames skipped). */
async function humanMessages(stream: SseReader, count: number, timeoutMs = 5000): Promise<string[]> {
  const contents: string[] = [];
  const deadline = Date.now() + timeoutMs;
  while (contents.length < count) {
    // Pings keep arriving, so the deadline is for the whole wait, not per frame.
    const frame = await stream.nextFrame(Math.max(1, deadline - Date.now()));
    if (frame.data?.type === 'human-message') contents.push(frame.data.message.content as string);
    if (Date.now() > deadline) throw new Error(`only ${contents.length} of ${count} human messages arrived: ${contents.join(', ')}`);
  }
  return contents;
}

describe.skipIf(skipReason !== null)('escalation streams across real instances (PostgreSQL + Redis)', () => {
  let cluster: Cluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;

  beforeAll(async () => {
    cluster = await createCluster();
    [a, b, c] = (await cluster.start(3, { PARLEY_SSE_PING_INTERVAL_MS: '100', PARLEY_WEBHOOKS_ALLOW_PRIVATE: 'true', PARLEY_WEBHOOK_POLL_INTERVAL_MS: '50' })) as [ServerProcess, ServerProcess, ServerProcess];
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
  });

  it('delivers an operator reply posted on A to the end-user stream held by B', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const escalationId = await escalate(a, tenant);
    const stream = await endUserStream(b, tenant, escalationId);
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'pending' });
    const reply = await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: 'from A', operatorName: 'Alice' });
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'active', operatorName: 'Alice' });
    expect((await stream.next()).data).toEqual({ type: 'human-message', message: { id: reply.body.data.messageId, content: 'from A', createdAt: reply.body.data.createdAt } });
    await operator(c, tenant).post(`/escalations/${escalationId}/resolve`);
    expect((await stream.next()).data).toMatchObject({ type: 'status', status: 'resolved' });
    await stream.waitForEnd();
  });

  it('shows every event on the operator feed of every instance, in the same order', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const feeds = await Promise.all([a, b, c].map((server) => feed(server, tenant)));
    const escalationId = await escalate(b, tenant);
    await operator(c, tenant).post(`/escalations/${escalationId}/message`, { content: 'hi', operatorName: 'Cy' });
    await operator(a, tenant).post(`/escalations/${escalationId}/resolve`);
    const seen = [];
    for (const stream of feeds) {
      const frames = [];
      for (let i = 0; i < 4; i++) frames.push((await stream.next()).data);
      seen.push(frames.map((frame) => `${frame.type}:${frame.id}`));
      stream.close();
    }
    expect(seen[0]!.map((entry) => entry.split(':')[0])).toEqual(['escalation-created', 'escalation-claimed', 'operator-message', 'escalation-resolved']);
    expect(seen[1]).toEqual(seen[0]);
    expect(seen[2]).toEqual(seen[0]);
  });

  it('loses nothing and repeats nothing when the Redis connection drops mid-stream', { timeout: 60_000 }, async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const escalationId = await escalate(a, tenant);
    const stream = await endUserStream(b, tenant, escalationId);
    const operatorFeed = await feed(b, tenant);
    await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: 'before', operatorName: 'Alice' });
    expect(await humanMessages(stream, 1)).toEqual(['before']);
    // Drop every instance's subscriber connection; replies posted while they are away are
    // published to nobody, and must come from the database once B is back.
    await cluster.killSubscriberConnections();
    for (let i = 0; i < 3; i++) await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: `during ${i}` });
    await eventually(async () => {
      const list = String(await cluster.redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      return list.split('\n').filter((line) => line.includes(`name=${cluster.prefix}subscriber`)).length >= 3;
    });
    await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: 'after' });
    expect(await humanMessages(stream, 4)).toEqual(['during 0', 'during 1', 'during 2', 'after']);
    await sleep(300);
    expect(stream.drain().filter((frame) => frame.data.type === 'human-message')).toEqual([]);
    // The feed too (opened after the escalation was created): claimed, before, 3 × during, after — each once.
    const events = await dataFrames(operatorFeed, 6);
    expect(events.map((event) => event.type)).toEqual(['escalation-claimed', ...Array(5).fill('operator-message')]);
    expect(events.filter((event) => event.type === 'operator-message').map((event) => event.message.content)).toEqual(['before', 'during 0', 'during 1', 'during 2', 'after']);
    expect(new Set(events.map((event) => event.id)).size).toBe(6);
    await sleep(300);
    expect(operatorFeed.drain()).toEqual([]);
    stream.close();
    operatorFeed.close();
  });

  it('on SIGTERM ends open streams cleanly, exits 0, and the client catches up on another instance', async () => {
    const [victim] = await cluster.start(1, { PARLEY_SSE_PING_INTERVAL_MS: '100' });
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const escalationId = await escalate(a, tenant);
    const stream = await endUserStream(victim!, tenant, escalationId);
    const operatorFeed = await feed(victim!, tenant);
    const first = await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: 'one', operatorName: 'Alice' });
    expect(await humanMessages(stream, 1)).toEqual(['one']);
    victim!.child.kill('SIGTERM');
    await stream.waitForEnd(5000);
    await operatorFeed.waitForEnd(5000);
    expect(await victim!.exited).toBe(0);
    // Written while the client was reconnecting: it reconnects to B with since and gets it.
    await operator(a, tenant).post(`/escalations/${escalationId}/message`, { content: 'two' });
    const resumed = await endUserStream(b, tenant, escalationId, first.body.data.createdAt);
    expect(await humanMessages(resumed, 1)).toEqual(['two']);
    resumed.close();
  });

  it('delivers each webhook exactly once although every instance runs a delivery worker', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const tenant = await bootstrapInto(cluster.databaseUrl);
      const admin = new ApiClient(a.url, { authorization: `Bearer ${tenant.userToken}`, 'x-workspace-id': tenant.workspaceId });
      expect((await admin.post('/admin/webhooks', { url: receiver.url })).status).toBe(201);
      // Six escalations created through the three instances: six events, six deliveries due at once.
      await Promise.all([a, b, c, a, b, c].map(async (server) => {
        const session = await sdk(server, tenant).post('/agent/session', {});
        await sdk(server, tenant).post('/agent/escalation', { reason: 'user_requested', sessionId: session.body.data.sessionId });
      }));
      await receiver.waitFor(6);
      await sleep(1000);
      const ids = receiver.received.map((hook) => hook.json.id as string);
      expect(ids).toHaveLength(6);
      expect(new Set(ids).size).toBe(6);
    } finally {
      await receiver.close();
    }
  });
});
