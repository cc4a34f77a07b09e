import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRejectsBadCredentials } from '../support/auth-matrix.js';
import { createTenant, startTestServer, testDialects, type TestServer } from '../support/harness.js';

describe.each(testDialects())('admin projects and action catalog on %s', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(dialect);
  });
  afterAll(() => server.close());

  it('lists, creates, reads and updates projects of the workspace', async () => {
    const tenant = await createTenant(server);
    const created = await tenant.user.post('/admin/projects', { name: 'Shop', model: 'openai:gpt-4o-mini', modelApiKey: 'sk-very-secret', maxHops: 4 });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: 'Shop', model: 'openai:gpt-4o-mini', modelApiKeySet: true, personaPromptSet: false, maxHops: 4, popularPromptFloor: 3, escalateToolEnabled: true });
    expect(JSON.stringify(created.body)).not.toContain('sk-very-secret');
    const id = created.body.data.id;

    const list = await tenant.user.get('/admin/projects');
    expect(list.body.data.projects.map((p: { id: string }) => p.id)).toEqual([tenant.projectId, id]);

    const updated = await tenant.user.patch(`/admin/projects/${id}`, {
      name: 'Shop 2', model: 'openai-compatible:llama3', modelBaseUrl: 'http://127.0.0.1:11434/v1', modelApiKey: null,
      popularPromptFloor: 5, actionTimeoutSeconds: 60, escalateToolEnabled: false, rateLimits: { agentMessage: { capacity: 30, refillPerSecond: 0.5 } },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({ name: 'Shop 2', model: 'openai-compatible:llama3', modelBaseUrl: 'http://127.0.0.1:11434/v1', modelApiKeySet: false, popularPromptFloor: 5, actionTimeoutSeconds: 60, escalateToolEnabled: false, rateLimits: { agentMessage: { capacity: 30, refillPerSecond: 0.5 } } });
    const read = await tenant.user.get(`/admin/projects/${id}`);
    expect(read.body.data).toEqual(updated.body.data);
  });

  it('refuses a bad model, a bad setting and unknown fields with 422, writing nothing', async () => {
    const tenant = await createTenant(server);
    const path = `/admin/projects/${tenant.projectId}`;
    const before = (await tenant.user.get(path)).body.data;
    for (const [body, field] of [
      [{ model: 'gpt-4' }, 'model'],
      [{ model: 'openai-compatible:llama3' }, 'base URL'],
      [{ model: 'openai:x', modelBaseUrl: 'ftp://x' }, 'base URL'],
      [{ maxHops: 0 }, 'body.maxHops'],
      [{ popularPromptFloor: 'three' }, 'body.popularPromptFloor'],
      [{ devPrompts: { global: 'x', screens: {} } }, 'body.devPrompts.global'],
      [{ secret: true }, 'body.secret'],
      [{ rateLimits: { messagesPerMinute: 30 } }, 'body.rateLimits.messagesPerMinute'],
      [{ rateLimits: { agentMessage: { capacity: 0 } } }, 'body.rateLimits.agentMessage.capacity'],
    ] as const) {
      const response = await tenant.user.patch(path, body);
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.message).toContain(field);
    }
    expect((await tenant.user.get(path)).body.data).toEqual(before);
    expect((await tenant.user.post('/admin/projects', { model: 'demo:x' })).body.error.message).toContain('body.name');
  });

  it("answers 404 for another workspace's project, and for a workspace the user is not in", async () => {
    const a = await createTenant(server);
    const b = await createTenant(server);
    expect((await a.user.get(`/admin/projects/${b.projectId}`)).status).toBe(404);
    expect((await a.user.patch(`/admin/projects/${b.projectId}`, { name: 'x' })).status).toBe(404);
    expect((await a.user.get(`/admin/projects/${b.projectId}/action-types`)).status).toBe(404);
    expect((await a.user.put(`/admin/projects/${b.projectId}/action-types/open_cart`, { payloadSchema: { type: 'object' } })).status).toBe(404);
    const foreign = await a.user.get('/admin/projects', { 'x-workspace-id': b.workspaceId });
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });

  it('stores action types with an Ajv-checked payload schema, per mcpVersion', async () => {
    const tenant = await createTenant(server);
    const base = `/admin/projects/${tenant.projectId}/action-types`;
    const schema = { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] };
    const created = await tenant.user.put(`${base}/add_to_cart`, { description: 'Add an item', payloadSchema: schema });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ type: 'add_to_cart', mcpVersion: null, description: 'Add an item', payloadSchema: schema });
    const replaced = await tenant.user.put(`${base}/add_to_cart`, { description: 'Add one item', payloadSchema: schema });
    expect(replaced.status).toBe(200);
    expect((await tenant.user.put(`${base}/add_to_cart`, { payloadSchema: { type: 'object' }, mcpVersion: '2.0.0' })).status).toBe(201);
    const all = await tenant.user.get(base);
    expect(all.body.data.actionTypes.map((t: { mcpVersion: string | null; description: string }) => [t.mcpVersion, t.description])).toEqual([[null, 'Add one item'], ['2.0.0', '']]);
    expect((await tenant.user.get(`${base}?mcpVersion=2.0.0`)).body.data.actionTypes).toHaveLength(1);

    expect((await tenant.user.delete(`${base}/add_to_cart?mcpVersion=2.0.0`)).status).toBe(200);
    expect((await tenant.user.delete(`${base}/add_to_cart?mcpVersion=2.0.0`)).status).toBe(404);
    expect((await tenant.user.get(base)).body.data.actionTypes).toHaveLength(1);
  });

  it('refuses built-in names, invalid schemas and bad type names with 422', async () => {
    const tenant = await createTenant(server);
    const base = `/admin/projects/${tenant.projectId}/action-types`;
    for (const [path, body, text] of [
      [`${base}/navigate`, { payloadSchema: { type: 'object' } }, 'built in'],
      [`${base}/escalate`, { payloadSchema: { type: 'object' } }, 'built in'],
      [`${base}/x`, { payloadSchema: { type: 'object', properties: { a: { type: 'strin' } } } }, 'body.payloadSchema'],
      [`${base}/x`, { payloadSchema: { type: 'object', minProperties: 'two' } }, 'body.payloadSchema'],
      [`${base}/x`, { payloadSchema: { type: 'array' } }, 'body.payloadSchema'],
      [`${base}/x`, { payloadSchema: 'object' }, 'body.payloadSchema'],
      [`${base}/has%20space`, { payloadSchema: { type: 'object' } }, 'params.type'],
    ] as const) {
      const response = await tenant.user.put(path, body);
      expect(response.status, path).toBe(422);
      expect(response.body.error.message).toContain(text);
    }
    expect((await tenant.user.get(base)).body.data.actionTypes).toEqual([]);
  });

  it('documents the admin and agent routes in the OpenAPI document', async () => {
    const doc = (await server.anonymous.get('/openapi.json')).body;
    const expected: Array<[string, string, string]> = [
      ['/api/v1/admin/projects', 'get', 'admin'],
      ['/api/v1/admin/projects', 'post', 'admin'],
      ['/api/v1/admin/projects/{projectId}', 'patch', 'admin'],
      ['/api/v1/admin/projects/{projectId}/action-types/{type}', 'put', 'admin'],
      ['/api/v1/admin/projects/{projectId}/action-types/{type}', 'delete', 'admin'],
      ['/api/v1/admin/keys', 'post', 'admin'],
      ['/api/v1/admin/keys/{keyId}/revoke', 'post', 'admin'],
      ['/api/v1/admin/projects/{projectId}/end-users', 'get', 'admin'],
      ['/api/v1/admin/projects/{projectId}/end-users/{userId}', 'delete', 'admin'],
      ['/api/v1/agent/identify', 'post', 'agent'],
      ['/api/v1/agent/personalization', 'get', 'agent'],
      ['/api/v1/agent/popular-prompts', 'get', 'agent'],
    ];
    for (const [path, method, tag] of expected) {
      expect(doc.paths[path]?.[method]?.tags, `${method} ${path}`).toEqual([tag]);
    }
    const personalization = JSON.stringify(doc.paths['/api/v1/agent/personalization'].get.responses['200']);
    expect(personalization).toContain('poweredByVisible');
    expect(personalization).not.toContain('personaPrompt');
  });

  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'GET', path: () => '/admin/projects', surface: 'admin' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'PATCH', path: (t) => `/admin/projects/${t.projectId}`, body: () => ({ name: 'x' }), surface: 'admin' });
  itRejectsBadCredentials(() => server, () => createTenant(server), { method: 'PUT', path: (t) => `/admin/projects/${t.projectId}/action-types/a`, body: () => ({ payloadSchema: { type: 'object' } }), surface: 'admin' });
});
