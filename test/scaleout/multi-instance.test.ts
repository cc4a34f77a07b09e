import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ApiClient } from '../support/api-client.js';
import { clusterSkipReason, createCluster, type Cluster } from '../support/cluster.js';
import { bootstrapInto, type ServerProcess } from '../support/server-process.js';
import { eventually } from '../support/eventually.js';

const skipReason = clusterSkipReason();
if (skipReason) console.log(`[parley tests] multi-instance suite SKIPPED: ${skipReason}`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


function sdkClient(server: ServerProcess, sdkKey: string): ApiClient {
  return new ApiClient(server.url, { authorization: `Bearer ${sdkKey}` });
}

describe.skipIf(skipReason !== null)('several real instances on one PostgreSQL and one Redis', () => {
  let cluster: Cluster;
  let a: ServerProcess;
  let b: ServerProcess;
  let c: ServerProcess;
  let sql: pg.Client;

  beforeAll(async () => {
    cluster = await createCluster();
    [a, b, c] = (await cluster.start(3, {
      PARLEY_RATE_LIMIT_DEFAULT_CAPACITY: '6',
      PARLEY_RATE_LIMIT_DEFAULT_REFILL_PER_SECOND: '0.01',
      PARLEY_CLEANUP_INTERVAL_MS: '200',
    })) as [ServerProcess, ServerProcess, ServerProcess];
    sql = new pg.Client({ connectionString: cluster.databaseUrl });
    await sql.connect();
  }, 60_000);

  afterAll(async () => {
    await sql?.end();
    await cluster?.close();
  });

  function adminClient(server: ServerProcess, tenant: { userToken: string; workspaceId: string }): ApiClient {
    return new ApiClient(server.url, { authorization: `Bearer ${tenant.userToken}`, 'x-workspace-id': tenant.workspaceId });
  }

  it('invalidates the personalization cache on B at once when it is saved on A', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const before = await sdkClient(b, tenant.sdkKey).get('/agent/personalization');
    expect(before.status).toBe(200);
    expect(before.body.data.assistantName).toBeNull();
    // B now caches it for an hour unless an event says otherwise.
    const saved = await adminClient(a, tenant).patch(`/admin/projects/${tenant.projectId}`, { personalization: { assistantName: 'Penny' } });
    expect(saved.status).toBe(200);
    await eventually(async () => (await sdkClient(b, tenant.sdkKey).get('/agent/personalization')).body.data.assistantName === 'Penny', 1000);
  });

  it('stops a key revoked on A from working on B at once', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    // B authenticates the key once and caches it (for 30 s without an event).
    expect((await sdkClient(b, tenant.sdkKey).post('/agent/session', {})).status).toBe(201);
    const keys = await adminClient(a, tenant).get(`/admin/keys?projectId=${tenant.projectId}`);
    const sdkKeyId = (keys.body.data.keys as Array<{ id: string; scope: string }>).find((key) => key.scope === 'sdk')!.id;
    expect((await adminClient(a, tenant).post(`/admin/keys/${sdkKeyId}/revoke`)).status).toBe(200);
    await eventually(async () => (await sdkClient(b, tenant.sdkKey).post('/agent/session', {})).status === 401, 1000);
  });

  it('applies a project rate-limit override saved on A on every instance at once', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    // Each instance caches the project's limits on first use.
    for (const server of [a, b, c]) expect((await sdkClient(server, tenant.sdkKey).post('/agent/session', {})).status).toBe(201);
    const saved = await adminClient(a, tenant).patch(`/admin/projects/${tenant.projectId}`, { rateLimits: { default: { capacity: 1, refillPerSecond: 0.01 } } });
    expect(saved.status).toBe(200);
    await sleep(100);
    // The bucket (3 of the old 6 left) is capped at the new capacity, 1: one more, then 429
    // (with the old cached limits B and C would still allow 3).
    expect((await sdkClient(c, tenant.sdkKey).post('/agent/session', {})).status).toBe(201);
    expect((await sdkClient(b, tenant.sdkKey).post('/agent/session', {})).status).toBe(429);
  });

  it('shares one rate limit across instances through Redis', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const statuses: number[] = [];
    for (const server of [a, b, c, a, b, c, a, b, c]) statuses.push((await sdkClient(server, tenant.sdkKey).post('/agent/session', {})).status);
    // Capacity 6 in total, not 6 per instance.
    expect(statuses).toEqual([201, 201, 201, 201, 201, 201, 429, 429, 429]);
  });

  it('runs a periodic job once per interval across the instances, not once per instance', async () => {
    const count = async () => Number((await sql.query("select run_count from job_leases where name = 'cleanup'")).rows[0]?.run_count ?? 0);
    await eventually(async () => (await count()) > 0);
    const before = await count();
    await sleep(2000);
    const runs = (await count()) - before;
    // Three instances polling a 200 ms job would run it ~30 times in 2 s each on its own.
    expect(runs).toBeGreaterThanOrEqual(4);
    expect(runs).toBeLessThanOrEqual(11);
  });

  it('resubscribes after losing its Redis subscriber connection and keeps invalidating caches', async () => {
    const tenant = await bootstrapInto(cluster.databaseUrl);
    expect((await sdkClient(b, tenant.sdkKey).get('/agent/personalization')).body.data.assistantName).toBeNull();
    expect(await cluster.killSubscriberConnections()).toBeGreaterThanOrEqual(3);
    // Wait until every instance has its subscriber connection back.
    await eventually(async () => {
      const list = String(await cluster.redis.call('CLIENT', 'LIST', 'TYPE', 'pubsub'));
      return list.split('\n').filter((line) => line.includes(`name=${cluster.prefix}subscriber`)).length >= 3;
    }, 5000);
    await sleep(200);
    expect((await adminClient(a, tenant).patch(`/admin/projects/${tenant.projectId}`, { personalization: { assistantName: 'Again' } })).status).toBe(200);
    await eventually(async () => (await sdkClient(b, tenant.sdkKey).get('/agent/personalization')).body.data.assistantName === 'Again', 1000);
  });

  it('loses no acknowledged write when an instance gets SIGTERM under load, and it exits 0', async () => {
    const [victim] = await cluster.start(1);
    const tenant = await bootstrapInto(cluster.databaseUrl);
    const client = sdkClient(victim!, tenant.sdkKey);
    const acknowledged: string[] = [];
    let refused = 0;
    const load = Array.from({ length: 4 }, async () => {
      for (let i = 0; i < 15; i++) {
        try {
          const response = await client.post('/agent/session', { userId: `load-${i}` });
          if (response.status === 201) acknowledged.push(response.body.data.sessionId);
          else expect([429, 503]).toContain(response.status);
        } catch {
          refused++; // Connection refused or reset before any answer: not acknowledged.
        }
      }
    });
    await sleep(150);
    const stoppedAt = Date.now();
    victim!.child.kill('SIGTERM');
    await Promise.all(load);
    expect(await victim!.exited).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5000);
    expect(acknowledged.length).toBeGreaterThan(0);
    const stored = await sql.query('select id from sessions where id = any($1)', [acknowledged]);
    expect(stored.rowCount).toBe(acknowledged.length);
    void refused;
  });
});
