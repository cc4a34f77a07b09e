import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOpenEscalationId } from '../../src/escalations/escalation-guard.js';
import { humanExchangesForHistory } from '../../src/escalations/handback.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';

async function start(tenant: Tenant, body: Record<string, unknown> = { reason: 'user_requested' }) {
  const response = await tenant.sdk.post('/agent/escalation', body);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { escalationId: string; sessionId: string; status: string };
}

describe.each(testDialects())('escalation, end-user side, on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('starts a pending escalation on a new session when sessionId is omitted', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up', note: 'asked twice about refunds' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({ success: true, data: { escalationId: expect.stringMatching(/^esc_/), sessionId: expect.stringMatching(/^ses_/), status: 'pending' } });
  });

  it('resumes the open escalation of a session with 200 and the same id', async () => {
    const tenant = await createTenant(server);
    const { body } = await tenant.sdk.post('/agent/session', {});
    const first = await tenant.sdk.post('/agent/escalation', { sessionId: body.data.sessionId, reason: 'user_requested' });
    const second = await tenant.sdk.post('/agent/escalation', { sessionId: body.data.sessionId, reason: 'agent_gave_up' });
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.data).toEqual(first.body.data);
  });

  it('gives twenty concurrent starts one escalation: one 201 and nineteen 200s', async () => {
    const tenant = await createTenant(server);
    const { body } = await tenant.sdk.post('/agent/session', {});
    const responses = await Promise.all(Array.from({ length: 20 }, () => tenant.sdk.post('/agent/escalation', { sessionId: body.data.sessionId, reason: 'user_requested' })));
    expect(responses.map((r) => r.status).sort()).toEqual([...Array(19).fill(200), 201]);
    expect(new Set(responses.map((r) => r.body.data.escalationId)).size).toBe(1);
    const rows = await server.database.db.selectFrom('escalations').select('id').where('session_id', '=', body.data.sessionId).execute();
    expect(rows).toHaveLength(1);
  });

  it('starts a new escalation on the session once the previous one is resolved', async () => {
    const tenant = await createTenant(server);
    const first = await start(tenant);
    await tenant.sdk.post(`/agent/escalation/${first.escalationId}/abandon`);
    const second = await tenant.sdk.post('/agent/escalation', { sessionId: first.sessionId, reason: 'user_requested' });
    expect(second.status).toBe(201);
    expect(second.body.data.escalationId).not.toBe(first.escalationId);
  });

  it('rejects a bad reason, an oversize note, an unknown or ended session', async () => {
    const tenant = await createTenant(server);
    const badReason = await tenant.sdk.post('/agent/escalation', { reason: 'bored' });
    expect(badReason.status).toBe(422);
    expect(badReason.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('body.reason') });
    const noReason = await tenant.sdk.post('/agent/escalation', {});
    expect(noReason.status).toBe(422);
    expect(noReason.body.error.message).toContain('reason');
    const longNote = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested', note: 'x'.repeat(2001) });
    expect(longNote.status).toBe(422);
    expect(longNote.body.error.message).toContain('body.note');
    const unknown = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested', sessionId: 'ses_nope' });
    expect(unknown.status).toBe(404);
    const { body } = await tenant.sdk.post('/agent/session', {});
    await tenant.sdk.delete(`/agent/session/${body.data.sessionId}`);
    const ended = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested', sessionId: body.data.sessionId });
    expect(ended.status).toBe(404);
  });

  it('takes end-user messages (201 {messageId}) and shows them in the full poll history', async () => {
    const tenant = await createTenant(server);
    const escalation = await start(tenant);
    const sent = await tenant.sdk.post(`/agent/escalation/${escalation.escalationId}/message`, { content: 'hello, anyone?' });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({ success: true, data: { messageId: expect.stringMatching(/^emsg_/) } });
    const poll = await tenant.sdk.get(`/agent/escalation/${escalation.escalationId}`);
    expect(poll.status).toBe(200);
    expect(poll.body.data).toEqual({
      escalationId: escalation.escalationId,
      sessionId: escalation.sessionId,
      status: 'pending',
      messages: [{ id: sent.body.data.messageId, role: 'user', content: 'hello, anyone?', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) }],
    });
  });

  it('rejects empty, blank and oversize message content with 422 naming content', async () => {
    const tenant = await createTenant(server);
    const escalation = await start(tenant);
    for (const content of ['', '   ', 'x'.repeat(8001)]) {
      const response = await tenant.sdk.post(`/agent/escalation/${escalation.escalationId}/message`, { content });
      expect(response.status).toBe(422);
      expect(response.body.error.message).toContain('body.content');
    }
    const missing = await tenant.sdk.post(`/agent/escalation/${escalation.escalationId}/message`, {});
    expect(missing.status).toBe(422);
  });

  it('poll with since returns only operator messages created after it', async () => {
    const tenant = await createTenant(server);
    const escalation = await start(tenant);
    const id = escalation.escalationId;
    await tenant.sdk.post(`/agent/escalation/${id}/message`, { content: 'u1' });
    const o1 = await tenant.operator.post(`/escalations/${id}/message`, { content: 'o1' });
    await tenant.sdk.post(`/agent/escalation/${id}/message`, { content: 'u2' });
    const o2 = await tenant.operator.post(`/escalations/${id}/message`, { content: 'o2' });
    const all = await tenant.sdk.get(`/agent/escalation/${id}`);
    expect(all.body.data.messages.map((m: any) => `${m.role}:${m.content}`)).toEqual(['user:u1', 'human_agent:o1', 'user:u2', 'human_agent:o2']);
    const after = await tenant.sdk.get(`/agent/escalation/${id}?since=${encodeURIComponent(o1.body.data.createdAt)}`);
    expect(after.body.data.messages).toEqual([{ id: o2.body.data.messageId, role: 'human_agent', content: 'o2', createdAt: o2.body.data.createdAt }]);
    const early = await tenant.sdk.get(`/agent/escalation/${id}?since=2000-01-01T00:00:00Z`);
    expect(early.body.data.messages.map((m: any) => m.content)).toEqual(['o1', 'o2']);
    const bad = await tenant.sdk.get(`/agent/escalation/${id}?since=yesterday`);
    expect(bad.status).toBe(422);
    expect(bad.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('since') });
  });

  it('gives messages strictly increasing createdAt, so since never splits a tie', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    const replies = await Promise.all(Array.from({ length: 10 }, (_, i) => tenant.operator.post(`/escalations/${escalationId}/message`, { content: `r${i}` })));
    const times = replies.map((r) => r.body.data.createdAt as string).sort();
    expect(new Set(times).size).toBe(10);
    // Reconnecting after each one in turn sees exactly the rest.
    for (let i = 0; i < times.length; i++) {
      const poll = await tenant.sdk.get(`/agent/escalation/${escalationId}?since=${encodeURIComponent(times[i]!)}`);
      expect(poll.body.data.messages.map((m: any) => m.createdAt)).toEqual(times.slice(i + 1));
    }
  });

  it('abandon resolves (pending and active) and is idempotent; messages into it then answer 409', async () => {
    const tenant = await createTenant(server);
    const pending = await start(tenant);
    const first = await tenant.sdk.post(`/agent/escalation/${pending.escalationId}/abandon`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { status: 'resolved' } });
    const again = await tenant.sdk.post(`/agent/escalation/${pending.escalationId}/abandon`, '', { 'content-type': 'application/json' });
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('resolved');
    const message = await tenant.sdk.post(`/agent/escalation/${pending.escalationId}/message`, { content: 'still there?' });
    expect(message.status).toBe(409);
    expect(message.body.error.code).toBe('ESCALATION_RESOLVED');

    const active = await start(tenant);
    await tenant.operator.post(`/escalations/${active.escalationId}/claim`, {});
    const abandoned = await tenant.sdk.post(`/agent/escalation/${active.escalationId}/abandon`);
    expect(abandoned.body.data.status).toBe('resolved');
    const poll = await tenant.sdk.get(`/agent/escalation/${active.escalationId}`);
    expect(poll.body.data.status).toBe('resolved');
  });

  it("answers 404 for unknown ids and another project's escalation on every route", async () => {
    const owner = await createTenant(server);
    const other = await createTenant(server);
    const { escalationId } = await start(owner);
    for (const id of [escalationId, 'esc_unknown']) {
      const checks = [
        await other.sdk.post(`/agent/escalation/${id}/message`, { content: 'hi' }),
        await other.sdk.get(`/agent/escalation/${id}`),
        await other.sdk.get(`/agent/escalation/${id}/stream`),
        await other.sdk.post(`/agent/escalation/${id}/abandon`),
      ];
      for (const response of checks) {
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
      }
    }
    const stillOpen = await owner.sdk.get(`/agent/escalation/${escalationId}`);
    expect(stillOpen.body.data.status).toBe('pending');
  });

  it('exposes the open escalation to the agent guard, and resolved exchanges for hand-back', async () => {
    const tenant = await createTenant(server);
    const { escalationId, sessionId } = await start(tenant);
    expect(await findOpenEscalationId(server.database.db, sessionId)).toBe(escalationId);
    await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'my order is late' });
    await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'refund issued', operatorName: 'Dana' });
    expect(await humanExchangesForHistory(server.database.db, sessionId)).toEqual([]);
    await tenant.operator.post(`/escalations/${escalationId}/resolve`);
    expect(await findOpenEscalationId(server.database.db, sessionId)).toBeNull();
    const exchanges = await humanExchangesForHistory(server.database.db, sessionId);
    expect(exchanges).toEqual([{
      escalationId,
      startedAt: expect.any(String),
      resolvedAt: expect.any(String),
      messages: [
        { role: 'user', content: 'my order is late', operatorName: null, createdAt: expect.any(String) },
        { role: 'human_agent', content: 'refund issued', operatorName: 'Dana', createdAt: expect.any(String) },
      ],
    }]);
  });

  const sdkRoutes = [
    { method: 'POST', path: () => '/agent/escalation', body: () => ({ reason: 'user_requested' }) },
    { method: 'POST', path: () => '/agent/escalation/esc_x/message', body: () => ({ content: 'hi' }) },
    { method: 'GET', path: () => '/agent/escalation/esc_x' },
    { method: 'GET', path: () => '/agent/escalation/esc_x/stream' },
    { method: 'POST', path: () => '/agent/escalation/esc_x/abandon' },
  ];
  for (const route of sdkRoutes) itRejectsBadCredentials(() => server, () => createTenant(server), { ...route, surface: 'sdk' });
});
