import { compiledOnce, insertRow } from '../db/compiled-once.js';
import type { Db } from '../db/database.js';
import { nowIso } from '../shared/time.js';
import type { ActionStatus, AgentActionRow, AgentContinueReplyRow, AgentMessageRow, AgentTurnRow } from './agent-tables.js';

/* Thin data access for the agent's tables: plain functions taking `db` or a transaction. */

export async function insertTurn(db: Db, row: AgentTurnRow): Promise<void> {
  await insertRow(db, 'agent_turns', row);
}

export async function findLatestTurn(db: Db, sessionId: string): Promise<AgentTurnRow | undefined> {
  return db.selectFrom('agent_turns').selectAll().where('session_id', '=', sessionId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

const setTurnStatus = compiledOnce((db, status: string, updatedAt: string, turnId: string) =>
  db.updateTable('agent_turns').set({ status: status as AgentTurnRow['status'], updated_at: updatedAt }).where('id', '=', turnId));
const setTurnHopAndStatus = compiledOnce((db, hop: number, status: string, updatedAt: string, turnId: string) =>
  db.updateTable('agent_turns').set({ hop, status: status as AgentTurnRow['status'], updated_at: updatedAt }).where('id', '=', turnId));

export async function updateTurn(db: Db, turnId: string, changes: Pick<AgentTurnRow, 'status'> & Partial<Pick<AgentTurnRow, 'hop'>>): Promise<void> {
  if (changes.hop === undefined) await setTurnStatus(db, changes.status, nowIso(), turnId);
  else await setTurnHopAndStatus(db, changes.hop, changes.status, nowIso(), turnId);
}

export async function insertMessage(db: Db, row: Omit<AgentMessageRow, 'seq'>): Promise<void> {
  await insertRow(db, 'agent_messages', row);
}

export async function insertActions(db: Db, rows: AgentActionRow[]): Promise<void> {
  // Several rows stay one statement: outside a transaction they must land together.
  if (rows.length === 1) await insertRow(db, 'agent_actions', rows[0]!);
  else if (rows.length > 1) await db.insertInto('agent_actions').values(rows).execute();
}

/** The session's messages oldest first, leaving out turns whose model call failed. */
export async function listConversation(db: Db, sessionId: string): Promise<{ messages: AgentMessageRow[]; actions: AgentActionRow[] }> {
  const messages = await db
    .selectFrom('agent_messages')
    .innerJoin('agent_turns', 'agent_turns.id', 'agent_messages.turn_id')
    .selectAll('agent_messages')
    .where('agent_messages.session_id', '=', sessionId)
    .where('agent_turns.status', '!=', 'failed')
    .orderBy('agent_messages.seq')
    .execute();
  const actions = await db.selectFrom('agent_actions').selectAll().where('session_id', '=', sessionId).orderBy('created_at').orderBy('id').execute();
  return { messages: messages as AgentMessageRow[], actions };
}

export async function listTurnActions(db: Db, turnId: string): Promise<AgentActionRow[]> {
  return db.selectFrom('agent_actions').selectAll().where('turn_id', '=', turnId).orderBy('created_at').orderBy('id').execute();
}

/** Ends every unreported action of the session with the given reason (superseded by a new message). */
export async function failOpenActionsOfSession(db: Db, sessionId: string, reason: string): Promise<number> {
  const result = await db
    .updateTable('agent_actions')
    .set({ status: 'failed', error: reason, updated_at: nowIso() })
    .where('session_id', '=', sessionId)
    .where('status', 'in', ['pending', 'executing'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Fails actions left unreported past their expiry, in one session or (sweep) everywhere. */
export async function expireActions(db: Db, sessionId: string | null): Promise<number> {
  const now = nowIso();
  let query = db
    .updateTable('agent_actions')
    .set({ status: 'failed', error: 'timeout', updated_at: now })
    .where('status', 'in', ['pending', 'executing'])
    .where('expires_at', '<=', now);
  if (sessionId !== null) query = query.where('session_id', '=', sessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export async function pendingActionsOfSession(db: Db, sessionId: string): Promise<AgentActionRow[]> {
  return db
    .selectFrom('agent_actions')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('status', 'in', ['pending', 'executing'])
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** An action of one of the project's sessions; another project's action is "not found". */
export async function findProjectAction(db: Db, projectId: string, actionId: string): Promise<AgentActionRow | undefined> {
  return db
    .selectFrom('agent_actions')
    .innerJoin('sessions', 'sessions.id', 'agent_actions.session_id')
    .selectAll('agent_actions')
    .where('agent_actions.id', '=', actionId)
    .where('sessions.project_id', '=', projectId)
    .executeTakeFirst();
}

export async function setActionOutcome(
  db: Db,
  actionId: string,
  outcome: { status: ActionStatus; error?: string | null; summary?: string | null },
): Promise<void> {
  await db
    .updateTable('agent_actions')
    .set({ status: outcome.status, error: outcome.error ?? null, result_summary: outcome.summary ?? null, updated_at: nowIso() })
    .where('id', '=', actionId)
    .execute();
}

export async function markActionExecuting(db: Db, actionId: string): Promise<boolean> {
  const result = await db
    .updateTable('agent_actions')
    .set({ status: 'executing', updated_at: nowIso() })
    .where('id', '=', actionId)
    .where('status', 'in', ['pending', 'executing'])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertContinueReply(db: Db, row: AgentContinueReplyRow): Promise<void> {
  await db.insertInto('agent_continue_replies').values(row).execute();
}

export async function findContinueReply(db: Db, turnId: string, hop: number): Promise<AgentContinueReplyRow | undefined> {
  return db.selectFrom('agent_continue_replies').selectAll().where('turn_id', '=', turnId).where('hop', '=', hop).executeTakeFirst();
}

export async function storeContinueReply(db: Db, turnId: string, hop: number, response: string): Promise<void> {
  await db.updateTable('agent_continue_replies').set({ response }).where('turn_id', '=', turnId).where('hop', '=', hop).execute();
}

/** Gives up a claimed hop whose model call failed, so the client's retry calls the model again. */
export async function deleteContinueReply(db: Db, turnId: string, hop: number): Promise<void> {
  await db.deleteFrom('agent_continue_replies').where('turn_id', '=', turnId).where('hop', '=', hop).where('response', 'is', null).execute();
}
