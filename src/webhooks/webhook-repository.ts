import type { Db } from '../db/database.js';
import type { EscalationEvent } from '../escalations/escalation-event.js';
import { newId } from '../shared/ids.js';
import type { DeliveryStatus, WebhookDeliveryRow, WebhookEndpointRow } from './webhook-tables.js';

export async function insertWebhookEndpoint(db: Db, row: WebhookEndpointRow): Promise<void> {
  await db.insertInto('webhook_endpoints').values(row).execute();
}

export async function listWebhookEndpoints(db: Db, workspaceId: string): Promise<WebhookEndpointRow[]> {
  return db.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute();
}

export async function findWebhookEndpoint(db: Db, workspaceId: string, endpointId: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function findWebhookEndpointById(db: Db, endpointId: string): Promise<WebhookEndpointRow | undefined> {
  return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', endpointId).executeTakeFirst();
}

export async function deleteWebhookEndpoint(db: Db, workspaceId: string, endpointId: string): Promise<boolean> {
  const result = await db.deleteFrom('webhook_endpoints').where('id', '=', endpointId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export async function updateWebhookSecret(db: Db, endpointId: string, patch: Pick<WebhookEndpointRow, 'secret' | 'previous_secret' | 'previous_secret_expires_at'>): Promise<void> {
  await db.updateTable('webhook_endpoints').set(patch).where('id', '=', endpointId).execute();
}

/**
 * The outbox: one pending delivery per subscribed endpoint, written in the
 * same transaction as the event, so a committed event is always delivered.
 */
export async function enqueueWebhookDeliveries(trx: Db, event: EscalationEvent): Promise<number> {
  const endpoints = await trx.selectFrom('webhook_endpoints').select(['id', 'event_types']).where('workspace_id', '=', event.workspaceId).execute();
  const subscribed = endpoints.filter((endpoint) => (JSON.parse(endpoint.event_types) as string[]).includes(event.type));
  if (subscribed.length === 0) return 0;
  const payload = JSON.stringify(event);
  await trx
    .insertInto('webhook_deliveries')
    .values(subscribed.map((endpoint) => ({
      id: newId('dlv'),
      endpoint_id: endpoint.id,
      workspace_id: event.workspaceId,
      event_id: event.id,
      event_type: event.type,
      payload,
      status: 'pending' as const,
      attempts: 0,
      next_attempt_at: event.createdAt,
      last_error: null,
      last_status_code: null,
      created_at: event.createdAt,
      finished_at: null,
    })))
    .execute();
  return subscribed.length;
}

export async function listDueDeliveries(db: Db, now: string, limit: number): Promise<Array<Pick<WebhookDeliveryRow, 'id' | 'next_attempt_at'>>> {
  return db.selectFrom('webhook_deliveries').select(['id', 'next_attempt_at']).where('status', '=', 'pending').where('next_attempt_at', '<=', now).orderBy('next_attempt_at').limit(limit).execute();
}

/**
 * Claims one due delivery by moving its due time past a lease. The WHERE on
 * the due time it was read with makes this a compare-and-set: of several
 * instances, exactly one updates the row. If the claimant dies, the lease
 * runs out and the delivery is due again (at-least-once).
 */
export async function claimDelivery(db: Db, delivery: Pick<WebhookDeliveryRow, 'id' | 'next_attempt_at'>, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ next_attempt_at: leaseUntil })
    .where('id', '=', delivery.id)
    .where('status', '=', 'pending')
    .where('next_attempt_at', '=', delivery.next_attempt_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function findDelivery(db: Db, deliveryId: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).executeTakeFirst();
}

export async function updateDelivery(db: Db, deliveryId: string, patch: Partial<Omit<WebhookDeliveryRow, 'id'>>): Promise<void> {
  await db.updateTable('webhook_deliveries').set(patch).where('id', '=', deliveryId).execute();
}

export async function listDeliveries(db: Db, workspaceId: string, filter: { endpointId?: string | undefined; status?: DeliveryStatus | undefined; limit: number }): Promise<WebhookDeliveryRow[]> {
  let query = db.selectFrom('webhook_deliveries').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.endpointId !== undefined) query = query.where('endpoint_id', '=', filter.endpointId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function pruneFinishedDeliveries(db: Db, olderThan: string): Promise<number> {
  const result = await db.deleteFrom('webhook_deliveries').where('status', '!=', 'pending').where('finished_at', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findWorkspaceDelivery(db: Db, workspaceId: string, deliveryId: string): Promise<WebhookDeliveryRow | undefined> {
  return db.selectFrom('webhook_deliveries').selectAll().where('id', '=', deliveryId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/**
 * Makes a not-yet-delivered delivery due now with a fresh attempt budget. The
 * WHERE on the status makes it a compare-and-set against a concurrent success:
 * a delivery that got through in between is left alone (false).
 */
export async function requeueDelivery(db: Db, workspaceId: string, deliveryId: string, now: string): Promise<boolean> {
  const result = await db
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', attempts: 0, next_attempt_at: now, finished_at: null })
    .where('id', '=', deliveryId)
    .where('workspace_id', '=', workspaceId)
    .where('status', '!=', 'delivered')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
