import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

/** Turns finishing at the same moment share one commit (CommitBatcher); each must still stand alone. */
describe.each(testDialects())('concurrent message turns (group commit) on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('stores every one of many concurrent turns with its own messages', async () => {
    const tenant = await createTenant(server);
    const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => tenant.sdk.post('/agent/message', { content: `question ${i}` })));
    expect(responses.map((r) => r.status)).toEqual(Array(40).fill(200));
    const db = server.database.db;
    for (const [i, response] of responses.entries()) {
      const stored = await db.selectFrom('agent_messages').select(['id', 'role', 'content']).where('session_id', '=', response.body.data.sessionId).orderBy('seq').execute();
      expect(stored.map((m) => [m.role, m.role === 'user' ? m.content : m.id])).toEqual([
        ['user', `question ${i}`],
        ['assistant', response.body.data.message.id],
      ]);
    }
  });

  it('fails only the turns that cannot be written when a batch mixes good and bad ones', async () => {
    const good = await createTenant(server);
    const doomed = await createTenant(server);
    // One message caches the key and the project; removing the project underneath makes
    // the doomed tenant's writes violate foreign keys. The other tenant's must not suffer.
    expect((await doomed.sdk.post('/agent/message', { content: 'hi' })).status).toBe(200);
    await server.database.db.deleteFrom('projects').where('id', '=', doomed.projectId).execute();
    const mixed = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? good.sdk : doomed.sdk).post('/agent/message', { content: `m${i}` })));
    mixed.forEach((response, i) => expect(response.status).toBe(i % 2 === 0 ? 200 : 500));
    const turns = await server.database.db.selectFrom('agent_turns').select('id').where('project_id', '=', good.projectId).execute();
    expect(turns).toHaveLength(10);
  });
});
