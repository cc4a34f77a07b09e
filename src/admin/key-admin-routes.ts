import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { Id } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { createApiKey, listKeys, revokeApiKey } from '../keys/key-service.js';
import { KeyIdParams } from './admin-schemas.js';

const KeySummary = Type.Object({
  id: Type.String(),
  name: Type.String(),
  scope: Type.Union([Type.Literal('sdk'), Type.Literal('operator')]),
  projectId: Type.Union([Type.String(), Type.Null()]),
  prefix: Type.String({ description: 'the first characters of the key, to recognise it' }),
  createdAt: Type.String(),
  expiresAt: Type.Union([Type.String(), Type.Null()]),
  revokedAt: Type.Union([Type.String(), Type.Null()]),
  lastUsedAt: Type.Union([Type.String(), Type.Null()]),
});

const CreateKeyBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 120 }),
    scope: Type.Union([Type.Literal('sdk'), Type.Literal('operator')], { default: 'sdk' }),
    projectId: Type.Optional(Id('project of an sdk key; absent for operator keys')),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'optional expiry, in the future' })),
  },
  { additionalProperties: false },
);

export async function keyAdminRoutes(app: App): Promise<void> {
  const { db, bus, auth } = app.parley;

  app.post('/admin/keys', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Create an API key; the key is in this response only',
      body: CreateKeyBody,
      response: { 201: Envelope(Type.Object({ ...KeySummary.properties, key: Type.String({ description: 'ak_…, shown once' }) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request, reply) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const created = await createApiKey(db, { workspaceId, ...request.body });
    return reply.code(201).send(ok(created));
  });

  app.get('/admin/keys', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'API keys of the workspace (never the keys themselves)',
      querystring: Type.Object({ projectId: Type.Optional(Id('only the sdk keys of this project')) }),
      response: { 200: Envelope(Type.Object({ keys: Type.Array(KeySummary) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok({ keys: await listKeys(db, workspaceId, request.query.projectId) });
  });

  app.post('/admin/keys/:keyId/revoke', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Revoke an API key (at once, idempotent)',
      params: KeyIdParams,
      response: { 200: Envelope(KeySummary), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok(await revokeApiKey(db, bus, workspaceId, request.params.keyId));
  });
}
