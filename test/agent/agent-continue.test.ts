import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closingMessage } from '../../src/agent/continue-service.js';
import { conversationForOperator } from '../../src/agent/conversation-query.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { testDialects, type Tenant } from '../support/harness.js';
import { announceProjectChange, chatBodies, fakeModelTenant, startAgentFixture, type AgentFixture } from './agent-support.js';

describe.each(testDialects())('POST /agent/continue and action routes on %s', (dialect) => {
  let fixture: AgentFixture;
  beforeAll(async () => {
    fixture = await startAgentFixture(dialect);
  });
  afterAll(() => fixture.close());
  beforeEach(() => fixture.upstream.reset());

  /** A message whose reply carries one navigate action. */
  async function startTurn(tenant: Tenant, screen = 'orders'): Promise<{ sessionId: string; actionId: string }> {
    fixture.upstream.enqueue({ text: 'Going.', toolCalls: [{ name: 'navigate', args: { screen } }] });
    const { body } = await tenant.sdk.post('/agent/message', { content: `go to ${screen}` });
    return { sessionId: body.data.sessionId, actionId: body.data.message.actions[0].id };
  }

  const result = (actionId: string, success = true, extra: object = {}) => ({ actionId, type: 'navigate', success, ...extra });

  it('runs a multi-hop turn: results go to the model as tool results, isDone when no actions are left', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ text: 'Now the first order.', toolCalls: [{ name: 'navigate', args: { screen: 'order', params: { id: 7 } } }] });
    const hop1 = await tenant.sdk.post('/agent/continue', { sessionId, context: { currentScreen: 'orders' }, results: [result(actionId, true, { summary: 'showing 3 orders' })], hop: 1 });
    expect(hop1.status).toBe(200);
    expect(hop1.body.data).toMatchObject({ sessionId, isDone: false, hop: 1, message: { role: 'assistant', content: 'Now the first order.' } });
    expect(hop1.body.data.usage.modelUsed).toBe('openai-compatible:fake-llm');
    const toolMessage = chatBodies(fixture.upstream)[1]!.messages.find((m) => m.role === 'tool')!;
    expect(JSON.parse(toolMessage.content)).toEqual({ status: 'completed', summary: 'showing 3 orders' });
    expect(chatBodies(fixture.upstream)[1]!.messages[0]!.content).toContain('"orders"');

    const second = hop1.body.data.message.actions[0].id;
    fixture.upstream.enqueue({ text: 'That order could not open; sorry.' });
    const hop2 = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(second, false, { error: 'order not found' })], hop: 2 });
    expect(hop2.body.data).toMatchObject({ isDone: true, hop: 2, message: { content: 'That order could not open; sorry.', actions: [] } });
    const lastTool = chatBodies(fixture.upstream)[2]!.messages.filter((m) => m.role === 'tool').at(-1)!;
    expect(JSON.parse(lastTool.content)).toEqual({ status: 'failed', error: 'order not found' });

    const rows = await fixture.server.database.db.selectFrom('agent_actions').select(['id', 'status', 'error']).where('session_id', '=', sessionId).orderBy('created_at').execute();
    expect(rows.map((r) => [r.status, r.error])).toEqual([['completed', null], ['failed', 'order not found']]);
    const turn = await fixture.server.database.db.selectFrom('agent_turns').selectAll().where('session_id', '=', sessionId).executeTakeFirstOrThrow();
    expect([turn.hop, turn.status]).toEqual([2, 'done']);
  });

  it('counts hops itself and ends the turn with a closing message at the bound, without calling the model', async () => {
    const tenant = await fakeModelTenant(fixture, { max_hops: 2 });
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ toolCalls: [{ name: 'navigate', args: { screen: 'next' } }] });
    // The client's hop is advisory: a wrong value does not change the server's count.
    const hop1 = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId)], hop: 7 });
    expect(hop1.body.data).toMatchObject({ hop: 1, isDone: false });
    const next = hop1.body.data.message.actions[0].id;
    const hop2 = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(next)] });
    expect(hop2.body.data).toMatchObject({ hop: 2, isDone: true, message: { content: closingMessage(2), actions: [] } });
    expect(fixture.upstream.requests).toHaveLength(2);
    const after = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [] });
    expect(after.status).toBe(422);
  });

  it('answers a retried hop with the stored answer and no second model call', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ text: 'Done.' });
    const body = { sessionId, context: {}, results: [result(actionId)], hop: 1 };
    const first = await tenant.sdk.post('/agent/continue', body);
    const again = await tenant.sdk.post('/agent/continue', body);
    const withoutHop = await tenant.sdk.post('/agent/continue', { ...body, hop: undefined });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(withoutHop.body).toEqual(first.body);
    expect(fixture.upstream.requests).toHaveLength(2);
  });

  it('answers two concurrent copies of a hop with one model call', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ text: 'Slow answer.', delayMs: 200 });
    const body = { sessionId, context: {}, results: [result(actionId)], hop: 1 };
    const [a, b] = await Promise.all([tenant.sdk.post('/agent/continue', body), tenant.sdk.post('/agent/continue', body)]);
    expect(a.status).toBe(200);
    expect(b.body).toEqual(a.body);
    expect(fixture.upstream.requests).toHaveLength(2);
  });

  it('lets a hop whose model call failed be retried as is', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ status: 503 }, { text: 'Second time lucky.' });
    const body = { sessionId, context: {}, results: [result(actionId)], hop: 1 };
    const failed = await tenant.sdk.post('/agent/continue', body);
    expect(failed.status).toBe(502);
    expect(failed.body.error.code).toBe('AI_RELAY_ERROR');
    const retried = await tenant.sdk.post('/agent/continue', body);
    expect(retried.status).toBe(200);
    expect(retried.body.data.message.content).toBe('Second time lucky.');
  });

  it('answers 422 naming action ids that are not the turn\'s pending actions', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    const other = await startTurn(await fakeModelTenant(fixture));
    const response = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId), result('act_nope'), result(other.actionId)] });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.message).toContain('act_nope');
    expect(response.body.error.message).toContain(other.actionId);
    expect(response.body.error.message).not.toContain(`${actionId},`);
  });

  it('answers 422 for a bad body and 404 for an unknown or foreign session', async () => {
    const tenant = await fakeModelTenant(fixture);
    const other = await fakeModelTenant(fixture);
    const { sessionId } = await startTurn(other);
    const missing = await tenant.sdk.post('/agent/continue', { sessionId, results: [] });
    expect(missing.status).toBe(422);
    expect(missing.body.error.message).toContain('context');
    for (const id of [sessionId, 'ses_unknown']) {
      const response = await tenant.sdk.post('/agent/continue', { sessionId: id, context: {}, results: [] });
      expect(response.status).toBe(404);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers 422 UNSUPPORTED_MODEL when the project model cannot be used', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    await fixture.server.database.db.updateTable('projects').set({ model: 'openai:gpt-4o', model_base_url: null }).where('id', '=', tenant.projectId).execute();
    await announceProjectChange(fixture, tenant.projectId);
    const response = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId)] });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('UNSUPPORTED_MODEL');
  });

  it('moves an action pending → executing → completed, and failed with the reported reason', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    const executing = await tenant.sdk.post(`/agent/action/${actionId}/execute`);
    expect(executing.body).toEqual({ success: true, data: { actionId, type: 'navigate', payload: { screen: 'orders' }, status: 'executing' } });
    expect((await tenant.sdk.get(`/agent/session/${sessionId}/pending-actions`)).body.data.actions).toHaveLength(1);
    const completed = await tenant.sdk.post(`/agent/action/${actionId}/complete`, { success: true });
    expect(completed.body).toEqual({ success: true, data: { actionId, status: 'completed' } });
    expect((await tenant.sdk.get(`/agent/session/${sessionId}/pending-actions`)).body.data.actions).toEqual([]);
    const again = await tenant.sdk.post(`/agent/action/${actionId}/execute`);
    expect(again.status).toBe(409);
    const failed = await tenant.sdk.post(`/agent/action/${actionId}/complete`, { success: false, error: 'screen missing' });
    expect(failed.body.data.status).toBe('failed');
    const row = await fixture.server.database.db.selectFrom('agent_actions').selectAll().where('id', '=', actionId).executeTakeFirstOrThrow();
    expect([row.status, row.error]).toEqual(['failed', 'screen missing']);

    // Reported one by one, the latest hop's actions may still be sent again as the batch.
    fixture.upstream.enqueue({ text: 'ok' });
    const next = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId, false, { error: 'screen missing' })] });
    expect(next.status).toBe(200);
  });

  it('answers 404 for unknown and foreign action ids, and 422 for a bad complete body', async () => {
    const tenant = await fakeModelTenant(fixture);
    const other = await startTurn(await fakeModelTenant(fixture));
    for (const id of ['act_unknown', other.actionId]) {
      expect((await tenant.sdk.post(`/agent/action/${id}/execute`)).status).toBe(404);
      const complete = await tenant.sdk.post(`/agent/action/${id}/complete`, { success: true });
      expect(complete.status).toBe(404);
      expect(complete.body.error.code).toBe('NOT_FOUND');
    }
    expect((await tenant.sdk.get(`/agent/session/${other.sessionId}/pending-actions`)).status).toBe(404);
    const bad = await tenant.sdk.post(`/agent/action/${other.actionId}/complete`, { success: 'yes' });
    expect(bad.status).toBe(422);
    expect(bad.body.error.message).toContain('success');
  });

  it('fails actions left unreported past the project timeout with reason timeout', async () => {
    const tenant = await fakeModelTenant(fixture, { action_timeout_seconds: 120 });
    const { sessionId, actionId } = await startTurn(tenant);
    const row = await fixture.server.database.db.selectFrom('agent_actions').selectAll().where('id', '=', actionId).executeTakeFirstOrThrow();
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(120_000);
    await fixture.server.database.db.updateTable('agent_actions').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', actionId).execute();
    const pending = await tenant.sdk.get(`/agent/session/${sessionId}/pending-actions`);
    expect(pending.body.data.actions).toEqual([]);
    const expired = await fixture.server.database.db.selectFrom('agent_actions').selectAll().where('id', '=', actionId).executeTakeFirstOrThrow();
    expect([expired.status, expired.error]).toEqual(['failed', 'timeout']);
    // A late report for the latest hop is still taken: the app's word is last.
    fixture.upstream.enqueue({ text: 'ok' });
    const late = await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId)] });
    expect(late.status).toBe(200);
  });

  it('shows operators the whole conversation with each action and its outcome', async () => {
    const tenant = await fakeModelTenant(fixture);
    const { sessionId, actionId } = await startTurn(tenant);
    fixture.upstream.enqueue({ text: 'You are on orders.' });
    await tenant.sdk.post('/agent/continue', { sessionId, context: {}, results: [result(actionId, false, { error: 'no network' })] });
    const entries = await conversationForOperator(fixture.server.database.db, sessionId);
    expect(entries).toEqual([
      { id: expect.any(String), role: 'user', content: 'go to orders', createdAt: expect.any(String), actions: [] },
      { id: expect.any(String), role: 'assistant', content: 'Going.', createdAt: expect.any(String), actions: [{ id: actionId, type: 'navigate', payload: { screen: 'orders' }, status: 'failed', error: 'no network' }] },
      { id: expect.any(String), role: 'assistant', content: 'You are on orders.', createdAt: expect.any(String), actions: [] },
    ]);
    expect(await conversationForOperator(fixture.server.database.db, 'ses_unknown')).toEqual([]);
  });

  for (const route of [
    { method: 'POST', path: () => '/agent/continue', body: () => ({ sessionId: 'ses_x', context: {}, results: [] }) },
    { method: 'POST', path: () => '/agent/action/act_x/execute' },
    { method: 'POST', path: () => '/agent/action/act_x/complete', body: () => ({ success: true }) },
    { method: 'GET', path: () => '/agent/session/ses_x/pending-actions' },
  ]) {
    itRejectsBadCredentials(() => fixture.server, () => fakeModelTenant(fixture), { ...route, surface: 'sdk' });
  }
});

describe('GET /agent/session/:id/pending-actions on a broken store', () => {
  it('answers 500 RECOVER_PENDING_FAILED', async () => {
    const fixture = await startAgentFixture('sqlite');
    try {
      const tenant = await fakeModelTenant(fixture);
      const { body } = await tenant.sdk.post('/agent/session', {});
      await fixture.server.database.db.schema.dropTable('agent_actions').execute();
      const response = await tenant.sdk.get(`/agent/session/${body.data.sessionId}/pending-actions`);
      expect(response.status).toBe(500);
      expect(response.body).toEqual({ success: false, error: { code: 'RECOVER_PENDING_FAILED', message: expect.any(String) } });
    } finally {
      await fixture.close();
    }
  });
});
