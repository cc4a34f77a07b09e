import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';
import { SseReader } from '../support/sse-reader.js';

function openFeed(client: Tenant['operator'], lastEventId?: string) {
  return SseReader.open(client.url('/escalations/stream'), { ...client.headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) });
}

/** Starts the feed and waits until it is subscribed (a ping proves the handler has run). */
async function liveFeed(client: Tenant['operator'], lastEventId?: string) {
  const opened = await openFeed(client, lastEventId);
  expect(opened.status).toBe(200);
  await opened.stream!.nextFrame(); // the first ping: the subscription is in place
  return opened.stream!;
}

describe.each(testDialects())('operator workspace feed on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { ssePingIntervalMs: 50 });
  });
  afterAll(() => server.close());

  it('carries every escalation event of the workspace, with ids, types, status and operatorName', async () => {
    const tenant = await createTenant(server);
    const feed = await liveFeed(tenant.operator);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up', note: 'stuck' });
    const id = started.body.data.escalationId;
    const userMessage = await tenant.sdk.post(`/agent/escalation/${id}/message`, { content: 'hi' });
    await tenant.operator.post(`/escalations/${id}/claim`, { operatorName: 'Alice' });
    const reply = await tenant.operator.post(`/escalations/${id}/message`, { content: 'hello', operatorName: 'Alice' });
    await tenant.operator.post(`/escalations/${id}/resolve`);
    const second = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested', sessionId: started.body.data.sessionId });
    await tenant.sdk.post(`/agent/escalation/${second.body.data.escalationId}/abandon`);

    const frames = [];
    for (let i = 0; i < 7; i++) frames.push(await feed.next());
    const common = { projectId: tenant.projectId, workspaceId: tenant.workspaceId, sessionId: started.body.data.sessionId, createdAt: expect.any(String) };
    expect(frames.map((f) => f.data)).toEqual([
      { ...common, id: expect.stringMatching(/^evt_/), type: 'escalation-created', escalationId: id, status: 'pending', reason: 'agent_gave_up', note: 'stuck' },
      { ...common, id: expect.any(String), type: 'user-message', escalationId: id, status: 'pending', message: { id: userMessage.body.data.messageId, role: 'user', content: 'hi', createdAt: expect.any(String) } },
      { ...common, id: expect.any(String), type: 'escalation-claimed', escalationId: id, status: 'active', operatorName: 'Alice' },
      { ...common, id: expect.any(String), type: 'operator-message', escalationId: id, status: 'active', operatorName: 'Alice', message: { id: reply.body.data.messageId, role: 'human_agent', content: 'hello', createdAt: reply.body.data.createdAt } },
      { ...common, id: expect.any(String), type: 'escalation-resolved', escalationId: id, status: 'resolved', operatorName: 'Alice' },
      { ...common, id: expect.any(String), type: 'escalation-created', escalationId: second.body.data.escalationId, status: 'pending', reason: 'user_requested', note: null },
      { ...common, id: expect.any(String), type: 'escalation-abandoned', escalationId: second.body.data.escalationId, status: 'resolved' },
    ]);
    for (const frame of frames) expect(frame.id).toBe(frame.data.id);
    feed.close();
  });

  it('reports an auto-claiming reply as escalation-claimed then operator-message', async () => {
    const tenant = await createTenant(server);
    const feed = await liveFeed(tenant.user);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    await tenant.operator.post(`/escalations/${started.body.data.escalationId}/message`, { content: 'hi' });
    const types = [(await feed.next()).data.type, (await feed.next()).data.type, (await feed.next()).data];
    expect(types.slice(0, 2)).toEqual(['escalation-created', 'escalation-claimed']);
    expect(types[2]).toMatchObject({ type: 'operator-message', operatorName: 'Operator' });
    feed.close();
  });

  it('replays what was missed after Last-Event-ID, then continues live, without duplicates', async () => {
    const tenant = await createTenant(server);
    const first = await liveFeed(tenant.operator);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const id = started.body.data.escalationId;
    const created = await first.next();
    first.close();

    await tenant.sdk.post(`/agent/escalation/${id}/message`, { content: 'while away 1' });
    await tenant.sdk.post(`/agent/escalation/${id}/message`, { content: 'while away 2' });
    const resumed = (await openFeed(tenant.operator, created.id)).stream!;
    const missed = [await resumed.next(), await resumed.next()];
    expect(missed.map((f) => f.data.message.content)).toEqual(['while away 1', 'while away 2']);
    await tenant.operator.post(`/escalations/${id}/claim`);
    const live = await resumed.next();
    expect(live.data.type).toBe('escalation-claimed');
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(resumed.drain()).toEqual([]);
    resumed.close();
  });

  it('replays everything retained for an unknown Last-Event-ID, and only the own workspace', async () => {
    const tenant = await createTenant(server);
    const other = await createTenant(server);
    await other.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const mine = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const feed = (await openFeed(tenant.operator, 'evt_gone')).stream!;
    const frame = await feed.next();
    expect(frame.data).toMatchObject({ type: 'escalation-created', escalationId: mine.body.data.escalationId, workspaceId: tenant.workspaceId });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(feed.drain()).toEqual([]);
    feed.close();
  });

  it("never carries another workspace's events, and removes its listener on close", async () => {
    const tenant = await createTenant(server);
    const other = await createTenant(server);
    const bus = server.bus as InProcessEventBus;
    const before = bus.channelCount;
    const feed = await liveFeed(tenant.operator);
    expect(bus.channelCount).toBe(before + 1);
    await other.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const mine = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    expect((await feed.next()).data.escalationId).toBe(mine.body.data.escalationId);
    feed.close();
    const deadline = Date.now() + 2000;
    while (bus.channelCount !== before && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(bus.channelCount).toBe(before);
  });

  it('replays a backlog longer than one replay page, in order and complete', async () => {
    const tenant = await createTenant(server);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const id = started.body.data.escalationId;
    const first = await openFeed(tenant.operator, 'evt_before_everything');
    const createdFrame = await first.stream!.next();
    first.stream!.close();
    const count = 520; // the feed replays in pages of 500
    for (let sent = 0; sent < count; sent += 40) {
      await Promise.all(Array.from({ length: Math.min(40, count - sent) }, (_, i) => tenant.sdk.post(`/agent/escalation/${id}/message`, { content: `m${sent + i}` })));
    }
    const resumed = (await openFeed(tenant.operator, createdFrame.id)).stream!;
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await resumed.next()).data.message.id);
    resumed.close();
    const poll = await tenant.sdk.get(`/agent/escalation/${id}`);
    expect(ids).toEqual(poll.body.data.messages.map((m: any) => m.id));
  });
});
