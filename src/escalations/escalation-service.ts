import type { Db } from '../db/database.js';
import { isUniqueViolation } from '../db/dialect.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { AppError, notFound } from '../http/errors.js';
import { resolveSession } from '../sessions/session-service.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import type { EscalationEvent, EscalationSignal } from './escalation-event.js';
import { recordEscalationEvent } from './escalation-event-log.js';
import { findOpenEscalationOfSession, insertEscalation, insertEscalationMessage, lockEscalation, updateEscalation } from './escalation-repository.js';
import { decide, type EscalationCommand, type OperatorRef } from './escalation-state.js';
import type { EscalationReason, EscalationRow } from './escalation-tables.js';

export interface EscalationDeps {
  db: Db;
  bus: EventBus;
  /** Called after a commit that wrote events (wakes the webhook worker). */
  onEventsCommitted: () => void;
}

/** Where a caller may see an escalation: its project (end user) or its workspace (operator). */
export type EscalationScope = { projectId: string } | { workspaceId: string };

interface AfterCommit {
  events: EscalationEvent[];
  signals: Array<{ escalationId: string; signal: EscalationSignal }>;
}

/**
 * Runs a use case in one transaction; its events are written inside it and
 * published on the bus only after the commit, so no listener ever sees a
 * change that was rolled back.
 */
async function inTransaction<T>(deps: EscalationDeps, work: (trx: Db, after: AfterCommit) => Promise<T>): Promise<T> {
  const after: AfterCommit = { events: [], signals: [] };
  const result = await deps.db.transaction().execute((trx) => work(trx, after));
  for (const { escalationId, signal } of after.signals) await deps.bus.publish(channels.escalation(escalationId), signal);
  for (const event of after.events) await deps.bus.publish(channels.workspaceFeed(event.workspaceId), event);
  if (after.events.length > 0) deps.onEventsCommitted();
  return result;
}

/** Strictly later than the previous message of the escalation, so `since` never splits a tie. */
export function nextMessageTime(lastMessageAt: string | null, now = Date.now()): string {
  const floor = lastMessageAt === null ? 0 : Date.parse(lastMessageAt) + 1;
  return new Date(Math.max(now, floor)).toISOString();
}

function baseEvent(row: EscalationRow, createdAt: string) {
  return { createdAt, workspaceId: row.workspace_id, projectId: row.project_id, escalationId: row.id, sessionId: row.session_id };
}

async function loadAndDecide(trx: Db, scope: EscalationScope, escalationId: string, command: EscalationCommand) {
  const row = await lockEscalation(trx, escalationId);
  const visible = row && ('projectId' in scope ? row.project_id === scope.projectId : row.workspace_id === scope.workspaceId);
  if (!row || !visible) throw notFound('escalation');
  const decision = decide({ status: row.status, claimedById: row.claimed_by_id }, command);
  if (!decision.ok) {
    throw new AppError(decision.rejection, decision.rejection === 'ESCALATION_RESOLVED'
      ? 'escalation is resolved; start a new one with POST /agent/escalation'
      : `escalation is already claimed by ${row.claimed_by_name ?? 'another operator'}`);
  }
  return { row, decision };
}

export async function startEscalation(
  deps: EscalationDeps,
  input: { workspaceId: string; projectId: string; sessionId: string | undefined; reason: EscalationReason; note: string | undefined },
): Promise<{ escalation: EscalationRow; created: boolean }> {
  const { session } = await resolveSession(deps.db, input.projectId, input.sessionId);
  const existing = await findOpenEscalationOfSession(deps.db, session.id);
  if (existing) return { escalation: existing, created: false };
  try {
    return await inTransaction(deps, async (trx, after) => {
      const now = nowIso();
      const row: EscalationRow = {
        id: newId('esc'), workspace_id: input.workspaceId, project_id: input.projectId, session_id: session.id, status: 'pending',
        reason: input.reason, note: input.note ?? null, claimed_by_id: null, claimed_by_name: null, claimed_at: null,
        resolved_at: null, resolved_by: null, created_at: now, last_activity_at: now, last_message_at: null,
      };
      await insertEscalation(trx, row);
      after.events.push(await recordEscalationEvent(trx, { ...baseEvent(row, now), type: 'escalation-created', status: 'pending', reason: row.reason, note: row.note }));
      return { escalation: row, created: true };
    });
  } catch (error) {
    // Lost the race on the one-open-escalation-per-session index: the winner's is ours.
    if (!isUniqueViolation(error)) throw error;
    const winner = await findOpenEscalationOfSession(deps.db, session.id);
    if (!winner) throw error;
    return { escalation: winner, created: false };
  }
}

export async function postUserMessage(deps: EscalationDeps, projectId: string, escalationId: string, content: string): Promise<{ messageId: string; createdAt: string }> {
  return inTransaction(deps, async (trx, after) => {
    const { row } = await loadAndDecide(trx, { projectId }, escalationId, { kind: 'user-message' });
    const createdAt = nextMessageTime(row.last_message_at);
    const messageId = newId('emsg');
    await insertEscalationMessage(trx, { id: messageId, escalation_id: row.id, role: 'user', content, operator_name: null, created_at: createdAt });
    await updateEscalation(trx, row.id, { last_message_at: createdAt, last_activity_at: createdAt });
    after.events.push(await recordEscalationEvent(trx, {
      ...baseEvent(row, createdAt), type: 'user-message', status: row.status, message: { id: messageId, role: 'user', content, createdAt },
    }));
    return { messageId, createdAt };
  });
}

export async function abandonEscalation(deps: EscalationDeps, projectId: string, escalationId: string): Promise<EscalationRow> {
  return inTransaction(deps, async (trx, after) => {
    const { row, decision } = await loadAndDecide(trx, { projectId }, escalationId, { kind: 'abandon' });
    if (!decision.writes) return row;
    const now = nowIso();
    const patch = { status: 'resolved' as const, resolved_at: now, resolved_by: 'end_user' as const, last_activity_at: now };
    await updateEscalation(trx, row.id, patch);
    after.signals.push({ escalationId: row.id, signal: { kind: 'status', status: 'resolved' } });
    after.events.push(await recordEscalationEvent(trx, { ...baseEvent(row, now), type: 'escalation-abandoned', status: 'resolved' }));
    return { ...row, ...patch };
  });
}

export async function claimEscalation(deps: EscalationDeps, workspaceId: string, escalationId: string, operator: OperatorRef): Promise<EscalationRow> {
  return inTransaction(deps, async (trx, after) => {
    const { row, decision } = await loadAndDecide(trx, { workspaceId }, escalationId, { kind: 'claim', operator });
    if (!decision.writes) return row;
    const now = nowIso();
    const patch = { status: 'active' as const, claimed_by_id: operator.id, claimed_by_name: operator.name, claimed_at: now, last_activity_at: now };
    await updateEscalation(trx, row.id, patch);
    after.signals.push({ escalationId: row.id, signal: { kind: 'status', status: 'active', operatorName: operator.name } });
    after.events.push(await recordEscalationEvent(trx, { ...baseEvent(row, now), type: 'escalation-claimed', status: 'active', operatorName: operator.name }));
    return { ...row, ...patch };
  });
}

export async function postOperatorMessage(
  deps: EscalationDeps, workspaceId: string, escalationId: string, operator: OperatorRef, content: string,
): Promise<{ messageId: string; createdAt: string; escalation: EscalationRow }> {
  return inTransaction(deps, async (trx, after) => {
    const { row, decision } = await loadAndDecide(trx, { workspaceId }, escalationId, { kind: 'operator-reply', operator });
    const createdAt = nextMessageTime(row.last_message_at);
    let updated: EscalationRow = { ...row, last_message_at: createdAt, last_activity_at: createdAt };
    if (decision.claimedBy) {
      // The reply auto-claims: the claim is reported first, as if claimed a moment before.
      updated = { ...updated, status: 'active', claimed_by_id: operator.id, claimed_by_name: operator.name, claimed_at: createdAt };
      after.signals.push({ escalationId: row.id, signal: { kind: 'status', status: 'active', operatorName: operator.name } });
      after.events.push(await recordEscalationEvent(trx, { ...baseEvent(row, createdAt), type: 'escalation-claimed', status: 'active', operatorName: operator.name }));
    }
    const messageId = newId('emsg');
    await insertEscalationMessage(trx, { id: messageId, escalation_id: row.id, role: 'human_agent', content, operator_name: operator.name, created_at: createdAt });
    const { id: _id, ...patch } = updated;
    await updateEscalation(trx, row.id, patch);
    after.signals.push({ escalationId: row.id, signal: { kind: 'human-message', message: { id: messageId, content, createdAt } } });
    after.events.push(await recordEscalationEvent(trx, {
      ...baseEvent(row, createdAt), type: 'operator-message', status: 'active', operatorName: operator.name,
      message: { id: messageId, role: 'human_agent', content, createdAt },
    }));
    return { messageId, createdAt, escalation: updated };
  });
}

export async function resolveEscalation(deps: EscalationDeps, workspaceId: string, escalationId: string, operator: OperatorRef): Promise<EscalationRow> {
  return inTransaction(deps, async (trx, after) => {
    const { row, decision } = await loadAndDecide(trx, { workspaceId }, escalationId, { kind: 'resolve', operator });
    if (!decision.writes) return row;
    // Resolve has no body: the claimant keeps the name it claimed with.
    const operatorName = row.claimed_by_id === operator.id && row.claimed_by_name ? row.claimed_by_name : operator.name;
    const now = nowIso();
    const patch = { status: 'resolved' as const, resolved_at: now, resolved_by: 'operator' as const, last_activity_at: now };
    await updateEscalation(trx, row.id, patch);
    after.signals.push({ escalationId: row.id, signal: { kind: 'status', status: 'resolved', operatorName } });
    after.events.push(await recordEscalationEvent(trx, { ...baseEvent(row, now), type: 'escalation-resolved', status: 'resolved', operatorName }));
    return { ...row, ...patch };
  });
}
