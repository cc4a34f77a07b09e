import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTenant, testDialects } from '../support/harness.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { chatBodies, fakeModelTenant, insertActionType, postStream, startAgentFixture, type AgentFixture } from './agent-support.js';

describe.each(testDialects())('POST /agent/message on %s', (dialect) => {
  let fixture: AgentFixture;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect, { modelTimeoutMs: 1_000 });
  });
  afterAll(() => fixture.close());
  beforeEach(() => fixture.upstream.reset());

  it('answers with the reply, a summary and usage, creating a session when none is named', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Your order ships tomorrow. Anything else?', usage: { inputTokens: 30, outputTokens: 7 } });
    const response = await tenant.sdk.post('/agent/message', { content: 'Where is my order?', mcpVersion: '1.2.0', context: { currentScreen: 'home' } });
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.sessionId).toMatch(/^ses_/);
    expect(data.message).toEqual({ id: expect.stringMatching(/^msg_/), role: 'assistant', content: 'Your order ships tomorrow. Anything else?', summary: 'Your order ships tomorrow.', actions: [] });
    expect(data.usage).toEqual({ tokensUsed: 37, modelUsed: 'openai-compatible:fake-llm', latencyMs: expect.any(Number) });
    const stored = await fixture.server.database.db.selectFrom('agent_messages').selectAll().where('session_id', '=', data.sessionId).orderBy('seq').execute();
    expect(stored.map((m) => [m.role, m.content, m.mcp_version])).toEqual([
      ['user', 'Where is my order?', '1.2.0'],
      ['assistant', 'Your order ships tomorrow. Anything else?', '1.2.0'],
    ]);
    const body = chatBodies(fixture.upstream)[0]!;
    expect(body.stream).toBeUndefined();
    expect(body.tools!.map((t) => t.function.name)).toEqual(['navigate', 'escalate']);
  });

  it('turns a tool call into a persisted pending action and summarises it', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Opening your orders.', toolCalls: [{ name: 'navigate', args: { screen: 'orders', params: { filter: 'open' } } }] });
    const { body } = await tenant.sdk.post('/agent/message', { content: 'Show my orders' });
    const action = body.data.message.actions[0];
    expect(body.data.message.actions).toHaveLength(1);
    expect(action).toEqual({ id: expect.stringMatching(/^act_/), type: 'navigate', payload: { screen: 'orders', params: { filter: 'open' } } });
    expect(body.data.message.summary).toBe('Opening your orders. Actions: navigate to orders.');
    const pending = await tenant.sdk.get(`/agent/session/${body.data.sessionId}/pending-actions`);
    expect(pending.status).toBe(200);
    expect(pending.body.data.actions).toEqual([{ ...action, messageId: body.data.message.id }]);
  });

  it('continues a named session and sends the earlier exchange as history', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Hello Ana.' }, { text: 'You said your name is Ana.' });
    const first = await tenant.sdk.post('/agent/message', { content: 'I am Ana' });
    const second = await tenant.sdk.post('/agent/message', { content: 'What is my name?', sessionId: first.body.data.sessionId });
    expect(second.body.data.sessionId).toBe(first.body.data.sessionId);
    const messages = chatBodies(fixture.upstream)[1]!.messages;
    expect(messages.slice(1)).toEqual([
      { role: 'user', content: 'I am Ana' },
      { role: 'assistant', content: 'Hello Ana.' },
      { role: 'user', content: 'What is my name?' },
    ]);
  });

  it('builds the system prompt from persona, name, locale and context, and never sends identifiers', async () => {
    const tenant = await fakeModelTenant(fixture, {
      persona_prompt: 'SECRET-PERSONA: speak like a pirate.',
      personalization: JSON.stringify({ assistantName: 'Polly', defaultLocale: 'fr-FR' }),
    });
    const session = await tenant.sdk.post('/agent/session', { userId: 'user-77' });
    const sessionId = session.body.data.sessionId;
    const now = new Date().toISOString();
    await fixture.server.database.db
      .insertInto('end_users')
      .values({ id: 'eus_test', project_id: tenant.projectId, user_id: 'user-77', name: 'Zed Zebulon', identifiers: JSON.stringify({ email: 'zed@example.com', phone: '+15550001234' }), created_at: now, updated_at: now })
      .execute();
    fixture.upstream.setDefaultReply({ text: 'Ahoy! SECRET-PERSONA is not something I repeat.', toolCalls: [{ name: 'navigate', args: { screen: 'cart' } }] });
    const responses = [
      await tenant.sdk.post('/agent/message', { sessionId, content: 'Hi', context: { currentScreen: 'checkout', cartItems: 3 } }),
    ];
    const actionId = responses[0]!.body.data.message.actions[0].id;
    responses.push(await tenant.sdk.post('/agent/continue', { sessionId, context: { currentScreen: 'cart' }, results: [{ actionId, type: 'navigate', success: true }], hop: 1 }));
    responses.push(await tenant.sdk.get(`/agent/session/${sessionId}/pending-actions`));
    const streamed = await postStream(tenant, { sessionId, content: 'again', context: { currentScreen: 'cart' } });
    responses.push({ body: await streamed.text() } as (typeof responses)[number]);
    fixture.upstream.setDefaultReply(undefined);
    expect(fixture.upstream.requests.filter((r) => (r.body as { stream?: boolean }).stream === true)).toHaveLength(1);

    const system = chatBodies(fixture.upstream)[0]!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toContain('SECRET-PERSONA: speak like a pirate.');
    expect(system.content).toContain('Polly');
    expect(system.content).toContain('fr-FR');
    expect(system.content).toContain('The user is currently on the screen "checkout"');
    expect(system.content).toContain('"cartItems":3');
    for (const request of fixture.upstream.requests) {
      for (const secret of ['zed@example.com', '+15550001234', 'Zed Zebulon', 'user-77']) expect(request.rawBody).not.toContain(secret);
    }
    for (const response of responses) expect(JSON.stringify(response.body)).not.toContain('speak like a pirate');
  });

  it('caps a huge context at about 8 KB and marks it as cut', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'ok' });
    const response = await tenant.sdk.post('/agent/message', { content: 'hi', context: { currentScreen: 'list', rows: 'x'.repeat(50_000) } });
    expect(response.status).toBe(200);
    const system: string = chatBodies(fixture.upstream)[0]!.messages[0]!.content;
    expect(system).toContain('[context truncated]');
    expect(system.length).toBeLessThan(12_000);
  });

  it('trims the oldest turns when the history is over the token budget', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.setDefaultReply({ text: 'noted' });
    let sessionId: string | undefined;
    for (let i = 0; i < 5; i++) {
      const { body } = await tenant.sdk.post('/agent/message', { sessionId, content: `TURN-${i} ${'word '.repeat(2_800)}` });
      sessionId = body.data.sessionId;
    }
    fixture.upstream.setDefaultReply(undefined);
    const last = JSON.stringify(chatBodies(fixture.upstream)[4]!.messages);
    expect(last).not.toContain('TURN-0');
    expect(last).toContain('TURN-3');
    expect(last).toContain('TURN-4');
  });

  it('offers the project catalog of the message mcpVersion, else the newest, and can turn escalate off', async () => {
    const tenant = await fakeModelTenant(fixture, { escalate_tool_enabled: 0 });
    const schema = { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] };
    await insertActionType(fixture, tenant.projectId, { type: 'add_to_cart', schema });
    await insertActionType(fixture, tenant.projectId, { type: 'old_only', mcpVersion: '1.9.0', schema });
    await insertActionType(fixture, tenant.projectId, { type: 'new_only', mcpVersion: '1.10.0', schema });
    fixture.upstream.setDefaultReply({ text: 'ok' });
    await tenant.sdk.post('/agent/message', { content: 'a', mcpVersion: '1.9.0' });
    await tenant.sdk.post('/agent/message', { content: 'b' });
    await tenant.sdk.post('/agent/message', { content: 'c', mcpVersion: '7.0.0' });
    fixture.upstream.setDefaultReply(undefined);
    const names = chatBodies(fixture.upstream).map((body) => body.tools!.map((t) => t.function.name).sort());
    expect(names).toEqual([
      ['add_to_cart', 'navigate', 'old_only'],
      ['add_to_cart', 'navigate', 'new_only'],
      ['add_to_cart', 'navigate', 'new_only'],
    ]);
  });

  it('does not send a schema-invalid payload; the model is told and corrects itself', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue(
      { text: 'Going. ', toolCalls: [{ name: 'navigate', args: { page: 'orders' } }] },
      { text: 'Fixed.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }] },
    );
    const { body } = await tenant.sdk.post('/agent/message', { content: 'orders please' });
    expect(body.data.message.actions).toEqual([{ id: expect.any(String), type: 'navigate', payload: { screen: 'orders' } }]);
    expect(body.data.message.content).toBe('Going. Fixed.');
    const retry = chatBodies(fixture.upstream)[1]!.messages;
    const toolMessage = retry.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toContain('Not run');
    expect(toolMessage.content).toContain('screen');
  });

  it('does not send a call to an action the project does not offer; the model is told', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ toolCalls: [{ name: 'launch_rockets', args: { count: 3 } }] }, { text: 'I cannot do that.' });
    const { body } = await tenant.sdk.post('/agent/message', { content: 'launch' });
    expect(body.data.message.actions).toEqual([]);
    expect(body.data.message.content).toBe('I cannot do that.');
    const toolMessage = chatBodies(fixture.upstream)[1]!.messages.find((m) => m.role === 'tool')!;
    expect(toolMessage.content).toContain('"launch_rockets" is not an available action');
  });

  it('gives up on invalid payloads after three attempts and returns no action', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.setDefaultReply({ toolCalls: [{ name: 'navigate', args: { screen: 42 } }] });
    const { body, status } = await tenant.sdk.post('/agent/message', { content: 'orders please' });
    fixture.upstream.setDefaultReply(undefined);
    expect(status).toBe(200);
    expect(body.data.message.actions).toEqual([]);
    expect(fixture.upstream.requests).toHaveLength(3);
    const stored = await fixture.server.database.db.selectFrom('agent_actions').selectAll().where('session_id', '=', body.data.sessionId).execute();
    expect(stored).toEqual([]);
  });

  it('a new message supersedes pending actions of the previous turn and tells the model', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }] }, { text: 'Sure, forget the orders.' });
    const first = await tenant.sdk.post('/agent/message', { content: 'orders' });
    const actionId = first.body.data.message.actions[0].id;
    const second = await tenant.sdk.post('/agent/message', { content: 'never mind', sessionId: first.body.data.sessionId });
    expect(second.status).toBe(200);
    const action = await fixture.server.database.db.selectFrom('agent_actions').selectAll().where('id', '=', actionId).executeTakeFirstOrThrow();
    expect([action.status, action.error]).toEqual(['failed', 'superseded']);
    const toolMessage = chatBodies(fixture.upstream)[1]!.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({ status: 'failed', error: 'superseded' });
    const pending = await tenant.sdk.get(`/agent/session/${first.body.data.sessionId}/pending-actions`);
    expect(pending.body.data.actions).toEqual([]);
  });

  it('answers 422 naming the field for a bad body, and 404 for another project\'s session', async () => {
    const tenant = await fakeModelTenant(fixture);
    const other = await fakeModelTenant(fixture);
    const bad = await tenant.sdk.post('/agent/message', { context: {} });
    expect(bad.status).toBe(422);
    expect(bad.body.error).toEqual({ code: 'VALIDATION_ERROR', message: expect.stringContaining('content') });
    const foreign = await other.sdk.post('/agent/session', {});
    const response = await tenant.sdk.post('/agent/message', { content: 'hi', sessionId: foreign.body.data.sessionId });
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
    expect(fixture.upstream.requests).toHaveLength(0);
  });

  it.each([
    ['an unknown provider', { model: 'mystery:model-1' }],
    ['openai without any API key', { model: 'openai:gpt-4o', model_base_url: null }],
    ['anthropic without any API key', { model: 'anthropic:claude-sonnet-4-5', model_base_url: null }],
    ['openai-compatible without a base URL', { model: 'openai-compatible:llama', model_base_url: null }],
  ])('answers 422 UNSUPPORTED_MODEL for %s', async (_label, changes) => {
    const tenant = await fakeModelTenant(fixture, changes);
    for (const path of ['/agent/message', '/agent/message/stream']) {
      const response = await tenant.sdk.post(path, { content: 'hi' });
      expect(response.status).toBe(422);
      expect(response.body.error.code).toBe('UNSUPPORTED_MODEL');
    }
    expect(fixture.upstream.requests).toHaveLength(0);
  });

  it.each([
    ['a 500', { status: 500 }],
    ['a 429', { status: 429 }],
    ['a 401', { status: 401 }],
    ['a 400', { status: 400 }],
    ['a redirect (not followed)', { status: 307 }],
    ['garbage', { garbage: true }],
    ['a truncated body', { truncate: true }],
    ['a timeout', { delayMs: 3_000 }],
  ])('answers 502 AI_RELAY_ERROR for %s upstream, without its detail, and forgets the failed turn', async (_label, reply) => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue(reply, { text: 'recovered' });
    const { body: created } = await tenant.sdk.post('/agent/session', {});
    const failed = await tenant.sdk.post('/agent/message', { content: 'FIRST-TRY', sessionId: created.data.sessionId });
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe('AI_RELAY_ERROR');
    expect(failed.body.error.message).not.toMatch(/fake upstream|chatcmpl|html/i);
    const retried = await tenant.sdk.post('/agent/message', { content: 'SECOND-TRY', sessionId: created.data.sessionId });
    expect(retried.status).toBe(200);
    expect(JSON.stringify(chatBodies(fixture.upstream)[1]!.messages)).not.toContain('FIRST-TRY');
  });

  it('leaves nothing behind when the model call of a message that would create its session fails', async () => {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ status: 500 }, { text: 'recovered' });
    const failed = await tenant.sdk.post('/agent/message', { content: 'Where is my order?' });
    expect(failed.status).toBe(502);
    const db = fixture.server.database.db;
    const count = async (table: 'sessions' | 'agent_turns' | 'prompt_openings') =>
      Number((await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).where('project_id', '=', tenant.projectId).executeTakeFirstOrThrow()).n);
    expect([await count('sessions'), await count('agent_turns'), await count('prompt_openings')]).toEqual([0, 0, 0]);
    const retried = await tenant.sdk.post('/agent/message', { content: 'Where is my order?' });
    expect(retried.status).toBe(200);
    expect([await count('sessions'), await count('agent_turns'), await count('prompt_openings')]).toEqual([1, 1, 1]);
    const stored = await db.selectFrom('agent_messages').select(['role', 'content']).where('session_id', '=', retried.body.data.sessionId).orderBy('seq').execute();
    expect(stored).toEqual([{ role: 'user', content: 'Where is my order?' }, { role: 'assistant', content: 'recovered' }]);
  });

  it('answers 502 AI_RELAY_ERROR when the upstream refuses connections', async () => {
    const tenant = await createTenant(fixture.server, { model: 'openai-compatible:fake-llm', modelBaseUrl: 'http://127.0.0.1:9' });
    const response = await tenant.sdk.post('/agent/message', { content: 'hi' });
    expect(response.status).toBe(502);
    expect(response.body.error.code).toBe('AI_RELAY_ERROR');
  });

  it('answers with the offline demo model when the project has no model configured', async () => {
    const tenant = await createTenant(fixture.server);
    const go = await tenant.sdk.post('/agent/message', { content: 'take me to orders' });
    expect(go.status).toBe(200);
    expect(go.body.data.usage.modelUsed).toMatch(/^demo:/);
    expect(go.body.data.message.actions).toEqual([{ id: expect.any(String), type: 'navigate', payload: { screen: 'orders' } }]);
    const human = await tenant.sdk.post('/agent/message', { content: 'I want to talk to a human', sessionId: go.body.data.sessionId });
    expect(human.body.data.message.actions.map((a: { type: string }) => a.type)).toEqual(['escalate']);
    const plain = await tenant.sdk.post('/agent/message', { content: 'hello there', sessionId: go.body.data.sessionId });
    expect(plain.body.data.message.content).toMatch(/demo/i);
  });

  itRejectsBadCredentials(() => fixture.server, () => fakeModelTenant(fixture), { method: 'POST', path: () => '/agent/message', body: () => ({ content: 'hi' }), surface: 'sdk' });
  itRejectsBadCredentials(() => fixture.server, () => fakeModelTenant(fixture), { method: 'POST', path: () => '/agent/message/stream', body: () => ({ content: 'hi' }), surface: 'sdk' });
});
