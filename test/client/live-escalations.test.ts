import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyClient, ParleyError, type EscalationStatus, type FeedEvent } from '../../packages/client/src/index.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';
import { startSabotageProxy } from './client-support.js';

const fastRetry = { baseDelayMs: 1, maxDelayMs: 5 };

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Takes the next `count` events of a feed. */
async function take(feed: AsyncGenerator<FeedEvent>, count: number): Promise<FeedEvent[]> {
  const events: FeedEvent[] = [];
  while (events.length < count) {
    const next = await feed.next();
    if (next.done) break;
    events.push(next.value);
  }
  return events;
}

describe.each(testDialects())('client SDK escalations against a live server (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { ssePingIntervalMs: 100 });
  });
  afterAll(async () => {
    await server.close();
  });

  it('watchEscalation delivers every operator reply once across forced reconnects, and ends on resolved', async () => {
    const tenant = await createTenant(server);
    const proxy = await startSabotageProxy(server.url, 'none');
    try {
      const sdk = new ParleyClient({ baseUrl: proxy.url, apiKey: tenant.sdkKey, retry: fastRetry });
      const operator = new ParleyClient({ baseUrl: server.url, apiKey: tenant.operatorKey }).operator;
      const { escalationId, status } = await sdk.escalate({ reason: 'user_requested', note: 'wants a person' });
      expect(status).toBe('pending');

      const received: Array<{ id: string; content: string; createdAt: string }> = [];
      const statuses: Array<[EscalationStatus, string | undefined]> = [];
      const watching = sdk.watchEscalation(escalationId, {
        pollIntervalMs: 50,
        onMessage: (message) => void received.push(message),
        onStatus: (next, operatorName) => void statuses.push([next, operatorName]),
      });
      await waitFor(() => statuses.length === 1, 'the first status');

      await operator.reply(escalationId, 'first', { operatorName: 'Ada' });
      await waitFor(() => received.length === 1, 'the first reply');
      proxy.cutOpenStreams();
      await operator.reply(escalationId, 'second', { operatorName: 'Ada' });
      await operator.reply(escalationId, 'third', { operatorName: 'Ada' });
      await waitFor(() => received.length >= 3, 'the replies sent across the cut');
      proxy.cutOpenStreams();
      await operator.resolve(escalationId);
      await watching;

      expect(received.map((message) => message.content)).toEqual(['first', 'second', 'third']);
      expect(new Set(received.map((message) => message.id)).size).toBe(3);
      // Each status once, in order; operatorName comes with it when it arrived on the stream
      // (the poll route, used to catch up across a cut, does not carry it).
      expect(statuses.map(([next]) => next)).toEqual(['pending', 'active', 'resolved']);
      expect([undefined, 'Ada']).toContain(statuses[1]?.[1]);
      // Every reconnect asked only for what came after the last message it had.
      const streams = proxy.requests.filter((line) => line.startsWith(`GET /agent/escalation/${escalationId}/stream`));
      expect(streams.length).toBeGreaterThanOrEqual(2);
      for (const reconnect of streams.slice(1)) {
        expect(received.some((message) => reconnect.includes(`since=${encodeURIComponent(message.createdAt)}`))).toBe(true);
      }
    } finally {
      await proxy.close();
    }
  });

  it('watchEscalation falls back to polling when the stream cannot be opened', async () => {
    const tenant = await createTenant(server);
    const proxy = await startSabotageProxy(server.url, 'none', { dropEscalationStreams: true });
    try {
      const sdk = new ParleyClient({ baseUrl: proxy.url, apiKey: tenant.sdkKey, retry: fastRetry });
      const operator = new ParleyClient({ baseUrl: server.url, apiKey: tenant.operatorKey }).operator;
      const { escalationId } = await sdk.escalate({ reason: 'agent_gave_up' });
      const events = sdk.escalationEvents(escalationId, { pollIntervalMs: 20 });
      const seen: string[] = [];
      const reading = (async () => {
        for await (const event of events) seen.push(event.type === 'status' ? `status:${event.status}` : `message:${event.message.content}`);
      })();
      await waitFor(() => seen.includes('status:pending'), 'the polled status');
      await operator.reply(escalationId, 'hello from a human');
      await waitFor(() => seen.includes('message:hello from a human'), 'the polled reply');
      await operator.resolve(escalationId);
      await reading;
      expect(seen).toEqual(['status:pending', 'message:hello from a human', 'status:active', 'status:resolved']);
      expect(proxy.requests.some((line) => line.startsWith(`GET /agent/escalation/${escalationId}?`) || line === `GET /agent/escalation/${escalationId}`)).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  it('covers the end-user escalation routes: resume, message, poll, abandon, 409 after resolve', async () => {
    const tenant = await createTenant(server);
    const { client, sent } = (() => {
      const lines: string[] = [];
      return {
        sent: lines,
        client: new ParleyClient({
          baseUrl: server.url,
          apiKey: tenant.sdkKey,
          retry: fastRetry,
          fetch: (input, init) => {
            lines.push(`${init?.method} ${new URL(input).pathname}`);
            return fetch(input, init);
          },
        }),
      };
    })();
    const { sessionId } = await client.createSession();
    const first = await client.escalate({ sessionId, reason: 'user_requested' });
    const again = await client.escalate({ sessionId, reason: 'user_requested' });
    expect(again.escalationId).toBe(first.escalationId);
    const { messageId } = await client.sendEscalationMessage(first.escalationId, 'is anyone there?');
    expect(messageId).toEqual(expect.any(String));
    const poll = await client.getEscalation(first.escalationId);
    expect(poll).toMatchObject({ escalationId: first.escalationId, sessionId, status: 'pending' });
    await expect(client.abandonEscalation(first.escalationId)).resolves.toEqual({ status: 'resolved' });
    await expect(client.abandonEscalation(first.escalationId)).resolves.toEqual({ status: 'resolved' });
    sent.length = 0;
    const error = await client.sendEscalationMessage(first.escalationId, 'hello?').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ParleyError);
    expect(error).toMatchObject({ code: 'ESCALATION_RESOLVED', status: 409 });
    expect(sent).toHaveLength(1);
    await expect(client.getEscalation('esc_unknown')).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
  });

  it('operator helpers work the queue with a user token, and the feed resumes with Last-Event-ID', async () => {
    const tenant = await createTenant(server);
    const sdk = new ParleyClient({ baseUrl: server.url, apiKey: tenant.sdkKey });
    const operator = new ParleyClient({ baseUrl: server.url, userToken: tenant.userToken, workspaceId: tenant.workspaceId }).operator;

    const controller = new AbortController();
    const feed = operator.feed({ signal: controller.signal });
    const firstEvent = take(feed, 1);
    // The feed is live once its request is answered; give it a moment before the first event.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const { escalationId } = await sdk.escalate({ reason: 'user_requested' });
    const [created] = await firstEvent;
    expect(created?.data).toMatchObject({ type: 'escalation-created', escalationId });
    controller.abort();
    await expect(feed.next()).rejects.toMatchObject({ code: 'ABORTED' });

    const queue = await operator.queue();
    expect(queue.escalations.map((escalation) => escalation.escalationId)).toContain(escalationId);
    await expect(operator.claim(escalationId, { operatorName: 'Grace' })).resolves.toMatchObject({ escalationId, status: 'active', claimedByName: 'Grace' });
    await operator.reply(escalationId, 'I can help', { operatorName: 'Grace' });
    await expect(operator.detail(escalationId)).resolves.toMatchObject({
      escalation: { escalationId, status: 'active', claimedByName: 'Grace' },
      messages: [{ role: 'human_agent', content: 'I can help', operatorName: 'Grace' }],
    });
    await operator.resolve(escalationId);
    expect((await operator.queue({ status: 'resolved' })).escalations.map((escalation) => escalation.escalationId)).toContain(escalationId);

    // Resuming after the created event replays exactly what happened while away.
    const resumed = new AbortController();
    const replay = operator.feed({ lastEventId: created?.id, signal: resumed.signal });
    const missed = await take(replay, 3);
    resumed.abort();
    expect(missed.map((event) => event.data.type)).toEqual(['escalation-claimed', 'operator-message', 'escalation-resolved']);
  });

  it('the operator feed reconnects after a drop without losing or repeating events', async () => {
    const tenant = await createTenant(server);
    const proxy = await startSabotageProxy(server.url, 'none');
    try {
      const sdk = new ParleyClient({ baseUrl: server.url, apiKey: tenant.sdkKey });
      const operatorDirect = new ParleyClient({ baseUrl: server.url, apiKey: tenant.operatorKey }).operator;
      const controller = new AbortController();
      const feed = new ParleyClient({ baseUrl: proxy.url, apiKey: tenant.operatorKey, retry: fastRetry }).operator.feed({ signal: controller.signal });
      const events: FeedEvent[] = [];
      const reading = (async () => {
        for await (const event of feed) events.push(event);
      })().catch(() => undefined);
      await waitFor(() => proxy.requests.some((line) => line.startsWith('GET /escalations/stream')), 'the feed connection');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const { escalationId } = await sdk.escalate({ reason: 'user_requested' });
      await waitFor(() => events.length === 1, 'the created event');
      proxy.cutOpenStreams();
      await operatorDirect.reply(escalationId, 'one');
      await operatorDirect.reply(escalationId, 'two');
      await operatorDirect.resolve(escalationId);
      await waitFor(() => events.some((event) => event.data.type === 'escalation-resolved'), 'the resolved event');
      controller.abort();
      await reading;
      expect(events.map((event) => event.data.type)).toEqual(['escalation-created', 'escalation-claimed', 'operator-message', 'operator-message', 'escalation-resolved']);
      expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
      expect(proxy.requests.filter((line) => line.startsWith('GET /escalations/stream')).length).toBeGreaterThanOrEqual(2);
    } finally {
      await proxy.close();
    }
  });
});
