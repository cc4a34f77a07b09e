import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';

async function start(tenant: Tenant, body: Record<string, unknown> = { reason: 'user_requested' }) {
  const response = await tenant.sdk.post('/agent/escalation', body);
  expect(response.status).toBe(201);
  return response.body.data as { escalationId: string; sessionId: string };
}

/** A second operator key of the tenant's workspace (another operator identity). */
async function secondOperator(server: TestServer, tenant: Tenant) {
  const { createApiKey } = await import('../../src/keys/key-service.js');
  const created = await createApiKey(server.database.db, { workspaceId: tenant.workspaceId, name: 'Night shift', scope: 'operator' });
  return tenant.operator.with({ authorization: `Bearer ${created.key}` });
}

describe.each(testDialects())('escalation, operator side, on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('claims a pending escalation: active, claimedByName from operatorName or the key name', async () => {
    const tenant = await createTenant(server);
    const named = await start(tenant);
    const claim = await tenant.operator.post(`/escalations/${named.escalationId}/claim`, { operatorName: 'Alice' });
    expect(claim.status).toBe(200);
    expect(claim.body.data).toMatchObject({ escalationId: named.escalationId, status: 'active', claimedByName: 'Alice', claimedAt: expect.any(String) });
    const poll = await tenant.sdk.get(`/agent/escalation/${named.escalationId}`);
    expect(poll.body.data.status).toBe('active');

    const unnamed = await start(tenant);
    const byKey = await tenant.operator.post(`/escalations/${unnamed.escalationId}/claim`);
    expect(byKey.status).toBe(200);
    expect(byKey.body.data.claimedByName).toBe('Operator');
  });

  it('claim rules: same operator again → 200 unchanged; another operator → 409 ESCALATION_CLAIMED; resolved → 409 ESCALATION_RESOLVED', async () => {
    const tenant = await createTenant(server);
    const other = await secondOperator(server, tenant);
    const { escalationId } = await start(tenant);
    await tenant.operator.post(`/escalations/${escalationId}/claim`, { operatorName: 'Alice' });
    const again = await tenant.operator.post(`/escalations/${escalationId}/claim`, { operatorName: 'Alice again' });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ status: 'active', claimedByName: 'Alice' });
    const stolen = await other.post(`/escalations/${escalationId}/claim`, { operatorName: 'Bob' });
    expect(stolen.status).toBe(409);
    expect(stolen.body.error).toMatchObject({ code: 'ESCALATION_CLAIMED', message: expect.stringContaining('Alice') });
    // A dashboard user is another operator identity too.
    const byUser = await tenant.user.post(`/escalations/${escalationId}/claim`);
    expect(byUser.status).toBe(409);
    await tenant.operator.post(`/escalations/${escalationId}/resolve`);
    const late = await tenant.operator.post(`/escalations/${escalationId}/claim`);
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('ESCALATION_RESOLVED');
  });

  it('a reply auto-claims a pending escalation; colleagues may reply without taking the claim', async () => {
    const tenant = await createTenant(server);
    const other = await secondOperator(server, tenant);
    const { escalationId } = await start(tenant);
    const reply = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'Hi, I am here', operatorName: 'Alice' });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({ messageId: expect.stringMatching(/^emsg_/), createdAt: expect.any(String), escalation: { status: 'active', claimedByName: 'Alice' } });
    const colleague = await other.post(`/escalations/${escalationId}/message`, { content: 'Bob here too' });
    expect(colleague.status).toBe(200);
    expect(colleague.body.data.escalation.claimedByName).toBe('Alice');
    const detail = await tenant.operator.get(`/escalations/${escalationId}`);
    expect(detail.body.data.messages.map((m: any) => [m.role, m.content, m.operatorName])).toEqual([
      ['human_agent', 'Hi, I am here', 'Alice'],
      ['human_agent', 'Bob here too', 'Night shift'],
    ]);
  });

  it('resolve hands back (pending or active), is idempotent, and replies into it answer 409', async () => {
    const tenant = await createTenant(server);
    const pending = await start(tenant);
    const resolved = await tenant.operator.post(`/escalations/${pending.escalationId}/resolve`);
    expect(resolved.status).toBe(200);
    expect(resolved.body.data).toMatchObject({ status: 'resolved', resolvedBy: 'operator', resolvedAt: expect.any(String) });
    const again = await tenant.operator.post(`/escalations/${pending.escalationId}/resolve`);
    expect(again.status).toBe(200);
    expect(again.body.data.status).toBe('resolved');
    const reply = await tenant.operator.post(`/escalations/${pending.escalationId}/message`, { content: 'too late' });
    expect(reply.status).toBe(409);
    expect(reply.body.error.code).toBe('ESCALATION_RESOLVED');
    const userMessage = await tenant.sdk.post(`/agent/escalation/${pending.escalationId}/message`, { content: 'hello?' });
    expect(userMessage.status).toBe(409);

    const active = await start(tenant);
    await tenant.user.post(`/escalations/${active.escalationId}/claim`, { operatorName: 'Dashboard Dee' });
    const byUser = await tenant.user.post(`/escalations/${active.escalationId}/resolve`);
    expect(byUser.body.data).toMatchObject({ status: 'resolved', claimedByName: 'Dashboard Dee' });
  });

  it('validates operatorName (1–120) and content', async () => {
    const tenant = await createTenant(server);
    const { escalationId } = await start(tenant);
    for (const operatorName of ['', 'x'.repeat(121)]) {
      const claim = await tenant.operator.post(`/escalations/${escalationId}/claim`, { operatorName });
      expect(claim.status).toBe(422);
      expect(claim.body.error.message).toContain('body.operatorName');
      const reply = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'hi', operatorName });
      expect(reply.status).toBe(422);
    }
    const ok120 = await tenant.operator.post(`/escalations/${escalationId}/claim`, { operatorName: 'y'.repeat(120) });
    expect(ok120.status).toBe(200);
    const empty = await tenant.operator.post(`/escalations/${escalationId}/message`, { content: '' });
    expect(empty.status).toBe(422);
    expect(empty.body.error.message).toContain('body.content');
  });

  it('lists the queue: open by default, newest activity first, resolved on request, by project, paginated', async () => {
    const tenant = await createTenant(server);
    const second = await createTenant(server, { workspaceId: tenant.workspaceId });
    const a = await start(tenant);
    const b = await start(tenant);
    const c = await start(second);
    const d = await start(tenant);
    await tenant.sdk.post(`/agent/escalation/${d.escalationId}/abandon`);
    await tenant.sdk.post(`/agent/escalation/${a.escalationId}/message`, { content: 'bump' });

    const open = await tenant.operator.get('/escalations');
    expect(open.status).toBe(200);
    expect(open.body.data.escalations.map((e: any) => e.escalationId)).toEqual([a.escalationId, c.escalationId, b.escalationId]);
    expect(open.body.data.nextCursor).toBeNull();
    expect(open.body.data.escalations[0]).toMatchObject({ status: 'pending', claimedByName: null, reason: 'user_requested', projectId: tenant.projectId });

    const resolved = await tenant.user.get('/escalations?status=resolved');
    expect(resolved.body.data.escalations.map((e: any) => e.escalationId)).toEqual([d.escalationId]);

    const byProject = await tenant.operator.get(`/escalations?projectId=${second.projectId}`);
    expect(byProject.body.data.escalations.map((e: any) => e.escalationId)).toEqual([c.escalationId]);

    const page1 = await tenant.operator.get('/escalations?limit=2');
    expect(page1.body.data.escalations).toHaveLength(2);
    const page2 = await tenant.operator.get(`/escalations?limit=2&cursor=${page1.body.data.nextCursor}`);
    expect(page2.body.data.escalations.map((e: any) => e.escalationId)).toEqual([b.escalationId]);
    expect(page2.body.data.nextCursor).toBeNull();

    expect((await tenant.operator.get('/escalations?status=closed')).status).toBe(422);
    expect((await tenant.operator.get('/escalations?cursor=garbage')).status).toBe(422);
    const foreignProject = await createTenant(server);
    expect((await tenant.operator.get(`/escalations?projectId=${foreignProject.projectId}`)).status).toBe(404);
  });

  it('shows the detail: escalation, identified user with identifiers, conversation and transcript', async () => {
    const tenant = await createTenant(server);
    await server.database.db.insertInto('end_users').values({
      id: 'eus_detail_test_' + tenant.projectId, project_id: tenant.projectId, user_id: 'u-42', name: 'Ada Lovelace',
      identifiers: JSON.stringify({ email: 'ada@example.com' }), created_at: new Date().toISOString(), updated_at: new Date().toISOString(),
    }).execute();
    const session = await tenant.sdk.post('/agent/session', { userId: 'u-42' });
    const { escalationId } = await start(tenant, { sessionId: session.body.data.sessionId, reason: 'agent_gave_up', note: 'loops on checkout' });
    await tenant.sdk.post(`/agent/escalation/${escalationId}/message`, { content: 'help me' });
    await tenant.operator.post(`/escalations/${escalationId}/message`, { content: 'on it', operatorName: 'Alice' });
    const detail = await tenant.operator.get(`/escalations/${escalationId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.data.escalation).toMatchObject({ escalationId, status: 'active', claimedByName: 'Alice', reason: 'agent_gave_up', note: 'loops on checkout' });
    expect(detail.body.data.user).toEqual({ userId: 'u-42', name: 'Ada Lovelace', identifiers: { email: 'ada@example.com' } });
    expect(Array.isArray(detail.body.data.conversation)).toBe(true);
    expect(detail.body.data.messages).toEqual([
      { id: expect.any(String), role: 'user', content: 'help me', operatorName: null, createdAt: expect.any(String) },
      { id: expect.any(String), role: 'human_agent', content: 'on it', operatorName: 'Alice', createdAt: expect.any(String) },
    ]);
    const anonymous = await start(tenant);
    expect((await tenant.operator.get(`/escalations/${anonymous.escalationId}`)).body.data.user).toBeNull();
  });

  it("answers 404 for another workspace's escalation on every operator route, and leaves it untouched", async () => {
    const owner = await createTenant(server);
    const other = await createTenant(server);
    const { escalationId } = await start(owner);
    for (const client of [other.operator, other.user]) {
      const responses = [
        await client.get(`/escalations/${escalationId}`),
        await client.post(`/escalations/${escalationId}/claim`, {}),
        await client.post(`/escalations/${escalationId}/message`, { content: 'hi' }),
        await client.post(`/escalations/${escalationId}/resolve`),
      ];
      for (const response of responses) {
        expect(response.status).toBe(404);
        expect(response.body.error.code).toBe('NOT_FOUND');
      }
      expect((await client.get('/escalations')).body.data.escalations).toEqual([]);
    }
    // A user token with a workspace the user is not a member of.
    const wrongWorkspace = owner.user.with({ 'x-workspace-id': other.workspaceId });
    expect((await wrongWorkspace.get('/escalations')).status).toBe(404);
    expect((await owner.sdk.get(`/agent/escalation/${escalationId}`)).body.data.status).toBe('pending');
  });

  const operatorRoutes = [
    { method: 'GET', path: () => '/escalations' },
    { method: 'GET', path: () => '/escalations/stream' },
    { method: 'GET', path: () => '/escalations/esc_x' },
    { method: 'POST', path: () => '/escalations/esc_x/claim', body: () => ({}) },
    { method: 'POST', path: () => '/escalations/esc_x/message', body: () => ({ content: 'hi' }) },
    { method: 'POST', path: () => '/escalations/esc_x/resolve' },
  ];
  for (const route of operatorRoutes) itRejectsBadCredentials(() => server, () => createTenant(server), { ...route, surface: 'operator' });
});
