import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('concurrent session creation (group commit) on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('stores every one of many concurrent sessions, each with its own fields', async () => {
    const tenant = await createTenant(server);
    const responses = await Promise.all(Array.from({ length: 60 }, (_, i) => tenant.sdk.post('/agent/session', { userId: `user-${i}`, deviceInfo: { n: i } })));
    expect(responses.map((r) => r.status)).toEqual(Array(60).fill(201));
    const ids = responses.map((r) => r.body.data.sessionId as string);
    expect(new Set(ids).size).toBe(60);
    const rows = await server.database.db.selectFrom('sessions').select(['id', 'user_id', 'device_info']).where('project_id', '=', tenant.projectId).execute();
    expect(rows).toHaveLength(60);
    for (const [i, id] of ids.entries()) {
      const row = rows.find((r) => r.id === id);
      expect(row).toMatchObject({ user_id: `user-${i}`, device_info: JSON.stringify({ n: i }) });
    }
  });

  it('fails only the rows that cannot be written when a batch mixes good and bad rows', async () => {
    const good = await createTenant(server);
    const doomed = await createTenant(server);
    // Authenticate once so the key is cached, then remove its project underneath:
    // its inserts now violate the foreign key, the other tenant's must not suffer.
    expect((await doomed.sdk.post('/agent/session', {})).status).toBe(201);
    await server.database.db.deleteFrom('projects').where('id', '=', doomed.projectId).execute();
    const mixed = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? good.sdk : doomed.sdk).post('/agent/session', { userId: `m${i}` })));
    mixed.forEach((response, i) => {
      if (i % 2 === 0) expect(response.status).toBe(201);
      else expect(response.status).toBe(500);
    });
    const rows = await server.database.db.selectFrom('sessions').select('id').where('project_id', '=', good.projectId).execute();
    expect(rows).toHaveLength(10);
  });
});
