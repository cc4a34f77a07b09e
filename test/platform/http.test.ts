import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('HTTP layer on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect, { bodyLimitBytes: 4096 });
  });
  afterAll(() => server.close());

  it('answers GET /health without credentials', async () => {
    const response = await server.anonymous.get('/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true, data: { status: 'ok' } });
  });

  it('answers GET /ready when the database is reachable', async () => {
    const response = await server.anonymous.get('/ready');
    expect(response.status).toBe(200);
    expect(response.body.data.status).toBe('ready');
  });

  it('echoes X-Request-Id when sent and generates one otherwise', async () => {
    const echoed = await server.anonymous.get('/health', { 'x-request-id': 'trace-abc.123' });
    expect(echoed.headers.get('x-request-id')).toBe('trace-abc.123');
    const generated = await server.anonymous.get('/health');
    expect(generated.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await server.anonymous.get('/health', { 'x-request-id': 'a b' });
    expect(unsafe.headers.get('x-request-id')).not.toBe('a b');
  });

  it('answers unknown routes with the 404 envelope', async () => {
    const response = await server.anonymous.get('/no/such/route');
    expect(response.status).toBe(404);
    expect(response.body).toEqual({ success: false, error: { code: 'NOT_FOUND', message: expect.stringContaining('/api/v1/no/such/route') } });
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers malformed JSON with 400 BAD_REQUEST in the envelope', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session', '{"userId": ', { 'content-type': 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, error: { code: 'BAD_REQUEST', message: expect.stringContaining('JSON') } });
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session', { userId: 'u', deviceInfo: { blob: 'x'.repeat(10_000) } });
    expect(response.status).toBe(413);
    expect(response.body).toMatchObject({ success: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers a wrong content type with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session', 'userId=u', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(response.status).toBe(415);
    expect(response.body).toMatchObject({ success: false, error: { code: 'UNSUPPORTED_MEDIA_TYPE' } });
  });

  it('names the offending field in a 422 VALIDATION_ERROR', async () => {
    const tenant = await createTenant(server);
    const response = await tenant.sdk.post('/agent/session', { userId: 42 });
    expect(response.status).toBe(422);
    expect(response.body.error.code).toBe('VALIDATION_ERROR');
    expect(response.body.error.message).toContain('body.userId');
  });

  it('serves the OpenAPI 3.1 document with the routes and their schemas', async () => {
    const response = await server.anonymous.get('/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body.openapi).toBe('3.1.0');
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/api/v1/agent/session', '/api/v1/agent/session/{sessionId}', '/api/v1/health']));
    expect(response.body.paths['/api/v1/agent/session'].post.responses['201']).toBeDefined();
  });
});
