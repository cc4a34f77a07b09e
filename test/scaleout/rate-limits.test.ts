import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

// Small buckets that barely refill, so a handful of requests shows the limit.
const rateLimits = {
  enabled: true,
  agentMessage: { capacity: 2, refillPerSecond: 0.01 },
  default: { capacity: 3, refillPerSecond: 0.01 },
};

describe.each(testDialects())('rate limits on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { rateLimits });
  });
  afterAll(() => server.close());

  it('answers 429 RATE_LIMITED with Retry-After and the envelope once a key empties its bucket', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 3; i++) expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    const refused = await tenant.sdk.post('/agent/session', {});
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ success: false, error: { code: 'RATE_LIMITED', message: expect.stringContaining('retry after') } });
    // 1 token at 0.01/s takes 100 s.
    expect(Number(refused.headers.get('retry-after'))).toBe(100);
  });

  it('keeps agent messages in their own bucket: an empty agent-message bucket leaves other routes open', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 2; i++) expect((await tenant.sdk.post('/agent/message', { content: 'hello' })).status).toBe(200);
    const refused = await tenant.sdk.post('/agent/message', { content: 'hello' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toContain('agent-message');
    // The stream and continue routes share the agent-message bucket...
    expect((await tenant.sdk.post('/agent/message/stream', { content: 'hello' })).status).toBe(429);
    expect((await tenant.sdk.post('/agent/continue', { sessionId: 'ses_x', results: [], context: {} })).status).toBe(429);
    // ...while the default class still has its 3 tokens.
    for (let i = 0; i < 3; i++) expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
  });

  it('refuses before reading the body: a refused request writes nothing', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 3; i++) await tenant.sdk.post('/agent/session', {});
    const refused = await tenant.sdk.post('/agent/session', '{"userId": ', { 'content-type': 'application/json' });
    expect(refused.status).toBe(429);
    const rows = await server.database.db.selectFrom('sessions').select('id').where('project_id', '=', tenant.projectId).execute();
    expect(rows).toHaveLength(3);
  });

  it('keeps one bucket per key: another key of another tenant is not affected', async () => {
    const first = await createTenant(server);
    const second = await createTenant(server);
    for (let i = 0; i < 4; i++) await first.sdk.post('/agent/session', {});
    expect((await first.sdk.post('/agent/session', {})).status).toBe(429);
    expect((await second.sdk.post('/agent/session', {})).status).toBe(201);
  });

  it('gives dashboard user tokens a bucket per user', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 3; i++) expect((await tenant.user.get('/auth/me')).status).toBe(200);
    const refused = await tenant.user.get('/auth/me');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
    // The same workspace's sdk key has its own bucket.
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
  });

  it('does not limit unauthenticated routes or requests rejected by auth', async () => {
    for (let i = 0; i < 8; i++) {
      expect((await server.anonymous.get('/health')).status).toBe(200);
      expect((await server.anonymous.get('/ready')).status).toBe(200);
    }
    const tenant = await createTenant(server);
    const badKey = tenant.sdk.with({ authorization: 'Bearer ak_notarealkeyatallnotarealkeyatallnotarealkey' });
    for (let i = 0; i < 5; i++) expect((await badKey.post('/agent/session', {})).status).toBe(401);
  });

  it('applies the project override from projects.rate_limits over the defaults', async () => {
    const tenant = await createTenant(server);
    await server.database.db
      .updateTable('projects')
      .set({ rate_limits: JSON.stringify({ default: { capacity: 6, refillPerSecond: 0.02 } }) })
      .where('id', '=', tenant.projectId)
      .execute();
    for (let i = 0; i < 6; i++) expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    const refused = await tenant.sdk.post('/agent/session', {});
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBe(50);
  });

  it('applies an override saved through the admin API at once, despite the cached limits', async () => {
    const tenant = await createTenant(server);
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    const saved = await tenant.user.patch(`/admin/projects/${tenant.projectId}`, { rateLimits: { default: { capacity: 1, refillPerSecond: 0.01 } } });
    expect(saved.status).toBe(200);
    // 2 of the old 3 tokens left, capped at the new capacity: one more request, then 429.
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(429);
  });

  it('ignores a malformed project override instead of lifting the limit', async () => {
    const tenant = await createTenant(server);
    await server.database.db
      .updateTable('projects')
      .set({ rate_limits: JSON.stringify({ default: { capacity: -1, refillPerSecond: 'fast' } }) })
      .where('id', '=', tenant.projectId)
      .execute();
    for (let i = 0; i < 3; i++) expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
    expect((await tenant.sdk.post('/agent/session', {})).status).toBe(429);
  });
});

describe('rate limits switched off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer('sqlite', { rateLimits: { ...rateLimits, enabled: false } });
  });
  afterAll(() => server.close());

  it('never answers 429 when PARLEY_RATE_LIMITS_ENABLED is false', async () => {
    const tenant = await createTenant(server);
    for (let i = 0; i < 6; i++) expect((await tenant.sdk.post('/agent/session', {})).status).toBe(201);
  });
});
