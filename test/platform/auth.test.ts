import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';
import { createApiKey, revokeApiKey } from '../../src/keys/key-service.js';

describe.each(testDialects())('dashboard sign-in and credentials on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('signs in with the bootstrap credentials and lists the workspace', async () => {
    const tenant = await createTenant(server);
    const login = await server.anonymous.post('/auth/login', tenant.dashboard);
    expect(login.status).toBe(200);
    expect(login.body.data.token).toMatch(/^ut_/);
    expect(login.body.data.workspaces).toEqual([{ id: tenant.workspaceId, name: expect.any(String), role: 'owner' }]);
    expect(JSON.stringify(login.body)).not.toContain(tenant.dashboard.password);
    const me = await new ApiClient(server.url, { authorization: `Bearer ${login.body.data.token}` }).get('/auth/me');
    expect(me.status).toBe(200);
    expect(me.body.data.user.email).toBe(tenant.dashboard.email);
  });

  it('answers the same 401 for a wrong password and an unknown email', async () => {
    const tenant = await createTenant(server);
    const wrongPassword = await server.anonymous.post('/auth/login', { email: tenant.dashboard.email, password: 'not-the-password' });
    const unknownEmail = await server.anonymous.post('/auth/login', { email: 'nobody@example.com', password: 'whatever-password' });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(wrongPassword.body).toEqual(unknownEmail.body);
  });

  it('rejects a user token after sign-out', async () => {
    const tenant = await createTenant(server);
    const client = new ApiClient(server.url, { authorization: `Bearer ${tenant.userToken}` });
    expect((await client.post('/auth/logout')).status).toBe(200);
    const after = await client.get('/auth/me');
    expect(after.status).toBe(401);
    expect(after.body.error.code).toBe('UNAUTHORIZED');
  });

  it('rejects an expired user token with a message saying so', async () => {
    const tenant = await createTenant(server);
    // Expired a minute ago: long-dead tokens (a week) may be deleted by the cleanup job meanwhile.
    await server.database.db.updateTable('user_tokens').set({ expires_at: new Date(Date.now() - 60_000).toISOString() }).execute();
    const response = await new ApiClient(server.url, { authorization: `Bearer ${tenant.userToken}` }).get('/auth/me');
    expect(response.status).toBe(401);
    expect(response.body.error.message).toContain('expired');
  });

  it('rejects an API key on the user routes with WRONG_SCOPE', async () => {
    const tenant = await createTenant(server);
    const response = await new ApiClient(server.url, { authorization: `Bearer ${tenant.operatorKey}` }).get('/auth/me');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('WRONG_SCOPE');
  });

  it('rejects an API key once its expiry passes, even while it is cached', async () => {
    const tenant = await createTenant(server);
    const created = await createApiKey(server.database.db, { workspaceId: tenant.workspaceId, name: 'short-lived', scope: 'sdk', projectId: tenant.projectId, expiresAt: new Date(Date.now() + 1_000).toISOString() });
    const client = new ApiClient(server.url, { authorization: `Bearer ${created.key}` });
    expect((await client.post('/agent/session', {})).status).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const response = await client.post('/agent/session', {});
    expect(response.status).toBe(401);
    expect(response.body.error.message).toContain('expired');
  });

  it('rejects a revoked key at once, although it was cached', async () => {
    const tenant = await createTenant(server);
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    const keyId = (await server.database.db.selectFrom('api_keys').select('id').where('project_id', '=', tenant.projectId).executeTakeFirstOrThrow()).id;
    await revokeApiKey(server.database.db, server.bus, tenant.workspaceId, keyId);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const response = await tenant.sdk.post('/agent/session', {});
    expect(response.status).toBe(401);
  });

  it('stores only a hash of each key and records when a key was last used', async () => {
    const tenant = await createTenant(server);
    await tenant.sdk.post('/agent/session', {});
    const rows = await server.database.db.selectFrom('api_keys').selectAll().where('workspace_id', '=', tenant.workspaceId).execute();
    for (const row of rows) {
      expect(JSON.stringify(row)).not.toContain(tenant.sdkKey);
      expect(JSON.stringify(row)).not.toContain(tenant.operatorKey);
      expect(row.key_hash).toMatch(/^[0-9a-f]{64}$/);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    const sdkRow = await server.database.db.selectFrom('api_keys').select('last_used_at').where('project_id', '=', tenant.projectId).executeTakeFirstOrThrow();
    expect(sdkRow.last_used_at).not.toBeNull();
  });
});
