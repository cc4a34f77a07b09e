import { Type } from 'typebox';
import type { App } from '../app-context.js';
import { workspaceUserPrincipal } from '../auth/principal.js';
import { escalationEventTypes } from '../escalations/escalation-event.js';
import { Id, IdParams, Message } from '../http/common-schemas.js';
import { Envelope, errorResponses, ok } from '../http/envelope.js';
import { createWebhookEndpoint, listDeliveryViews, listWebhookEndpointViews, removeWebhookEndpoint, retryDelivery, rotateWebhookSecret } from './webhook-service.js';

const EventType = Type.Enum([...escalationEventTypes]);
const Endpoint = Type.Object({ id: Type.String(), url: Type.String(), description: Type.String(), eventTypes: Type.Array(EventType), createdAt: Type.String() });
const Delivery = Type.Object({
  id: Type.String(), endpointId: Type.String(), eventId: Type.String(), eventType: Type.String(), status: Type.Enum(['pending', 'delivered', 'failed']),
  attempts: Type.Integer(), nextAttemptAt: Type.Union([Type.String(), Type.Null()]), lastStatusCode: Type.Union([Type.Integer(), Type.Null()]),
  lastError: Type.Union([Type.String(), Type.Null()]), createdAt: Type.String(), finishedAt: Type.Union([Type.String(), Type.Null()]),
});

/** Webhook endpoints of the workspace (dashboard user token + X-Workspace-Id). */
export async function webhookRoutes(app: App): Promise<void> {
  const { db, auth, config, webhooks } = app.parley;

  app.post('/admin/webhooks', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Add a webhook endpoint; the signing secret is in this response only',
      body: Type.Object({
        url: Type.String({ minLength: 1, maxLength: 2048, description: 'http or https; private addresses refused unless PARLEY_WEBHOOKS_ALLOW_PRIVATE' }),
        eventTypes: Type.Optional(Type.Array(EventType, { minItems: 1, uniqueItems: true, description: 'default: every kind' })),
        description: Type.Optional(Type.String({ maxLength: 500 })),
      }),
      response: { 201: Envelope(Type.Object({ endpoint: Endpoint, secret: Type.String() })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request, reply) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const created = await createWebhookEndpoint(db, config.webhooksAllowPrivateAddresses, { workspaceId, ...request.body });
    return reply.code(201).send(ok(created));
  });

  app.get('/admin/webhooks', {
    onRequest: auth.workspaceUser,
    schema: { tags: ['admin'], summary: 'List webhook endpoints (secrets are never listed)', response: { 200: Envelope(Type.Object({ endpoints: Type.Array(Endpoint) })), ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok({ endpoints: await listWebhookEndpointViews(db, workspaceId) });
  });

  app.delete('/admin/webhooks/:id', {
    onRequest: auth.workspaceUser,
    schema: { tags: ['admin'], summary: 'Remove a webhook endpoint and its pending deliveries', params: IdParams, response: { 200: Envelope(Message), ...errorResponses(401, 403, 404) } },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    await removeWebhookEndpoint(db, workspaceId, request.params.id);
    return ok({ message: 'webhook endpoint removed' });
  });

  app.post('/admin/webhooks/:id/rotate-secret', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'New signing secret; the old one keeps signing beside it for 24 hours',
      params: IdParams,
      response: { 200: Envelope(Type.Object({ secret: Type.String(), previousSecretExpiresAt: Type.String() })), ...errorResponses(401, 403, 404) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok(await rotateWebhookSecret(db, workspaceId, request.params.id));
  });

  app.get('/admin/webhooks/:id/deliveries', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Delivery log of an endpoint, newest first',
      params: IdParams,
      querystring: Type.Object({ status: Type.Optional(Type.Enum(['pending', 'delivered', 'failed'])), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })) }),
      response: { 200: Envelope(Type.Object({ deliveries: Type.Array(Delivery) })), ...errorResponses(401, 403, 404, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    return ok({ deliveries: await listDeliveryViews(db, workspaceId, { endpointId: request.params.id, status: request.query.status, limit: request.query.limit ?? 50 }) });
  });

  app.post('/admin/webhooks/deliveries/:deliveryId/retry', {
    onRequest: auth.workspaceUser,
    schema: {
      tags: ['admin'],
      summary: 'Retry a failed (or pending) delivery now, with a fresh attempt budget; 409 if already delivered',
      params: Type.Object({ deliveryId: Id('webhook delivery id (dlv_…)') }),
      response: { 200: Envelope(Type.Object({ delivery: Delivery })), ...errorResponses(401, 403, 404, 409, 422) },
    },
  }, async (request) => {
    const { workspaceId } = workspaceUserPrincipal(request);
    const delivery = await retryDelivery(db, workspaceId, request.params.deliveryId);
    webhooks.wake();
    return ok({ delivery });
  });
}
