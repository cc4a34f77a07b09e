import type { FastifyBaseLogger } from 'fastify';
import type { ModelMessage } from 'ai';
import type { Config } from '../config/config.js';
import { commitBatcherFor } from '../db/commit-batcher.js';
import type { Db } from '../db/database.js';
import { findOpenEscalationId } from '../escalations/escalation-guard.js';
import { AppError } from '../http/errors.js';
import { classify } from '../models/model-errors.js';
import type { ResolvedModel } from '../models/model-registry.js';
import type { ProjectRecord } from '../projects/project-repository.js';
import { recordOpeningPrompt, type OpeningPrompt } from '../prompts/prompt-recorder.js';
import { insertSession } from '../sessions/session-repository.js';
import { requireOpenSession } from '../sessions/session-service.js';
import { newId } from '../shared/ids.js';
import { isoAfter, nowIso } from '../shared/time.js';
import type { ActionCatalog } from './action-catalog.js';
import type { AgentProjectCache } from './agent-project-cache.js';
import { expireActions, failOpenActionsOfSession, insertActions, insertMessage, insertTurn, updateTurn } from './agent-repository.js';
import type { AgentActionRow, AgentMessageRow, AgentTurnRow } from './agent-tables.js';
import { summarizeReply } from './message-summary.js';
import { buildModelContext, loadProjectModel } from './model-context.js';
import type { ModelStepResult, ValidToolCall } from './run-model-step.js';

export interface AgentRuntime {
  db: Db;
  config: Config;
  /** Project rows and action catalogs, invalidated through the bus. */
  projects: AgentProjectCache;
  log: FastifyBaseLogger;
}

export interface ActionEnvelope {
  id: string;
  type: string;
  payload: Record<string, unknown>;
}

export interface Usage {
  tokensUsed: number;
  modelUsed: string;
  latencyMs: number;
}

export interface MessageRequest {
  content: string;
  sessionId?: string | undefined;
  context?: Record<string, unknown> | undefined;
  mcpVersion?: string | undefined;
}

/** A turn whose user message is stored, ready for its model call. */
export interface StartedTurn {
  project: ProjectRecord;
  resolved: ResolvedModel;
  sessionId: string;
  turn: AgentTurnRow;
  system: string;
  messages: ModelMessage[];
  catalog: ActionCatalog;
  /** Id the assistant reply will have; known up front so streamed actions can point at it. */
  replyId: string;
  /** The turn's start when it is not stored yet: finishMessageTurn writes it with the reply. */
  deferred: TurnStart | null;
}

/** The AI must not talk over a human: while an escalation is open, messages go to the operator. */
export async function refuseWhileEscalated(db: Db, sessionId: string): Promise<void> {
  const escalationId = await findOpenEscalationId(db, sessionId);
  if (escalationId !== null) {
    throw new AppError('ESCALATION_OPEN', `a human operator has this conversation (escalation ${escalationId}); send the user's messages with POST /agent/escalation/${escalationId}/message`);
  }
}

/** Upstream failures become AI_RELAY_ERROR; what the upstream said goes to the log only. */
export function relayFailure(log: FastifyBaseLogger, error: unknown): AppError {
  if (error instanceof AppError) return error;
  const relay = classify(error);
  log.warn({ kind: relay.kind, status: relay.statusCode, detail: relay.detail }, 'model call failed');
  return new AppError('AI_RELAY_ERROR', relay.publicMessage);
}

/** The rows that start a turn: written before the model call, or (deferred) with the reply. */
interface TurnStart {
  projectId: string;
  /** The session is created by this message. */
  newSession: boolean;
  turn: AgentTurnRow;
  userMessage: Omit<AgentMessageRow, 'seq'>;
  opening: OpeningPrompt;
}

/**
 * Starts a turn for a new user message: ends the previous turn (its unreported
 * actions fail with reason superseded, or timeout when expired), stores the
 * message and records it as an opening prompt, all in one transaction, then
 * gathers what the model will see. A non-streamed message that creates its
 * session defers those writes to finishMessageTurn, so the whole turn is one
 * transaction: nobody can know the new session before the reply names it, and a
 * failed model call then leaves nothing behind.
 */
export async function startMessageTurn(runtime: AgentRuntime, projectId: string, request: MessageRequest, need: { streaming: boolean }): Promise<StartedTurn> {
  const { db } = runtime;
  const { project, resolved } = await loadProjectModel(runtime.projects, runtime.config, projectId, need);
  const newSession = request.sessionId === undefined;
  if (request.sessionId !== undefined) {
    await requireOpenSession(db, projectId, request.sessionId);
    await refuseWhileEscalated(db, request.sessionId);
  }
  const sessionId = request.sessionId ?? newId('ses');
  const now = nowIso();
  const mcpVersion = request.mcpVersion ?? null;
  const turn: AgentTurnRow = { id: newId('trn'), session_id: sessionId, project_id: projectId, hop: 0, status: 'open', mcp_version: mcpVersion, created_at: now, updated_at: now };
  const screen = typeof request.context?.['currentScreen'] === 'string' ? request.context['currentScreen'] : null;
  const start: TurnStart = {
    projectId,
    newSession,
    turn,
    userMessage: { id: newId('msg'), session_id: sessionId, turn_id: turn.id, role: 'user', content: request.content, summary: null, hop: 0, mcp_version: mcpVersion, usage: null, created_at: now },
    opening: { projectId, sessionId, screen, content: request.content, at: now },
  };
  const deferred = newSession && !need.streaming;
  // Group commit: turns starting at the same moment share one commit (see CommitBatcher).
  if (!deferred) await commitBatcherFor(db).run((trx) => writeTurnStart(trx, start));
  const model = await buildModelContext(db, runtime.projects, project, sessionId, { context: request.context ?? null, mcpVersion }, newSession ? request.content : null);
  return { project, resolved, sessionId, turn, ...model, replyId: newId('msg'), deferred: deferred ? start : null };
}

async function writeTurnStart(trx: Db, start: TurnStart): Promise<void> {
  const sessionId = start.turn.session_id;
  if (start.newSession) {
    await insertSession(trx, { projectId: start.projectId, id: sessionId });
  } else {
    await expireActions(trx, sessionId);
    await failOpenActionsOfSession(trx, sessionId, 'superseded');
    await trx.updateTable('agent_turns').set({ status: 'superseded', updated_at: start.turn.created_at }).where('session_id', '=', sessionId).where('status', '=', 'open').execute();
  }
  await insertTurn(trx, start.turn);
  await insertMessage(trx, start.userMessage);
  await recordOpeningPrompt(trx, start.opening);
}

export function actionRow(started: Pick<StartedTurn, 'project' | 'turn' | 'replyId'>, hop: number, call: ValidToolCall): AgentActionRow {
  // One clock reading, so expires_at - created_at is exactly the project's timeout.
  const at = new Date();
  const now = at.toISOString();
  return {
    id: newId('act'),
    session_id: started.turn.session_id,
    message_id: started.replyId,
    turn_id: started.turn.id,
    tool_call_id: call.toolCallId,
    hop,
    type: call.type,
    payload: JSON.stringify(call.payload),
    status: 'pending',
    error: null,
    result_summary: null,
    created_at: now,
    updated_at: now,
    expires_at: isoAfter(started.project.action_timeout_seconds * 1000, at),
  };
}

export const envelopeOf = (row: AgentActionRow): ActionEnvelope => ({ id: row.id, type: row.type, payload: JSON.parse(row.payload) as Record<string, unknown> });

export function usageOf(started: Pick<StartedTurn, 'resolved'>, result: Pick<ModelStepResult, 'tokensUsed' | 'latencyMs'>): Usage {
  return { tokensUsed: result.tokensUsed, modelUsed: started.resolved.modelId, latencyMs: Math.round(result.latencyMs) };
}

/**
 * Stores the assistant reply of a message turn with its actions (unless the
 * stream already stored them one by one) and ends the turn when nothing is left
 * for the app to do.
 */
export async function finishMessageTurn(
  runtime: AgentRuntime,
  started: StartedTurn,
  result: ModelStepResult,
  stored: AgentActionRow[] | null,
): Promise<{ sessionId: string; message: { id: string; role: 'assistant'; content: string; summary: string; actions: ActionEnvelope[] }; usage: Usage }> {
  const rows = stored ?? result.calls.map((call) => actionRow(started, 0, call));
  const actions = rows.map(envelopeOf);
  const summary = summarizeReply(result.text, actions);
  const usage = usageOf(started, result);
  // A deferred turn with nothing left for the app is stored already done: one statement less.
  const doneAtOnce = started.deferred !== null && rows.length === 0;
  await commitBatcherFor(runtime.db).run(async (trx) => {
    if (started.deferred) await writeTurnStart(trx, doneAtOnce ? { ...started.deferred, turn: { ...started.deferred.turn, status: 'done', updated_at: nowIso() } } : started.deferred);
    await insertMessage(trx, {
      id: started.replyId, session_id: started.sessionId, turn_id: started.turn.id, role: 'assistant', content: result.text, summary, hop: 0,
      mcp_version: started.turn.mcp_version, usage: JSON.stringify(usage), created_at: nowIso(),
    });
    if (stored === null) await insertActions(trx, rows);
    if (rows.length === 0 && !doneAtOnce) await updateTurn(trx, started.turn.id, { status: 'done' });
  });
  return { sessionId: started.sessionId, message: { id: started.replyId, role: 'assistant', content: result.text, summary, actions }, usage };
}

/** A turn whose model call failed is kept out of the history, so a retried message is not seen twice. */
export async function failTurn(runtime: AgentRuntime, turnId: string, started?: Pick<StartedTurn, 'deferred'>): Promise<void> {
  // A deferred turn was never stored: there is nothing to mark.
  if (started?.deferred) return;
  try {
    await updateTurn(runtime.db, turnId, { status: 'failed' });
  } catch (error) {
    runtime.log.error({ err: error }, 'could not mark a failed turn');
  }
}
