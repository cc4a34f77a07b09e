import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startAnthropicUpstream } from '../fakes/anthropic-upstream.js';
import type { FakeUpstream } from '../fakes/fake-upstream-server.js';
import { createTenant, testDialects } from '../support/harness.js';
import { chatBodies, fakeModelTenant, postStream, readSse, startAgentFixture, type AgentFixture } from './agent-support.js';

describe.each(testDialects())('POST /agent/message/stream on %s', (dialect) => {
  let fixture: AgentFixture;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect, { modelTimeoutMs: 2_000 });
  });
  afterAll(() => fixture.close());
  beforeEach(() => fixture.upstream.reset());

  it('sends session, text-delta…, tool-call and done, in that order, with SSE headers', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Taking you to your orders now.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }], usage: { inputTokens: 12, outputTokens: 8 } });
    const response = await postStream(tenant, { content: 'orders', mcpVersion: '3.1' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('cache-control')).toContain('no-cache');
    expect(response.headers.get('x-accel-buffering')).toBe('no');
    const frames = await readSse(response);

    expect(frames[0]).toEqual({ type: 'session', sessionId: expect.stringMatching(/^ses_/) });
    const types = frames.map((f) => f.type);
    expect(types.at(-1)).toBe('done');
    expect(types.slice(1, -2).every((t) => t === 'text-delta')).toBe(true);
    expect(types.at(-2)).toBe('tool-call');
    expect(types.filter((t) => t === 'text-delta').length).toBeGreaterThan(2);
    const text = frames.filter((f) => f.type === 'text-delta').map((f) => f.content).join('');
    expect(text).toBe('Taking you to your orders now.');
    const toolCall = frames.at(-2)!;
    expect(toolCall.action).toEqual({ id: expect.stringMatching(/^act_/), type: 'navigate', payload: { screen: 'orders' } });
    const done = frames.at(-1)!;
    expect(done).toEqual({ type: 'done', messageId: expect.stringMatching(/^msg_/), usage: { tokensUsed: 20 } });

    const db = fixture.server.database.db;
    const message = await db.selectFrom('agent_messages').selectAll().where('id', '=', done.messageId).executeTakeFirstOrThrow();
    expect([message.content, message.mcp_version, message.session_id]).toEqual([text, '3.1', frames[0]!.sessionId]);
    const action = await db.selectFrom('agent_actions').selectAll().where('id', '=', toolCall.action.id).executeTakeFirstOrThrow();
    expect([action.message_id, action.status]).toEqual([done.messageId, 'pending']);
    expect(chatBodies(fixture.upstream)[0]!.stream).toBe(true);
  });

  it('never streams a schema-invalid action; the corrected one follows, and the text is stored as streamed', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue(
      { text: 'Let me try. ', toolCalls: [{ name: 'navigate', args: { where: 'orders' } }] },
      { text: 'Corrected.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }] },
    );
    const frames = await readSse(await postStream(tenant, { content: 'orders' }));
    const toolCalls = frames.filter((f) => f.type === 'tool-call');
    expect(toolCalls.map((f) => f.action.payload)).toEqual([{ screen: 'orders' }]);
    const text = frames.filter((f) => f.type === 'text-delta').map((f) => f.content).join('');
    expect(text).toBe('Let me try. Corrected.');
    const done = frames.at(-1)!;
    const stored = await fixture.server.database.db.selectFrom('agent_messages').select('content').where('id', '=', done.messageId).executeTakeFirstOrThrow();
    expect(stored.content).toBe(text);
    const actions = await fixture.server.database.db.selectFrom('agent_actions').select('payload').where('message_id', '=', done.messageId).execute();
    expect(actions.map((a) => JSON.parse(a.payload))).toEqual([{ screen: 'orders' }]);
  });

  it('answers a failure before the first frame with the JSON envelope', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ status: 500 });
    const response = await postStream(tenant, { content: 'hi' });
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ success: false, error: { code: 'AI_RELAY_ERROR', message: expect.any(String) } });
  });

  it('ends with an error frame when the upstream breaks off mid-stream', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'one two three four five six seven eight', truncate: true });
    const response = await postStream(tenant, { content: 'hi' });
    expect(response.status).toBe(200);
    const frames = await readSse(response);
    expect(frames[0]!.type).toBe('session');
    expect(frames.some((f) => f.type === 'text-delta')).toBe(true);
    expect(frames.at(-1)).toEqual({ type: 'error', code: 'AI_RELAY_ERROR', message: expect.any(String) });
    expect(frames.some((f) => f.type === 'done')).toBe(false);
  });

  it('ends with an error frame when the upstream stalls past the model timeout', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'one two three four five', stallAfterChunks: 3 });
    const frames = await readSse(await postStream(tenant, { content: 'hi' }));
    expect(frames.at(-1)).toMatchObject({ type: 'error', code: 'AI_RELAY_ERROR' });
  });

  it('finishes the model call after the client disconnects; pending-actions recovers the actions', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'a b c d e f g h i j', chunkDelayMs: 30, toolCalls: [{ name: 'navigate', args: { screen: 'settings' } }] });
    const session = await tenant.sdk.post('/agent/session', {});
    const sessionId = session.body.data.sessionId;
    const abort = new AbortController();
    const response = await postStream(tenant, { content: 'settings', sessionId }, abort.signal);
    const reader = response.body!.getReader();
    await reader.read();
    abort.abort();

    let actions: Array<{ type: string; payload: unknown; messageId: string }> = [];
    for (let i = 0; i < 100 && actions.length === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 30));
      actions = (await tenant.sdk.get(`/agent/session/${sessionId}/pending-actions`)).body.data.actions;
    }
    expect(actions).toEqual([{ id: expect.any(String), type: 'navigate', payload: { screen: 'settings' }, messageId: expect.stringMatching(/^msg_/) }]);
    // The reply itself is stored too, once the model call has finished.
    for (let i = 0; i < 100; i++) {
      const stored = await fixture.server.database.db.selectFrom('agent_messages').select('content').where('id', '=', actions[0]!.messageId).executeTakeFirst();
      if (stored) {
        expect(stored.content).toBe('a b c d e f g h i j');
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error('the reply was never stored');
  });

  it('streams the demo model with no credentials at all', async () => {
    const tenant = await createTenant(fixture.server);
    const frames = await readSse(await postStream(tenant, { content: 'please open settings' }));
    expect(frames[0]!.type).toBe('session');
    expect(frames.find((f) => f.type === 'tool-call')!.action).toMatchObject({ type: 'navigate', payload: { screen: 'settings' } });
    expect(frames.at(-1)!.type).toBe('done');
  });
});

describe.each(testDialects())('the agent on the Anthropic Messages protocol on %s', (dialect) => {
  let fixture: AgentFixture;
  let anthropic: FakeUpstream;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect, { anthropicApiKey: 'ant-from-config' });
    anthropic = await startAnthropicUpstream();
  });
  afterAll(async () => {
    await anthropic.close();
    await fixture.close();
  });

  it('answers, streams and continues with the key from the configuration', async () => {
    const tenant = await createTenant(fixture.server, { model: 'anthropic:claude-test', modelBaseUrl: anthropic.baseUrl });
    anthropic.enqueue(
      { text: 'Opening orders.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }] },
      { text: 'Here they are.' },
      { text: 'Streaming hello.' },
    );
    const message = await tenant.sdk.post('/agent/message', { content: 'orders' });
    expect(message.status).toBe(200);
    expect(message.body.data.usage.modelUsed).toBe('anthropic:claude-test');
    const action = message.body.data.message.actions[0];
    const next = await tenant.sdk.post('/agent/continue', { sessionId: message.body.data.sessionId, context: {}, results: [{ actionId: action.id, type: 'navigate', success: true }] });
    expect(next.body.data).toMatchObject({ isDone: true, hop: 1, message: { content: 'Here they are.' } });
    const toolResult = JSON.stringify((anthropic.requests[1]!.body as { messages: unknown[] }).messages);
    expect(toolResult).toContain('tool_result');
    expect(toolResult).toContain(action.id);
    expect(anthropic.requests[0]!.headers['x-api-key']).toBe('ant-from-config');

    const frames = await readSse(await postStream(tenant, { content: 'hi', sessionId: message.body.data.sessionId }));
    expect(frames.filter((f) => f.type === 'text-delta').map((f) => f.content).join('')).toBe('Streaming hello.');
    expect(frames.at(-1)!.type).toBe('done');
  });
});
