import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';

/** A conversation through the agent (demo model): one session, one opening prompt. */
async function converse(tenant: Tenant, content: string): Promise<string> {
  const response = await tenant.sdk.post('/agent/message', { content, context: { currentScreen: 'home' } });
  expect(response.status).toBe(200);
  return response.body.data.sessionId as string;
}

describe.each(testDialects())('GET /admin/analytics on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: () => '/admin/analytics', surface: 'admin' });

  it('counts conversations per day, escalations, reply and resolution times, and top prompts', async () => {
    const tenant = await createTenant(server);
    expect((await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { popularPromptFloor: 2 })).status).toBe(200);
    const first = await converse(tenant, 'Track my order');
    await converse(tenant, 'Track my order');
    await converse(tenant, 'Only one person asked this');

    // Two escalations: one answered and resolved by an operator, one left waiting.
    const answered = (await tenant.sdk.post('/agent/escalation', { sessionId: first, reason: 'user_requested' })).body.data.escalationId as string;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect((await tenant.operator.post(`/escalations/${answered}/message`, { content: 'On it', operatorName: 'Ada' })).status).toBe(200);
    expect((await tenant.operator.post(`/escalations/${answered}/resolve`)).status).toBe(200);
    expect((await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' })).status).toBe(201);

    const response = await tenant.user.get('/admin/analytics?days=7');
    expect(response.status).toBe(200);
    const data = response.body.data;
    expect(data.days).toHaveLength(7);
    const today = new Date().toISOString().slice(0, 10);
    // The escalation without a session started a fourth conversation.
    expect(data.days.at(-1)).toEqual({ date: today, conversations: 4, escalations: 2 });
    expect(data.days.slice(0, -1).every((day: { conversations: number }) => day.conversations === 0)).toBe(true);
    expect(data.totals).toEqual({ conversations: 4, escalations: 2, escalationRate: 0.5 });
    expect(data.timeToFirstReply.count).toBe(1);
    expect(data.timeToFirstReply.medianSeconds).toBeGreaterThanOrEqual(0.02);
    expect(data.resolutionTime.count).toBe(1);
    expect(data.resolutionTime.medianSeconds).toBeGreaterThanOrEqual(data.timeToFirstReply.medianSeconds);
    // Below the privacy floor (2 conversations) a prompt is not shown.
    expect(data.topPrompts).toHaveLength(1);
    expect(data.topPrompts[0].prompt.toLowerCase()).toContain('track my order');
    expect(data.topPrompts[0].conversations).toBe(2);
  });

  it('scopes to one project of the workspace and hides other tenants', async () => {
    const tenant = await createTenant(server);
    const other = await createTenant(server);
    await converse(other, 'Hello there');
    const second = await createTenant(server, { workspaceId: tenant.workspaceId });
    await converse(second, 'Hello there');

    const all = await tenant.user.get('/admin/analytics?days=1');
    expect(all.body.data.totals.conversations).toBe(1);
    const own = await tenant.user.get(`/admin/analytics?days=1&projectId=${tenant.projectId}`);
    expect(own.body.data.totals).toEqual({ conversations: 0, escalations: 0, escalationRate: null });
    expect(own.body.data.timeToFirstReply).toEqual({ count: 0, medianSeconds: null, averageSeconds: null });
    const foreign = await tenant.user.get(`/admin/analytics?projectId=${other.projectId}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });

  it('rejects a bad window with a message naming the field', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.user.get('/admin/analytics?days=91');
    expect(response.status).toBe(422);
    expect(response.body.error.message).toContain('days');
  });
});
