import type { ModelMessage } from 'ai';
import { isUniqueViolation } from '../db/dialect.js';
import { AppError, validationError } from '../http/errors.js';
import { requireOpenSession } from '../sessions/session-service.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import {
  deleteContinueReply, expireActions, findContinueReply, findLatestTurn, insertActions, insertContinueReply, insertMessage, listTurnActions,
  setActionOutcome, storeContinueReply, updateTurn,
} from './agent-repository.js';
import { actionRow, envelopeOf, refuseWhileEscalated, relayFailure, usageOf, type ActionEnvelope, type AgentRuntime, type Usage } from './agent-service.js';
import type { AgentActionRow } from './agent-tables.js';
import { actionOutcome } from './conversation-history.js';
import { summarizeReply } from './message-summary.js';
import { buildModelContext, loadProjectModel } from './model-context.js';
import { runModelStep, type ModelStepResult } from './run-model-step.js';

export interface ActionResult {
  actionId: string;
  type: string;
  success: boolean;
  error?: string | undefined;
  summary?: string | undefined;
}

export interface ContinueRequest {
  sessionId: string;
  results: ActionResult[];
  context: Record<string, unknown>;
  hop?: number | undefined;
}

export interface ContinueResponse {
  sessionId: string;
  message: { id: string; role: 'assistant'; content: string; actions: ActionEnvelope[] };
  usage: Usage;
  isDone: boolean;
  hop: number;
}

/** Said instead of calling the model once a turn has used all its hops. */
export function closingMessage(maxHops: number): string {
  return `I've stopped here: this request reached the limit of ${maxHops} steps. Tell me if you want me to carry on.`;
}

/** How often a retry waits for the answer of an identical request still being made. */
const replayPollMs = 25;

/**
 * One hop of a turn: applies the app's action results, shows them to the model as
 * tool results and returns its next message and actions. The hop count is the
 * server's; a repeated request for an answered hop gets the stored answer without
 * a second model call.
 */
export async function continueTurn(runtime: AgentRuntime, projectId: string, request: ContinueRequest): Promise<ContinueResponse> {
  const { db, config } = runtime;
  const { project, resolved } = await loadProjectModel(runtime.projects, config, projectId, { streaming: false });
  await requireOpenSession(db, projectId, request.sessionId);
  await refuseWhileEscalated(db, request.sessionId);
  await expireActions(db, request.sessionId);

  const turn = await findLatestTurn(db, request.sessionId);
  const resultIds = JSON.stringify([...new Set(request.results.map((r) => r.actionId))].sort());
  if (turn) {
    const replayHop = request.hop ?? turn.hop;
    const previous = replayHop >= 1 && replayHop <= turn.hop + 1 ? await findContinueReply(db, turn.id, replayHop) : undefined;
    if (previous && (request.hop !== undefined || previous.result_ids === resultIds)) return awaitStoredReply(runtime, turn.id, replayHop);
  }
  if (!turn || turn.status !== 'open') {
    throw validationError(
      request.results.length > 0
        ? `results name actions that are not pending in this session's turn: ${request.results.map((r) => r.actionId).join(', ')}`
        : 'no turn of this session is waiting for action results; send a new message with POST /agent/message',
    );
  }

  // The turn's actions the app may report: those still unreported, and those of the latest hop
  // (already reported one by one through /complete, now sent again as the batch).
  const turnActions = await listTurnActions(db, turn.id);
  const reportable = new Map(turnActions.filter((a) => a.status === 'pending' || a.status === 'executing' || a.hop === turn.hop).map((a) => [a.id, a]));
  const unknown = request.results.filter((r) => !reportable.has(r.actionId)).map((r) => r.actionId);
  if (unknown.length > 0) throw validationError(`results name actions that are not pending in this session's turn: ${unknown.join(', ')}`);

  const hop = turn.hop + 1;
  try {
    await insertContinueReply(db, { turn_id: turn.id, hop, result_ids: resultIds, response: null, created_at: nowIso() });
  } catch (error) {
    // The same hop is being answered for an earlier copy of this request: share its answer.
    if (isUniqueViolation(error)) return awaitStoredReply(runtime, turn.id, hop);
    throw error;
  }

  try {
    // The results are applied to the records only with the answer, so a failed model call can be retried as is.
    const outcomes = new Map(request.results.map((r) => [r.actionId, r]));
    const applied: AgentActionRow[] = turnActions.map((action) => {
      const result = outcomes.get(action.id);
      if (!result) return action;
      return { ...action, status: result.success ? 'completed' : 'failed', error: result.success ? null : (result.error ?? 'failed'), result_summary: result.summary ?? null };
    });
    const started = { project, resolved, turn, replyId: newId('msg') };
    let step: ModelStepResult;
    let calls: AgentActionRow[] = [];
    if (hop >= project.max_hops) {
      step = { text: closingMessage(project.max_hops), calls: [], tokensUsed: 0, latencyMs: 0 };
    } else {
      const model = await buildModelContext(db, runtime.projects, project, turn.session_id, { context: request.context, mcpVersion: turn.mcp_version });
      const history = withResults(model.messages, new Map(applied.map((a) => [a.id, a])));
      step = await runModelStep({ model: resolved.model, system: model.system, messages: history, catalog: model.catalog, timeoutMs: config.modelTimeoutMs, stream: false, log: runtime.log });
      calls = step.calls.map((call) => actionRow(started, hop, call));
    }
    const isDone = calls.length === 0 || hop >= project.max_hops;
    const actions = calls.map(envelopeOf);
    const response: ContinueResponse = {
      sessionId: turn.session_id,
      message: { id: started.replyId, role: 'assistant', content: step.text, actions },
      usage: usageOf(started, step),
      isDone,
      hop,
    };
    await db.transaction().execute(async (trx) => {
      for (const result of request.results) {
        const action = applied.find((a) => a.id === result.actionId);
        if (action) await setActionOutcome(trx, action.id, { status: action.status, error: action.error, summary: action.result_summary });
      }
      await insertMessage(trx, {
        id: started.replyId, session_id: turn.session_id, turn_id: turn.id, role: 'assistant', content: step.text, summary: summarizeReply(step.text, actions), hop,
        mcp_version: turn.mcp_version, usage: JSON.stringify(response.usage), created_at: nowIso(),
      });
      await insertActions(trx, calls);
      await updateTurn(trx, turn.id, { hop, status: isDone ? 'done' : 'open' });
      await storeContinueReply(trx, turn.id, hop, JSON.stringify(response));
    });
    return response;
  } catch (error) {
    await deleteContinueReply(db, turn.id, hop).catch((cleanup: unknown) => runtime.log.error({ err: cleanup }, 'could not release a continue hop'));
    throw relayFailure(runtime.log, error);
  }
}

/**
 * The history as stored, with this request's results already applied to its tool
 * results (they are written to the records together with the answer).
 */
function withResults(messages: ModelMessage[], applied: Map<string, AgentActionRow>): ModelMessage[] {
  return messages.map((message) => {
    if (message.role !== 'tool') return message;
    return {
      ...message,
      content: message.content.map((part) => {
        const action = part.type === 'tool-result' ? applied.get(part.toolCallId) : undefined;
        return action && part.type === 'tool-result' ? { ...part, output: { type: 'json' as const, value: actionOutcome(action) } } : part;
      }),
    };
  });
}

/** The stored answer of a hop; waits while an identical earlier request is still being answered. */
async function awaitStoredReply(runtime: AgentRuntime, turnId: string, hop: number): Promise<ContinueResponse> {
  const deadline = Date.now() + runtime.config.modelTimeoutMs + 5_000;
  for (;;) {
    const row = await findContinueReply(runtime.db, turnId, hop);
    if (!row) throw new AppError('AI_RELAY_ERROR', 'the first copy of this request failed; send it again');
    if (row.response !== null) return JSON.parse(row.response) as ContinueResponse;
    if (Date.now() > deadline) throw new AppError('AI_RELAY_ERROR', 'the model did not answer in time');
    await new Promise((resolve) => setTimeout(resolve, replayPollMs));
  }
}
