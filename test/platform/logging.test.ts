import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logging/logger.js';
import { ApiClient } from '../support/api-client.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('request logs on %s', (dialect) => {
  const lines: string[] = [];
  let server: TestServer;
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    server = await startTestServer(dialect, { logLevel: 'info' }, { logger: createLogger('info', sink) });
  });
  afterAll(() => server.close());

  it('writes exactly one line per request, with id, route, status and latency, and no secrets', async () => {
    const tenant = await createTenant(server);
    lines.length = 0;
    const secrets = {
      email: 'grace.hopper@example.com',
      phone: '+1 555 867 5309',
      userId: 'end-user-7f3a9',
      userName: 'Grace Brewster Hopper',
      deviceText: 'device-fingerprint-xyz',
      modelApiKey: 'sk-model-secret-123',
      persona: 'persona-secret-text',
      password: 'password-secret-456',
    };
    const requests: Array<{ id: string; run: (headers: Record<string, string>) => Promise<{ status: number; body: any }> }> = [
      { id: 'log-1', run: (h) => tenant.sdk.post('/agent/session', { userId: secrets.userId, deviceInfo: { note: secrets.deviceText } }, h) },
      { id: 'log-2', run: (h) => tenant.sdk.post('/agent/identify', { userId: secrets.userId, name: secrets.userName, identifiers: { email: secrets.email, phone: secrets.phone } }, h) },
      { id: 'log-3', run: (h) => tenant.sdk.post('/agent/identify', { userId: secrets.userId, identifiers: { email: secrets.email, bad: 5 } }, h) },
      { id: 'log-4', run: (h) => tenant.sdk.get('/agent/personalization', h) },
      { id: 'log-5', run: (h) => tenant.user.patch(`/admin/projects/${tenant.projectId}`, { modelApiKey: secrets.modelApiKey, personaPrompt: secrets.persona }, h) },
      { id: 'log-6', run: (h) => server.anonymous.post('/auth/login', tenant.dashboard, h) },
      { id: 'log-6b', run: (h) => server.anonymous.post('/auth/login', { email: tenant.dashboard.email, password: secrets.password }, h) },
      { id: 'log-7', run: (h) => tenant.user.post('/admin/keys', { name: 'logged?', scope: 'operator' }, h) },
      { id: 'log-8', run: (h) => new ApiClient(server.url, { authorization: `Bearer ${tenant.sdkKey}x` }).get('/agent/personalization', h) },
      { id: 'log-9', run: (h) => tenant.sdk.get(`/agent/popular-prompts?screen=${encodeURIComponent(secrets.email)}`, h) },
      { id: 'log-10', run: (h) => tenant.sdk.delete('/agent/session/ses_missing', h) },
      { id: 'log-11', run: (h) => tenant.operator.get('/no/such/route', h) },
    ];
    const createdKeys: string[] = [];
    for (const request of requests) {
      const response = await request.run({ 'x-request-id': request.id });
      if (response.status >= 500 || (request.id === 'log-6' && response.status !== 200)) throw new Error(`${request.id}: ${JSON.stringify(response.body)}`);
      if (typeof response.body?.data?.key === 'string') createdKeys.push(response.body.data.key);
      if (typeof response.body?.data?.token === 'string') createdKeys.push(response.body.data.token);
    }
    expect(createdKeys).toHaveLength(2);
    // The line is written after the response is sent: wait for the last one.
    const deadline = Date.now() + 2_000;
    while (lines.length < requests.length && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    await new Promise((resolve) => setTimeout(resolve, 50));

    expect(lines).toHaveLength(requests.length);
    const parsed = lines.map((line) => JSON.parse(line));
    for (const request of requests) {
      const own = parsed.filter((entry) => entry.requestId === request.id);
      expect(own, request.id).toHaveLength(1);
      expect(own[0]).toMatchObject({ route: expect.any(String), status: expect.any(Number), latencyMs: expect.any(Number), method: expect.any(String) });
    }
    expect(parsed.find((entry) => entry.requestId === 'log-2')).toMatchObject({ route: '/api/v1/agent/identify', status: 200 });
    expect(parsed.find((entry) => entry.requestId === 'log-3')).toMatchObject({ status: 422 });
    expect(parsed.find((entry) => entry.requestId === 'log-8')).toMatchObject({ status: 401 });
    expect(parsed.find((entry) => entry.requestId === 'log-11')).toMatchObject({ route: '(unmatched)', status: 404 });

    const everything = lines.join('\n');
    for (const value of [...Object.values(secrets), tenant.sdkKey, tenant.userToken, tenant.operatorKey, ...createdKeys, tenant.dashboard.password, 'grace.hopper%40example.com']) {
      expect(everything, value).not.toContain(value);
    }
  });
});
