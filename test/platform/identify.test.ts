import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findEndUser, findEndUserForSession } from '../../src/identify/end-user-repository.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('POST /agent/identify on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('upserts by userId per project and answers { identified: true }', async () => {
    const tenant = await createTenant(server);
    const first = await tenant.sdk.post('/agent/identify', { userId: 'u-1', name: 'Ada', identifiers: { email: 'ada@example.com' } });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ success: true, data: { identified: true } });
    const second = await tenant.sdk.post('/agent/identify', { userId: 'u-1', identifiers: { phone: '+44 20 7946 0000' } });
    expect(second.status).toBe(200);
    const stored = await findEndUser(server.database.db, tenant.projectId, 'u-1');
    // Omitted name keeps the stored one; identifiers sent replace the stored map.
    expect(stored).toMatchObject({ userId: 'u-1', name: 'Ada', identifiers: { phone: '+44 20 7946 0000' } });
    const rows = await server.database.db.selectFrom('end_users').select('id').where('project_id', '=', tenant.projectId).execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps the same userId apart in two projects', async () => {
    const a = await createTenant(server);
    const b = await createTenant(server);
    await a.sdk.post('/agent/identify', { userId: 'same', name: 'In A' });
    await b.sdk.post('/agent/identify', { userId: 'same', name: 'In B' });
    expect((await findEndUser(server.database.db, a.projectId, 'same'))?.name).toBe('In A');
    expect((await findEndUser(server.database.db, b.projectId, 'same'))?.name).toBe('In B');
  });

  it('links a session created with that userId to the person', async () => {
    const tenant = await createTenant(server);
    const session = await tenant.sdk.post('/agent/session', { userId: 'linked' });
    await tenant.sdk.post('/agent/identify', { userId: 'linked', name: 'Grace' });
    const person = await findEndUserForSession(server.database.db, tenant.projectId, session.body.data.sessionId);
    expect(person?.name).toBe('Grace');
  });

  it('accepts 20 identifiers and refuses 21 with 422 naming the field', async () => {
    const tenant = await createTenant(server);
    const twenty = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, 'v']));
    expect((await tenant.sdk.post('/agent/identify', { userId: 'u', identifiers: twenty })).status).toBe(200);
    const response = await tenant.sdk.post('/agent/identify', { userId: 'u', identifiers: { ...twenty, k20: 'v' } });
    expect(response.status).toBe(422);
    expect(response.body.error).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.stringContaining('body.identifiers') });
  });

  it('refuses bad keys, values and fields with 422 naming the field', async () => {
    const tenant = await createTenant(server);
    const cases: Array<[unknown, string]> = [
      [{ userId: 'u', identifiers: { ['k'.repeat(65)]: 'v' } }, 'body.identifiers'],
      [{ userId: 'u', identifiers: { '': 'v' } }, 'body.identifiers'],
      [{ userId: 'u', identifiers: { email: 'x'.repeat(513) } }, 'body.identifiers'],
      [{ userId: 'u', identifiers: { n: 5 } }, 'body.identifiers'],
      [{ userId: 'u', identifiers: ['a'] }, 'body.identifiers'],
      [{ name: 'no id' }, 'body.userId'],
      [{ userId: '' }, 'body.userId'],
      [{ userId: 'u', name: 7 }, 'body.name'],
    ];
    for (const [body, field] of cases) {
      const response = await tenant.sdk.post('/agent/identify', body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(response.body.error.message).toContain(field);
    }
    expect(await findEndUser(server.database.db, tenant.projectId, 'u')).toBeUndefined();
    const okKey = await tenant.sdk.post('/agent/identify', { userId: 'u', identifiers: { ['k'.repeat(64)]: 'x'.repeat(512) } });
    expect(okKey.status).toBe(200);
  });

  it('is write-only: no route reads identified users with an sdk key', async () => {
    const tenant = await createTenant(server);
    await tenant.sdk.post('/agent/identify', { userId: 'u' });
    expect((await tenant.sdk.get('/agent/identify')).status).toBe(404);
    expect((await tenant.sdk.get(`/admin/projects/${tenant.projectId}/end-users`)).status).toBe(403);
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'POST', path: () => '/agent/identify', body: () => ({ userId: 'u' }), surface: 'sdk' });
});
