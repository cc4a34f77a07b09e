import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config/config.js';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type Tenant, type TestServer } from '../support/harness.js';
import { verifyWebhook, WebhookReceiver } from '../support/webhook-receiver.js';
import { eventually as until } from '../support/eventually.js';

/** The worker on, one attempt per delivery, so a single 500 fails it for good. */
const oneShot: Partial<Config> = {
  webhookDeliveryEnabled: true,
  webhooksAllowPrivateAddresses: true,
  webhookPollIntervalMs: 20,
  webhookRetryBaseMs: 40,
  webhookMaxAttempts: 1,
  webhookTimeoutMs: 2000,
};


async function deliveryWithStatus(tenant: Tenant, endpointId: string, status: string) {
  return until(async () => {
    const response = await tenant.user.get(`/admin/webhooks/${endpointId}/deliveries`);
    return response.body.data.deliveries[0]?.status === status ? response.body.data.deliveries[0] : undefined;
  });
}

describe.each(testDialects())('retrying webhook deliveries on %s', (dialect) => {
  // Each test owns its server and receiver: only one delivery worker runs at a time on the database.
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('re-queues a failed delivery with a fresh budget; it then arrives signed; a delivered one is 409; other workspaces get 404', async () => {
    const app = await startTestServer(dialect, oneShot);
    cleanups.push(() => app.close());
    const hook = await WebhookReceiver.start();
    cleanups.push(() => hook.close());
    hook.script = [500];
    const tenant = await createTenant(app);
    const other = await createTenant(app);
    const created = await tenant.user.post('/admin/webhooks', { url: hook.url, eventTypes: ['escalation-created'] });
    const { endpoint, secret } = created.body.data;
    await tenant.sdk.post('/agent/escalation', { reason: 'agent_gave_up' });
    const failed = await deliveryWithStatus(tenant, endpoint.id, 'failed');
    expect(failed).toMatchObject({ attempts: 1, lastStatusCode: 500 });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(hook.received).toHaveLength(1);

    const foreign = await other.user.post(`/admin/webhooks/deliveries/${failed.id}/retry`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toMatchObject({ success: false, error: { code: 'NOT_FOUND' } });
    expect((await tenant.user.post('/admin/webhooks/deliveries/dlv_missing/retry')).status).toBe(404);
    expect((await tenant.user.post(`/admin/webhooks/deliveries/${'x'.repeat(65)}/retry`)).status).toBe(422);

    const retried = await tenant.user.post(`/admin/webhooks/deliveries/${failed.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body.data.delivery).toMatchObject({ id: failed.id, status: 'pending', attempts: 0, finishedAt: null, lastStatusCode: 500 });
    const [first, second] = await hook.waitFor(2);
    expect(second!.answered).toBe(200);
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    expect(verifyWebhook(secret, second!.headers, second!.body)).toBe(true);
    expect(await deliveryWithStatus(tenant, endpoint.id, 'delivered')).toMatchObject({ id: failed.id, attempts: 1, lastStatusCode: 200, lastError: null });

    const again = await tenant.user.post(`/admin/webhooks/deliveries/${failed.id}/retry`);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ success: false, error: { code: 'CONFLICT', message: expect.stringContaining('already delivered') } });
    expect((await tenant.operator.post(`/admin/webhooks/deliveries/${failed.id}/retry`)).status).toBe(403);
  });

  it('makes a pending delivery waiting on its backoff due now', async () => {
    // A long backoff: without the retry, the second attempt would come after the test's timeout.
    const app = await startTestServer(dialect, { ...oneShot, webhookMaxAttempts: 5, webhookRetryBaseMs: 600_000 });
    cleanups.push(() => app.close());
    const hook = await WebhookReceiver.start();
    cleanups.push(() => hook.close());
    hook.script = [503];
    const tenant = await createTenant(app);
    const { endpoint, secret } = (await tenant.user.post('/admin/webhooks', { url: hook.url, eventTypes: ['escalation-created'] })).body.data;
    await tenant.sdk.post('/agent/escalation', { reason: 'user_requested' });
    const waiting = await until(async () => {
      const response = await tenant.user.get(`/admin/webhooks/${endpoint.id}/deliveries`);
      const delivery = response.body.data.deliveries[0];
      return delivery?.attempts === 1 ? delivery : undefined;
    });
    expect(waiting.status).toBe('pending');
    expect(Date.parse(waiting.nextAttemptAt)).toBeGreaterThan(Date.now() + 60_000);
    expect((await tenant.user.post(`/admin/webhooks/deliveries/${waiting.id}/retry`)).status).toBe(200);
    const [, second] = await hook.waitFor(2, 3000);
    expect(verifyWebhook(secret, second!.headers, second!.body)).toBe(true);
    await deliveryWithStatus(tenant, endpoint.id, 'delivered');
  });
});

describe.each(testDialects())('retry route credentials on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'POST', path: () => '/admin/webhooks/deliveries/dlv_x/retry', surface: 'admin' });
});
