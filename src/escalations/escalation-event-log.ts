import type { Db } from '../db/database.js';
import { dialectOf } from '../db/dialect.js';
import { newId } from '../shared/ids.js';
import { enqueueWebhookDeliveries } from '../webhooks/webhook-repository.js';
import type { EscalationEvent } from './escalation-event.js';

/**
 * Writes an event in the caller's transaction, next to the change it reports:
 * the feed's replay log and the webhook outbox commit (or vanish) with it.
 */
export async function recordEscalationEvent(trx: Db, event: Omit<EscalationEvent, 'id'>): Promise<EscalationEvent> {
  const full: EscalationEvent = { id: newId('evt'), ...event };
  // PostgreSQL takes seq (bigserial) at insert, and transactions commit in any order: a feed could
  // see seq 11 committed before 10, and a Last-Event-ID replay (or a resync) after 11 would skip 10.
  // Holding the workspace row until commit makes a workspace's events commit in seq order. NO KEY
  // UPDATE, so inserts that merely reference the workspace (foreign keys) do not wait. SQLite runs
  // one writing transaction at a time already.
  if (dialectOf(trx) === 'postgres') await trx.selectFrom('workspaces').select('id').where('id', '=', event.workspaceId).forNoKeyUpdate().execute();
  await trx
    .insertInto('escalation_events')
    .values({ id: full.id, workspace_id: full.workspaceId, escalation_id: full.escalationId, type: full.type, payload: JSON.stringify(full), created_at: full.createdAt })
    .execute();
  await enqueueWebhookDeliveries(trx, full);
  return full;
}

/** Position of an event in its workspace's log, or null when unknown or pruned. */
export async function findEventSeq(db: Db, workspaceId: string, eventId: string): Promise<number | null> {
  const row = await db.selectFrom('escalation_events').select('seq').where('id', '=', eventId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row ? Number(row.seq) : null;
}

/** Events of the workspace after `afterSeq` (all retained ones for null), oldest first, bounded. */
export async function listEventsAfter(db: Db, workspaceId: string, afterSeq: number | null, limit: number): Promise<{ events: EscalationEvent[]; lastSeq: number | null }> {
  let query = db.selectFrom('escalation_events').select(['seq', 'payload']).where('workspace_id', '=', workspaceId);
  if (afterSeq !== null) query = query.where('seq', '>', afterSeq);
  const rows = await query.orderBy('seq').limit(limit).execute();
  const last = rows.at(-1);
  return { events: rows.map((row) => JSON.parse(row.payload) as EscalationEvent), lastSeq: last ? Number(last.seq) : afterSeq };
}

/** Drops events older than the retention window; returns how many. */
export async function pruneEscalationEvents(db: Db, olderThan: string): Promise<number> {
  const result = await db.deleteFrom('escalation_events').where('created_at', '<', olderThan).executeTakeFirst();
  return Number(result.numDeletedRows);
}
