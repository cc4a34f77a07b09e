import type { Db } from '../db/database.js';
import { escalationEventTypes, type EscalationEventType } from '../escalations/escalation-event.js';
import { AppError, notFound, validationError } from '../http/errors.js';
import { newId } from '../shared/ids.js';
import { isoAfter, nowIso } from '../shared/time.js';
import {
  deleteWebhookEndpoint, findWebhookEndpoint, findWorkspaceDelivery, insertWebhookEndpoint, listDeliveries, listWebhookEndpoints, requeueDelivery, updateWebhookSecret,
} from './webhook-repository.js';
import { newWebhookSecret } from './webhook-signature.js';
import type { DeliveryStatus, WebhookDeliveryRow, WebhookEndpointRow } from './webhook-tables.js';
import { assertWebhookUrl, WebhookUrlError } from './webhook-url.js';

/** After a rotation the old secret keeps signing (beside the new one) this long. */
export const previousSecretGraceMs = 24 * 3_600_000;

export interface WebhookEndpointView {
  id: string;
  url: string;
  description: string;
  eventTypes: EscalationEventType[];
  createdAt: string;
}

export interface WebhookDeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: string | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export function toEndpointView(row: WebhookEndpointRow): WebhookEndpointView {
  return { id: row.id, url: row.url, description: row.description, eventTypes: JSON.parse(row.event_types) as EscalationEventType[], createdAt: row.created_at };
}

export function toDeliveryView(row: WebhookDeliveryRow): WebhookDeliveryView {
  return {
    id: row.id, endpointId: row.endpoint_id, eventId: row.event_id, eventType: row.event_type, status: row.status, attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null, lastStatusCode: row.last_status_code, lastError: row.last_error,
    createdAt: row.created_at, finishedAt: row.finished_at,
  };
}

export async function createWebhookEndpoint(
  db: Db,
  allowPrivate: boolean,
  input: { workspaceId: string; url: string; eventTypes?: string[] | undefined; description?: string | undefined },
): Promise<{ endpoint: WebhookEndpointView; secret: string }> {
  try {
    await assertWebhookUrl(input.url, allowPrivate);
  } catch (error) {
    if (error instanceof WebhookUrlError) throw validationError(`body.${error.message}`);
    throw error;
  }
  const eventTypes = input.eventTypes ?? [...escalationEventTypes];
  const unknown = eventTypes.find((type) => !(escalationEventTypes as readonly string[]).includes(type));
  if (unknown !== undefined) throw validationError(`body.eventTypes: unknown event type ${unknown} (known: ${escalationEventTypes.join(', ')})`);
  if (eventTypes.length === 0) throw validationError('body.eventTypes must name at least one event type');
  const row: WebhookEndpointRow = {
    id: newId('whk'), workspace_id: input.workspaceId, url: input.url, description: input.description ?? '', event_types: JSON.stringify([...new Set(eventTypes)]),
    secret: newWebhookSecret(), previous_secret: null, previous_secret_expires_at: null, created_at: nowIso(),
  };
  await insertWebhookEndpoint(db, row);
  return { endpoint: toEndpointView(row), secret: row.secret };
}

export async function listWebhookEndpointViews(db: Db, workspaceId: string): Promise<WebhookEndpointView[]> {
  return (await listWebhookEndpoints(db, workspaceId)).map(toEndpointView);
}

export async function removeWebhookEndpoint(db: Db, workspaceId: string, endpointId: string): Promise<void> {
  if (!(await deleteWebhookEndpoint(db, workspaceId, endpointId))) throw notFound('webhook endpoint');
}

/** A new secret; the old one also signs for previousSecretGraceMs so receivers can switch without losing events. */
export async function rotateWebhookSecret(db: Db, workspaceId: string, endpointId: string): Promise<{ secret: string; previousSecretExpiresAt: string }> {
  const endpoint = await findWebhookEndpoint(db, workspaceId, endpointId);
  if (!endpoint) throw notFound('webhook endpoint');
  const secret = newWebhookSecret();
  const previousSecretExpiresAt = isoAfter(previousSecretGraceMs);
  await updateWebhookSecret(db, endpoint.id, { secret, previous_secret: endpoint.secret, previous_secret_expires_at: previousSecretExpiresAt });
  return { secret, previousSecretExpiresAt };
}

export async function listDeliveryViews(db: Db, workspaceId: string, filter: { endpointId?: string | undefined; status?: DeliveryStatus | undefined; limit: number }): Promise<WebhookDeliveryView[]> {
  if (filter.endpointId !== undefined && !(await findWebhookEndpoint(db, workspaceId, filter.endpointId))) throw notFound('webhook endpoint');
  return (await listDeliveries(db, workspaceId, filter)).map(toDeliveryView);
}

const alreadyDelivered = (): AppError => new AppError('CONFLICT', 'webhook delivery was already delivered; only failed or pending deliveries can be retried');

/**
 * Re-queues a failed (or still pending) delivery: due now, attempts reset to 0
 * so it gets the full PARLEY_WEBHOOK_MAX_ATTEMPTS budget again. The last error
 * and status code stay visible until the next attempt replaces them. The
 * caller wakes the worker.
 */
export async function retryDelivery(db: Db, workspaceId: string, deliveryId: string): Promise<WebhookDeliveryView> {
  const existing = await findWorkspaceDelivery(db, workspaceId, deliveryId);
  if (!existing) throw notFound('webhook delivery');
  if (existing.status === 'delivered' || !(await requeueDelivery(db, workspaceId, deliveryId, nowIso()))) throw alreadyDelivered();
  const updated = await findWorkspaceDelivery(db, workspaceId, deliveryId);
  if (!updated) throw notFound('webhook delivery');
  return toDeliveryView(updated);
}
