import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../support/api-client.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('admin keys and identified users on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('creates a key shown once, lists it without the key, revokes it at once', async () => {
    const tenant = await createTenant(server);
    const created = await tenant.user.post('/admin/keys', { name: 'Mobile app', scope: 'sdk', projectId: tenant.projectId, expiresAt: '2999-01-01T00:00:00Z' });
    expect(created.status).toBe(201);
    const key: string = created.body.data.key;
    expect(key).toMatch(/^ak_/);
    expect(created.body.data).toMatchObject({ name: 'Mobile app', scope: 'sdk', projectId: tenant.projectId, prefix: key.slice(0, 11), expiresAt: '2999-01-01T00:00:00.000Z', revokedAt: null, lastUsedAt: null });

    const client = new ApiClient(server.url, { authorization: `Bearer ${key}` });
    expect((await client.post('/agent/session', {})).status).toBe(201);

    const list = await tenant.user.get('/admin/keys');
    expect(list.status).toBe(200);
    expect(JSON.stringify(list.body)).not.toContain(key);
    const listed = list.body.data.keys.find((k: { id: string }) => k.id === created.body.data.id);
    expect(listed).toMatchObject({ name: 'Mobile app', scope: 'sdk', projectId: tenant.projectId, createdAt: expect.any(String), expiresAt: '2999-01-01T00:00:00.000Z', revokedAt: null });
    expect(listed).not.toHaveProperty('key');
    expect(list.body.data.keys).toHaveLength(3);
    expect((await tenant.user.get(`/admin/keys?projectId=${tenant.projectId}`)).body.data.keys).toHaveLength(2);

    const revoked = await tenant.user.post(`/admin/keys/${created.body.data.id}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.data.revokedAt).toEqual(expect.any(String));
    await new Promise((resolve) => setImmediate(resolve));
    expect((await client.post('/agent/session', {})).status).toBe(401);
    const again = await tenant.user.post(`/admin/keys/${created.body.data.id}/revoke`);
    expect(again.body.data.revokedAt).toBe(revoked.body.data.revokedAt);
  });

  it('creates operator keys and refuses bad key requests with 422', async () => {
    const tenant = await createTenant(server);
    const operator = await tenant.user.post('/admin/keys', { name: 'Helpdesk', scope: 'operator' });
    expect(operator.status).toBe(201);
    expect(operator.body.data.projectId).toBeNull();
    for (const [body, text] of [
      [{ name: 'x', scope: 'sdk' }, 'projectId'],
      [{ name: 'x', scope: 'operator', projectId: tenant.projectId }, 'projectId'],
      [{ name: '', scope: 'operator' }, 'body.name'],
      [{ name: 'x', scope: 'root' }, 'body.scope'],
      [{ name: 'x', scope: 'operator', expiresAt: '2001-01-01T00:00:00Z' }, 'expiresAt'],
      [{ name: 'x', scope: 'operator', expiresAt: 'tomorrow' }, 'body.expiresAt'],
    ] as const) {
      const response = await tenant.user.post('/admin/keys', body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.message).toContain(text);
    }
  });

  it("answers 404 for another workspace's keys and projects", async () => {
    const a = await createTenant(server);
    const b = await createTenant(server);
    const bKeys = await b.user.get('/admin/keys');
    const bKeyId = bKeys.body.data.keys[0].id;
    expect((await a.user.post(`/admin/keys/${bKeyId}/revoke`)).status).toBe(404);
    expect((await a.user.post('/admin/keys', { name: 'x', scope: 'sdk', projectId: b.projectId })).status).toBe(404);
    expect((await a.user.get(`/admin/projects/${b.projectId}/end-users`)).status).toBe(404);
    expect((await b.user.get('/admin/keys')).body.data.keys.every((k: { revokedAt: string | null }) => k.revokedAt === null)).toBe(true);
  });

  it('lists identified users with search and cursor pages, shows and deletes one', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 5; i++) await tenant.sdk.post('/agent/identify', { userId: `user-${i}`, name: i === 3 ? 'Grace Hopper' : `Person ${i}`, identifiers: { email: `p${i}@example.com` } });
    await tenant.sdk.post('/agent/session', { userId: 'user-3' });
    const base = `/admin/projects/${tenant.projectId}/end-users`;

    // Pages of 2, newest first (ids sort by creation time), until nextCursor is null.
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: any } = await tenant.user.get(`${base}?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      pages.push(page.body.data.endUsers.map((u: { userId: string }) => u.userId));
      cursor = page.body.data.nextCursor;
    } while (cursor !== null && pages.length < 10);
    expect(pages.map((page) => page.length)).toEqual([2, 2, 1]);
    expect(pages.flat().sort()).toEqual(['user-0', 'user-1', 'user-2', 'user-3', 'user-4']);

    expect((await tenant.user.get(`${base}?search=GRACE`)).body.data.endUsers.map((u: { userId: string }) => u.userId)).toEqual(['user-3']);
    expect((await tenant.user.get(`${base}?search=user-1`)).body.data.endUsers).toHaveLength(1);
    expect((await tenant.user.get(`${base}?search=%25`)).body.data.endUsers).toHaveLength(0);

    const one = await tenant.user.get(`${base}/user-3`);
    expect(one.body.data).toMatchObject({ userId: 'user-3', name: 'Grace Hopper', identifiers: { email: 'p3@example.com' }, sessions: [{ sessionId: expect.stringMatching(/^ses_/), endedAt: null }] });

    expect((await tenant.user.delete(`${base}/user-3`)).status).toBe(200);
    expect((await tenant.user.get(`${base}/user-3`)).status).toBe(404);
    expect((await tenant.user.delete(`${base}/user-3`)).status).toBe(404);
    expect((await tenant.user.get(`${base}?limit=101`)).status).toBe(422);
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: () => '/admin/keys', surface: 'admin' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'POST', path: () => '/admin/keys', body: () => ({ name: 'x', scope: 'operator' }), surface: 'admin' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: (t) => `/admin/projects/${t.projectId}/end-users`, surface: 'admin' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'DELETE', path: (t) => `/admin/projects/${t.projectId}/end-users/u`, surface: 'admin' });
});
