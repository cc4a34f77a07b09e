import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('sessions on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('creates a session with 201 and keeps userId and deviceInfo', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session', { userId: 'user-1', deviceInfo: { os: 'ios', version: 17 } });
    expect(response.status).toBe(201);
    expect(response.body.success).toBe(true);
    const sessionId: string = response.body.data.sessionId;
    expect(sessionId).toMatch(/^ses_/);
    const row = await server.database.db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    expect(row.project_id).toBe(tenant.projectId);
    expect(row.user_id).toBe('user-1');
    expect(JSON.parse(row.device_info ?? 'null')).toEqual({ os: 'ios', version: 17 });
  });

  it('creates a session with no body at all', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session');
    expect(response.status).toBe(201);
  });

  it('ends a session; a second DELETE answers 404', async () => {
    const tenant = await createTenant(server);
    const { body } = await tenant.sdk.post('/agent/session', {});
    const first = await tenant.sdk.delete(`/agent/session/${body.data.sessionId}`);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { message: expect.any(String) } });
    const second = await tenant.sdk.delete(`/agent/session/${body.data.sessionId}`);
    expect(second.status).toBe(404);
    expect(second.body.error.code).toBe('NOT_FOUND');
  });

  it("answers 404, never 403, for another project's session", async () => {
    const owner = await createTenant(server);
    const other = await createTenant(server);
    const { body } = await owner.sdk.post('/agent/session', {});
    const response = await other.sdk.delete(`/agent/session/${body.data.sessionId}`);
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe('NOT_FOUND');
    const stillThere = await owner.sdk.delete(`/agent/session/${body.data.sessionId}`);
    expect(stillThere.status).toBe(200);
  });

  it('rejects a session create with a revoked key', async () => {
    const tenant = await createTenant(server);
    await server.database.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('project_id', '=', tenant.projectId).execute();
    // Fresh keys are not cached yet, so the revoke in the database is seen at once.
    const response = await tenant.sdk.post('/agent/session', {});
    expect(response.status).toBe(401);
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'POST', path: () => '/agent/session', body: () => ({}), surface: 'sdk' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'DELETE', path: () => '/agent/session/ses_x', surface: 'sdk' });
});
