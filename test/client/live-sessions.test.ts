import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParleyClient, ParleyError } from '../../packages/client/src/index.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('client SDK against a live server: sessions and errors (%s)', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(async () => {
    await server.close();
  });

  it('creates and ends a session, returning data of the envelope', async () => {
    const tenant = await createTenant(server);
    const client = new ParleyClient({ baseUrl: server.url, apiKey: tenant.sdkKey });
    const { sessionId } = await client.createSession({ userId: 'u-1' });
    expect(sessionId).toMatch(/^ses_/);
    await expect(client.endSession(sessionId)).resolves.toEqual({ message: expect.any(String) });
    await expect(client.health()).resolves.toBe(true);
  });

  it('throws ParleyError with the request id, without retrying, for a bad key and an unknown id', async () => {
    const tenant = await createTenant(server);
    const bad = new ParleyClient({ baseUrl: server.url, apiKey: 'ak_not_a_real_key', retry: { baseDelayMs: 1 } });
    const unauthorized = await bad.createSession().catch((error: unknown) => error);
    expect(unauthorized).toBeInstanceOf(ParleyError);
    expect(unauthorized).toMatchObject({ status: 401, requestId: expect.any(String) });

    const client = new ParleyClient({ baseUrl: server.url, apiKey: tenant.sdkKey });
    await expect(client.endSession('ses_unknown')).rejects.toMatchObject({ name: 'ParleyError', code: 'NOT_FOUND', status: 404 });
  });

  it('identifies the user and reads popular prompts and personalization', async () => {
    const tenant = await createTenant(server);
    const client = new ParleyClient({ baseUrl: server.url, apiKey: tenant.sdkKey });
    await expect(client.identify({ userId: 'u-7', name: 'Ada', identifiers: { email: 'ada@example.com' } })).resolves.toEqual({ identified: true });
    const prompts = await client.popularPrompts({ screen: 'orders', limit: 3 });
    expect(prompts).toMatchObject({ devDefined: expect.any(Array), screenPopular: expect.any(Array), globalPopular: expect.any(Array), computedAt: expect.any(String) });
    const personalization = await client.personalization();
    expect(personalization).toMatchObject({ poweredByVisible: expect.any(Boolean), theme: expect.any(Object) });
    expect(personalization).not.toHaveProperty('personaPrompt');
    await expect(client.identify({ userId: '' })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
  });

  it('reports a server that is not there as a network failure after its retries', async () => {
    const client = new ParleyClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'ak_x', retry: { attempts: 2, baseDelayMs: 1 } });
    await expect(client.createSession()).rejects.toMatchObject({ code: 'NETWORK_ERROR', status: 0 });
    await expect(client.health()).resolves.toBe(false);
  });
});
