import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatBodies, fakeModelTenant, startAgentFixture, type AgentFixture } from '../agent/agent-support.js';
import { testDialects } from '../support/harness.js';

/**
 * The seams between the agent and human escalation, end to end over HTTP:
 * the AI does not talk over an operator, the operator sees what the AI did,
 * and after resolve the AI knows what the human said.
 */
describe.each(testDialects())('agent ↔ human hand-off on %s', (dialect) => {
  let fixture: AgentFixture;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect);
  });
  afterAll(() => fixture.close());

  async function escalatedSession() {
    const tenant = await fakeModelTenant(fixture);
    fixture.upstream.enqueue({ text: 'Let me open your orders.', toolCalls: [{ name: 'navigate', args: { screen: 'orders' } }] });
    const first = await tenant.sdk.post('/agent/message', { content: 'Where is my parcel?', context: { currentScreen: 'home' } });
    expect(first.status).toBe(200);
    const sessionId: string = first.body.data.sessionId;
    const actionId: string = first.body.data.message.actions[0].id;
    expect((await tenant.sdk.post(`/agent/action/${actionId}/complete`, { success: false, error: 'screen locked' })).status).toBe(200);
    const escalation = await tenant.sdk.post('/agent/escalation', { sessionId, reason: 'user_requested', note: 'wants a person' });
    expect(escalation.status).toBe(201);
    return { tenant, sessionId, actionId, escalationId: escalation.body.data.escalationId as string };
  }

  it('answers 409 ESCALATION_OPEN on /agent/message while an operator has the session, without calling the model', async () => {
    const { tenant, sessionId, escalationId } = await escalatedSession();
    const before = fixture.upstream.requests.length;
    const response = await tenant.sdk.post('/agent/message', { sessionId, content: 'hello?' });
    expect(response.status).toBe(409);
    expect(response.body.error.code).toBe('ESCALATION_OPEN');
    expect(response.body.error.message).toContain(`/agent/escalation/${escalationId}/message`);
    const streamed = await tenant.sdk.post('/agent/message/stream', { sessionId, content: 'hello?' });
    expect(streamed.status).toBe(409);
    expect(streamed.body.error.code).toBe('ESCALATION_OPEN');
    expect(fixture.upstream.requests.length).toBe(before);
  });

  it("shows the operator the AI conversation with the actions it sent and their outcomes", async () => {
    const { tenant, escalationId, actionId } = await escalatedSession();
    const detail = await tenant.operator.get(`/escalations/${escalationId}`);
    expect(detail.status).toBe(200);
    const conversation = detail.body.data.conversation as Array<{ role: string; content: string; actions: Array<{ id: string; type: string; status: string; error: string | null }> }>;
    expect(conversation.map((entry) => entry.role)).toEqual(['user', 'assistant']);
    expect(conversation[0]!.content).toBe('Where is my parcel?');
    expect(conversation[1]!.actions).toEqual([expect.objectContaining({ id: actionId, type: 'navigate', status: 'failed', error: 'screen locked' })]);
  });

  it('hands back to the AI after resolve with the human exchange and an end marker in its history', async () => {
    const { tenant, sessionId, escalationId } = await escalatedSession();
    expect((await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'My parcel 77 is late' })).status).toBe(201);
    expect((await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'I re-sent parcel 77 by express.', operatorName: 'Dana' })).status).toBe(200);
    expect((await tenant.operator.post(`/escalations/${escalationId}/resolve`)).status).toBe(200);

    fixture.upstream.enqueue({ text: 'Glad Dana could help.' });
    const after = await tenant.sdk.post('/agent/message', { sessionId, content: 'Thanks, anything else?' });
    expect(after.status).toBe(200);
    const wire = JSON.stringify(chatBodies(fixture.upstream).at(-1)!.messages);
    expect(wire).toContain('My parcel 77 is late');
    expect(wire).toContain('I re-sent parcel 77 by express.');
    expect(wire).toContain('Dana');
    // The human part is marked as over, so the model knows it is in charge again.
    expect(wire.toLowerCase()).toMatch(/(ended|resolved|handed back)/);
    const order = ['Where is my parcel?', 'My parcel 77 is late', 'I re-sent parcel 77 by express.', 'Thanks, anything else?'].map((text) => wire.indexOf(text));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('lets the end user abandon, after which the AI answers again', async () => {
    const { tenant, sessionId, escalationId } = await escalatedSession();
    expect((await tenant.sdk.post(`/agent/escalation/${escalationId}/abandon`)).body.data).toEqual({ status: 'resolved' });
    fixture.upstream.enqueue({ text: 'I am back.' });
    const after = await tenant.sdk.post('/agent/message', { sessionId, content: 'ok' });
    expect(after.status).toBe(200);
    expect(after.body.data.message.content).toBe('I am back.');
  });
});
