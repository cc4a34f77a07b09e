import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { ApiClient } from '../support/api-client.js';
import { createTenant, databaseUrlFor, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';
import { SseReader } from '../support/sse-reader.js';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver.js';
import { eventually as until } from '../support/eventually.js';

/** Fast retries, private receivers allowed, the worker on. */
const deliveryConfig: Partial<Config> = {
  webhookDeliveryEnabled: true,
  webhooksAllowPrivateAddresses: true,
  webhookPollIntervalMs: 20,
  webhookRetryBaseMs: 40,
  webhookMaxAttempts: 4,
  webhookTimeoutMs: 2000,
  ssePingIntervalMs: 50,
};


async function addEndpoint(tenant: Tenant, url: string, eventTypes?: string[]) {
  const response = await tenant.user.post('/admin/webhooks', { url, ...(eventTypes ? { eventTypes } : {}) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data as { endpoint: { id: string }; secret: string };
}

describe.each(testDialects())('webhooks on %s', (dialect) => {
  // Each test owns its servers: only one delivery worker runs at a time on the database.
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  async function server(overrides: Partial<Config> = deliveryConfig, databaseUrl?: string): Promise<TestServer> {
    const started = await startTestServer(dialect, overrides, databaseUrl ? { databaseUrl } : {});
    cleanups.push(() => started.close());
    return started;
  }
  async function receiver(): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start();
    cleanups.push(() => started.close());
    return started;
  }

  it('manages endpoints: secret shown once, listed without it, removed, 404 across workspaces', async () => {
    const app = await server();
    const tenant = await createTenant(app);
    const other = await createTenant(app);
    const created = await addEndpoint(tenant, 'http://127.0.0.1:9/hook', ['escalation-created', 'escalation-resolved']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(created.endpoint).toMatchObject({ url: 'http://127.0.0.1:9/hook', eventTypes: ['escalation-created', 'escalation-resolved'] });
    const list = await tenant.user.get('/admin/webhooks');
    expect(list.body.data.endpoints).toEqual([created.endpoint]);
    expect(JSON.stringify(list.body)).not.toContain('whsec_');
    expect((await other.user.get('/admin/webhooks')).body.data.endpoints).toEqual([]);
    expect((await other.user.delete(`/admin/webhooks/${created.endpoint.id}`)).status).toBe(404);
    expect((await other.user.get(`/admin/webhooks/${created.endpoint.id}/deliveries`)).status).toBe(404);
    expect((await other.user.post(`/admin/webhooks/${created.endpoint.id}/rotate-secret`)).status).toBe(404);
    expect((await tenant.operator.get('/admin/webhooks')).status).toBe(403);
    expect((await tenant.sdk.get('/admin/webhooks')).status).toBe(403);
    expect((await tenant.user.delete(`/admin/webhooks/${created.endpoint.id}`)).status).toBe(200);
    expect((await tenant.user.get('/admin/webhooks')).body.data.endpoints).toEqual([]);
  });

  it('refuses non-http URLs, unknown event kinds, and private or loopback hosts unless allowed', async () => {
    const app = await server({});
    const tenant = await createTenant(app);
    for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@example.com/', 'http://127.0.0.1/x', 'http://localhost:8080/x', 'http://10.1.2.3/', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://[fd00::1]/', 'http://192.168.1.1/', 'http://[::ffff:127.0.0.1]/']) {
      const response = await tenant.user.post('/admin/webhooks', { url });
      expect(response.status, url).toBe(422);
      expect(response.body.error.message, url).toContain('url');
    }
    const unknownKind = await tenant.user.post('/admin/webhooks', { url: 'http://127.0.0.1/x', eventTypes: ['escalation-exploded'] });
    expect(unknownKind.status).toBe(422);
    expect(unknownKind.body.error.message).toContain('eventTypes');
  });

  it('delivers every subscribed event, signed, with the same id as the feed frame', async () => {
    const app = await server();
    const hook = await receiver();
    const tenant = await createTenant(app);
    const { secret } = await addEndpoint(tenant, hook.url);
    const feed = (await SseReader.open(tenant.operator.url('/escalations/stream'), tenant.operator.headers)).stream!;
    await feed.nextFrame();
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const id = started.body.data.escalationId;
    await tenant.operator.post(`/escalations/${id}/message`, { content: 'hello', operatorName: 'Alice' });
    await tenant.operator.post(`/escalations/${id}/resolve`);
    const received = await hook.waitFor(4);
    const frames = [await feed.next(), await feed.next(), await feed.next(), await feed.next()];
    feed.close();
    expect(received.map((r) => r.json.type).sort()).toEqual(['escalation-claimed', 'escalation-created', 'escalation-resolved', 'operator-message']);
    for (const request of received) {
      expect(verifyWebhook(secret, request.headers, request.body)).toBe(true);
      const wrongSecret = `whsec_${secret[6] === 'A' ? 'B' : 'A'}${secret.slice(7)}`;
      expect(verifyWebhook(wrongSecret, request.headers, request.body)).toBe(false);
      expect(request.headers['webhook-id']).toBe(request.json.id);
      const frame = frames.find((f) => f.id === request.headers['webhook-id']);
      expect(frame?.data).toEqual(request.json);
    }
    const claimed = received.find((r) => r.json.type === 'escalation-claimed')!;
    expect(claimed.json).toMatchObject({ escalationId: id, projectId: tenant.projectId, status: 'active', operatorName: 'Alice' });
  });

  it('sends only subscribed kinds', async () => {
    const app = await server();
    const hook = await receiver();
    const tenant = await createTenant(app);
    await addEndpoint(tenant, hook.url, ['escalation-abandoned']);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    await tenant.sdk.post(`/agent/escalation/${started.body.data.escalationId}/message`, { content: 'bye' });
    await tenant.sdk.post(`/agent/escalation/${started.body.data.escalationId}/abandon`);
    await hook.waitFor(1);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received.map((r) => r.json.type)).toEqual(['escalation-abandoned']);
  });

  it('retries after the receiver fails twice, then records the delivery as delivered', async () => {
    const app = await server();
    const hook = await receiver();
    hook.script = [500, 503];
    const tenant = await createTenant(app);
    const { endpoint, secret } = await addEndpoint(tenant, hook.url, ['escalation-created']);
    await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' });
    const attempts = await hook.waitFor(3);
    expect(attempts.map((a) => a.answered)).toEqual([500, 503, 200]);
    expect(new Set(attempts.map((a) => a.headers['webhook-id'])).size).toBe(1);
    for (const attempt of attempts) expect(verifyWebhook(secret, attempt.headers, attempt.body)).toBe(true);
    const log = await until(async () => {
      const response = await tenant.user.get(`/admin/webhooks/${endpoint.id}/deliveries`);
      return response.body.data.deliveries[0]?.status === 'delivered' ? response.body.data.deliveries : undefined;
    });
    expect(log).toEqual([expect.objectContaining({ eventType: 'escalation-created', status: 'delivered', attempts: 3, lastStatusCode: 200, lastError: null })]);
  });

  it('marks a delivery failed after the bounded number of attempts', async () => {
    const app = await server({ ...deliveryConfig, webhookMaxAttempts: 2 });
    const hook = await receiver();
    hook.script = [500, 500, 500];
    const tenant = await createTenant(app);
    const { endpoint } = await addEndpoint(tenant, hook.url, ['escalation-created']);
    await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' });
    const log = await until(async () => {
      const response = await tenant.user.get(`/admin/webhooks/${endpoint.id}/deliveries?status=failed`);
      return response.body.data.deliveries.length > 0 ? response.body.data.deliveries : undefined;
    });
    expect(log[0]).toMatchObject({ status: 'failed', attempts: 2, lastStatusCode: 500, lastError: expect.stringContaining('500'), nextAttemptAt: null });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hook.received).toHaveLength(2);
  });

  it('loses nothing across a restart: committed while no worker runs, retried by the next instance', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    const hook = await receiver();
    hook.script = [500];
    // First instance: a slow retry, so the second attempt falls after the restart.
    const first = await startTestServer(dialect, { ...deliveryConfig, webhookRetryBaseMs: 400 }, { databaseUrl });
    const tenant = await createTenant(first);
    const { endpoint, secret } = await addEndpoint(tenant, hook.url, ['escalation-created', 'user-message']);
    const started = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    await hook.waitFor(1);
    await first.close();

    // Events committed while no worker runs anywhere stay in the outbox.
    const apiOnly = await startTestServer(dialect, { ...deliveryConfig, webhookDeliveryEnabled: false }, { databaseUrl });
    const client = new ApiClient(apiOnly.url, { authorization: `Bearer ${tenant.sdkKey}` });
    expect((await client.post(`/agent/escalation/${started.body.data.escalationId}/message`, { content: 'are you there?' })).status).toBe(201);
    await apiOnly.close();
    expect(hook.received).toHaveLength(1);

    const second = await server(deliveryConfig, databaseUrl);
    const delivered = await hook.waitFor(3);
    expect(delivered.map((r) => r.json.type).sort()).toEqual(['escalation-created', 'escalation-created', 'user-message']);
    for (const request of delivered) expect(verifyWebhook(secret, request.headers, request.body)).toBe(true);
    const user = new ApiClient(second.url, tenant.user.headers);
    const log = await until(async () => {
      const response = await user.get(`/admin/webhooks/${endpoint.id}/deliveries`);
      return response.body.data.deliveries.every((d: any) => d.status === 'delivered') ? response.body.data.deliveries : undefined;
    });
    expect(log.map((d: any) => [d.eventType, d.attempts]).sort()).toEqual([['escalation-created', 2], ['user-message', 1]]);
  });

  it('rotates the secret: the old one keeps signing beside the new one', async () => {
    const app = await server();
    const hook = await receiver();
    const tenant = await createTenant(app);
    const { endpoint, secret: oldSecret } = await addEndpoint(tenant, hook.url, ['escalation-created']);
    const rotated = await tenant.user.post(`/admin/webhooks/${endpoint.id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.data.secret;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(oldSecret);
    await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const [request] = await hook.waitFor(1);
    expect(request!.headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(verifyWebhook(newSecret, request!.headers, request!.body)).toBe(true);
    expect(verifyWebhook(oldSecret, request!.headers, request!.body)).toBe(true);
  });

  // Here rather than beside the feed tests: pruning is done by the worker, and only one worker may run at a time.
  it('prunes feed events past the retention window; Last-Event-ID of a pruned event replays what is retained', async () => {
    const databaseUrl = databaseUrlFor(dialect);
    const before = await startTestServer(dialect, {}, { databaseUrl });
    const tenant = await createTenant(before);
    const old = await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const oldEvent = await before.database.db.selectFrom('escalation_events').select('id').where('escalation_id', '=', old.body.data.escalationId).executeTakeFirstOrThrow();
    await before.database.db.updateTable('escalation_events').set({ created_at: new Date(Date.now() - 2 * 3_600_000).toISOString() }).where('id', '=', oldEvent.id).execute();
    const fresh = await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' });
    await before.close();

    const after = await server({ ...deliveryConfig, escalationEventRetentionHours: 1 }, databaseUrl);
    await until(async () => !(await after.database.db.selectFrom('escalation_events').select('id').where('id', '=', oldEvent.id).executeTakeFirst()));
    const feed = (await SseReader.open(new ApiClient(after.url).url('/escalations/stream'), { ...tenant.operator.headers, 'last-event-id': oldEvent.id })).stream!;
    const frame = await feed.next();
    expect(frame.data).toMatchObject({ type: 'escalation-created', escalationId: fresh.body.data.escalationId });
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(feed.drain()).toEqual([]);
    feed.close();
  });
});
