import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InProcessEventBus } from '../../src/events/in-process-event-bus.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';
import { SseReader } from '../support/sse-reader.js';
import { eventually as until } from '../support/eventually.js';

async function start(tenant: Tenant) {
  const response = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
  return response.body.data as { escalationId: string; sessionId: string };
}

function openStream(tenant: Tenant, escalationId: string, since?: string) {
  const query = since === undefined ? '' : `?since=${encodeURIComponent(since)}`;
  return SseReader.open(tenant.sdk.url(`/agent/escalation/${escalationId}/stream${query}`), tenant.sdk.headers);
}


describe.each(testDialects())('end-user escalation stream on %s', (dialect) => {
  let server: TestServer;
  const bus = () => server.bus as InProcessEventBus;
  beforeAll(async () => {
    server = await startTestServer(dialect, { ssePingIntervalMs: 100 });
  });
  afterAll(() => server.close());

  it('sends the status first, then live status changes with operatorName and human messages, and ends after resolved', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const opened = await openStream(tenant, escalationId);
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const stream = opened.stream!;
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'pending' });

    await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'user words are not echoed' });
    const reply = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'Hello from Alice', operatorName: 'Alice' });
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'active', operatorName: 'Alice' });
    expect((await stream.next()).data).toEqual({ type: 'human-message', message: { id: reply.body.data.messageId, content: 'Hello from Alice', createdAt: reply.body.data.createdAt } });

    await tenant.operator.post(`/escalations/${escalationId}/resolve`);
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'resolved', operatorName: 'Alice' });
    expect(await stream.waitForEnd()).toEqual([]);
  });

  it('sends a status frame on a separate claim, and ends with resolved on abandon', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const stream = (await openStream(tenant, escalationId)).stream!;
    expect((await stream.next()).data.status).toBe('pending');
    await tenant.user.post(`/escalations/${escalationId}/claim`, { operatorName: 'Dee' });
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'active', operatorName: 'Dee' });
    await tenant.sdk.post(`/agent/escalation/${escalationId}/abandon`);
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'resolved' });
    await stream.waitForEnd();
  });

  it('sends the backlog of operator messages after the status, and only those after since', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const r1 = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'one', operatorName: 'Alice' });
    await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'user' });
    const r2 = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'two' });

    const full = (await openStream(tenant, escalationId)).stream!;
    expect((await full.next()).data).toEqual({ type: 'status', status: 'active', operatorName: 'Alice' });
    expect((await full.next()).data.message.content).toBe('one');
    expect((await full.next()).data.message.content).toBe('two');
    full.close();

    const resumed = (await openStream(tenant, escalationId, r1.body.data.createdAt)).stream!;
    expect((await resumed.next()).data.type).toBe('status');
    expect((await resumed.next()).data.message).toEqual({ id: r2.body.data.messageId, content: 'two', createdAt: r2.body.data.createdAt });
    resumed.close();

    const bad = await openStream(tenant, escalationId, 'not-a-time');
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('since');
  });

  it('on a resolved escalation sends status resolved, the backlog, and ends', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'bye' });
    await tenant.operator.post(`/escalations/${escalationId}/resolve`);
    const stream = (await openStream(tenant, escalationId)).stream!;
    expect((await stream.next()).data).toEqual({ type: 'status', status: 'resolved' });
    const rest = await stream.waitForEnd();
    expect(rest.map((f) => f.data.message.content)).toEqual(['bye']);
  });

  it('keeps the connection alive with comment pings', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const stream = (await openStream(tenant, escalationId)).stream!;
    await stream.next();
    const ping = await stream.nextFrame(1000);
    expect(ping).toEqual({ comment: 'ping' });
    stream.close();
  });

  it('answers 404 JSON, not SSE, for an unknown or foreign id', async () => {
    const tenant = await createTenant(server);
    const other = await createTenant(server);
    const { escalationId } = await start(other);
    for (const id of ['esc_unknown', escalationId]) {
      const opened = await openStream(tenant, id);
      expect(opened.status).toBe(404);
      expect(opened.stream).toBeNull();
      expect(opened.headers.get('content-type')).toMatch(/application\/json/);
      expect(opened.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    }
  });

  it('removes its bus listener when the client goes away', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const before = bus().channelCount;
    const streams = await Promise.all([openStream(tenant, escalationId), openStream(tenant, escalationId)]);
    for (const opened of streams) await opened.stream!.next();
    expect(bus().channelCount).toBe(before + 1);
    for (const opened of streams) opened.stream!.close();
    await until(() => bus().channelCount === before);
  });

  it('loses and duplicates nothing across reconnects with since = last createdAt, under a burst of replies', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const total = 30;
    const sending = (async () => {
      for (let i = 0; i < total; i++) {
        // Pairs in parallel: same-millisecond creation is likely, and must still be totally ordered.
        await Promise.all([
          tenant.operator.post(`/escalations/${escalationId}/message`, { content: `m${i}a` }),
          tenant.operator.post(`/escalations/${escalationId}/message`, { content: `m${i}b` }),
        ]);
      }
    })();
    const received: Array<{ id: string; content: string; createdAt: string }> = [];
    let since: string | undefined;
    while (received.length < total * 2) {
      const stream = (await openStream(tenant, escalationId, since)).stream!;
      await stream.next(); // status
      // Take a few frames, then drop the connection mid-burst.
      for (let taken = 0; taken < 7 && received.length < total * 2; ) {
        const frame = await stream.next(3000);
        if (frame.data.type !== 'human-message') continue; // the auto-claim's status frame
        taken++;
        received.push(frame.data.message);
        since = frame.data.message.createdAt;
      }
      stream.close();
    }
    await sending;
    expect(new Set(received.map((m) => m.id)).size).toBe(total * 2);
    const poll = await tenant.sdk.get(`/agent/escalation/${escalationId}`);
    expect(received.map((m) => m.id)).toEqual(poll.body.data.messages.map((m: any) => m.id));
  });
});
