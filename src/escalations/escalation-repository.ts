import type { Db } from '../db/database.js';
import { dialectOf, forUpdate } from '../db/dialect.js';
import type { EscalationStatus } from './escalation-state.js';
import type { EscalationMessageRow, EscalationRow } from './escalation-tables.js';

export type MessageRecord = Omit<EscalationMessageRow, 'seq'> & { seq: number };

export async function insertEscalation(db: Db, row: EscalationRow): Promise<void> {
  await db.insertInto('escalations').values(row).execute();
}

export async function findOpenEscalationOfSession(db: Db, sessionId: string): Promise<EscalationRow | undefined> {
  return db.selectFrom('escalations').selectAll().where('session_id', '=', sessionId).where('status', 'in', ['pending', 'active']).executeTakeFirst();
}

/** An escalation of this project; another project's id is "not found". */
export async function findEscalationInProject(db: Db, projectId: string, escalationId: string): Promise<EscalationRow | undefined> {
  return db.selectFrom('escalations').selectAll().where('id', '=', escalationId).where('project_id', '=', projectId).executeTakeFirst();
}

export async function findEscalationInWorkspace(db: Db, workspaceId: string, escalationId: string): Promise<EscalationRow | undefined> {
  return db.selectFrom('escalations').selectAll().where('id', '=', escalationId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

/** Reads the row and, on PostgreSQL, locks it until the transaction ends. */
export async function lockEscalation(trx: Db, escalationId: string): Promise<EscalationRow | undefined> {
  return forUpdate(trx.selectFrom('escalations').selectAll().where('id', '=', escalationId), dialectOf(trx)).executeTakeFirst();
}

export async function updateEscalation(trx: Db, escalationId: string, patch: Partial<Omit<EscalationRow, 'id'>>): Promise<void> {
  await trx.updateTable('escalations').set(patch).where('id', '=', escalationId).execute();
}

export async function insertEscalationMessage(trx: Db, row: Omit<EscalationMessageRow, 'seq'>): Promise<void> {
  await trx.insertInto('escalation_messages').values(row).execute();
}

/** Messages in their total order; `since` keeps only operator messages created after it. */
export async function listEscalationMessages(db: Db, escalationId: string, filter: { since?: string | undefined; operatorOnly?: boolean } = {}): Promise<MessageRecord[]> {
  let query = db.selectFrom('escalation_messages').selectAll().where('escalation_id', '=', escalationId);
  if (filter.operatorOnly || filter.since !== undefined) query = query.where('role', '=', 'human_agent');
  if (filter.since !== undefined) query = query.where('created_at', '>', filter.since);
  return (await query.orderBy('seq').execute()) as MessageRecord[];
}

export interface QueueFilter {
  statuses: EscalationStatus[];
  projectId?: string | undefined;
  /** Keyset position: rows strictly after (lastActivityAt, id) in descending order. */
  after?: { lastActivityAt: string; id: string } | undefined;
  limit: number;
}

export async function listQueue(db: Db, workspaceId: string, filter: QueueFilter): Promise<EscalationRow[]> {
  let query = db.selectFrom('escalations').selectAll().where('workspace_id', '=', workspaceId).where('status', 'in', filter.statuses);
  if (filter.projectId !== undefined) query = query.where('project_id', '=', filter.projectId);
  const after = filter.after;
  if (after) {
    query = query.where((eb) =>
      eb.or([eb('last_activity_at', '<', after.lastActivityAt), eb.and([eb('last_activity_at', '=', after.lastActivityAt), eb('id', '<', after.id)])]),
    );
  }
  return query.orderBy('last_activity_at', 'desc').orderBy('id', 'desc').limit(filter.limit).execute();
}

export async function listResolvedEscalationsOfSession(db: Db, sessionId: string): Promise<EscalationRow[]> {
  return db.selectFrom('escalations').selectAll().where('session_id', '=', sessionId).where('status', '=', 'resolved').orderBy('created_at').orderBy('id').execute();
}

export async function findProjectInWorkspace(db: Db, workspaceId: string, projectId: string): Promise<boolean> {
  const row = await db.selectFrom('projects').select('id').where('id', '=', projectId).where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row !== undefined;
}

/** The identified end user behind a session (POST /agent/identify), for operators only. */
export async function findIdentifiedUser(db: Db, projectId: string, userId: string): Promise<{ userId: string; name: string | null; identifiers: Record<string, string> } | null> {
  const row = await db.selectFrom('end_users').selectAll().where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  if (!row) return null;
  let identifiers: Record<string, string> = {};
  try {
    identifiers = JSON.parse(row.identifiers) as Record<string, string>;
  } catch {
    // A malformed document shows as no identifiers rather than failing the detail view.
  }
  return { userId: row.user_id, name: row.name, identifiers };
}
