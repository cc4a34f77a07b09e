import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../http/errors.js';
import { SseStream } from '../sse/sse-writer.js';
import { nowIso } from '../shared/time.js';
import { insertActions, insertMessage } from './agent-repository.js';
import { actionRow, envelopeOf, failTurn, finishMessageTurn, relayFailure, startMessageTurn, type AgentRuntime, type MessageRequest } from './agent-service.js';
import type { AgentActionRow } from './agent-tables.js';
import { summarizeReply } from './message-summary.js';
import { runModelStep } from './run-model-step.js';

/**
 * POST /agent/message/stream. Nothing is written until the model's first output
 * arrives: a failure before that (bad model, upstream down) is a plain JSON
 * envelope the client may retry through POST /agent/message. After it, frames are
 * `session`, `text-delta`…, `tool-call`… (each action stored before it is sent),
 * and `done`; a failure becomes a final `error` frame. A client that goes away
 * does not stop the model call: the reply and its actions are stored, so
 * GET /agent/session/:id/pending-actions can recover them.
 */
export async function streamMessage(runtime: AgentRuntime, request: FastifyRequest, reply: FastifyReply, projectId: string, body: MessageRequest): Promise<void> {
  const started = await startMessageTurn(runtime, projectId, body, { streaming: true });
  let sse: SseStream | null = null;
  const open = (): SseStream => {
    if (sse === null) {
      // 'finish': on shutdown this turn completes (bounded) rather than being cut.
      sse = new SseStream(request, reply, { pingIntervalMs: runtime.config.ssePingIntervalMs, onShutdown: 'finish' });
      sse.send({ type: 'session', sessionId: started.sessionId });
    }
    return sse;
  };
  const stored: AgentActionRow[] = [];
  let text = '';
  try {
    const result = await runModelStep({
      model: started.resolved.model,
      system: started.system,
      messages: started.messages,
      catalog: started.catalog,
      timeoutMs: runtime.config.modelTimeoutMs,
      stream: true,
      log: runtime.log,
      onTextDelta: (delta) => {
        text += delta;
        open().send({ type: 'text-delta', content: delta });
      },
      onAction: async (call) => {
        const row = actionRow(started, 0, call);
        await insertActions(runtime.db, [row]);
        stored.push(row);
        open().send({ type: 'tool-call', action: envelopeOf(row) });
      },
    });
    const data = await finishMessageTurn(runtime, started, result, stored);
    open().send({ type: 'done', messageId: data.message.id, usage: { tokensUsed: data.usage.tokensUsed } });
    open().end();
  } catch (error) {
    const failure = relayFailure(request.log, error);
    if (sse === null) {
      await failTurn(runtime, started.turn.id);
      throw failure;
    }
    await keepPartialReply(runtime, started, text, stored);
    const stream: SseStream = sse;
    stream.send({ type: 'error', code: failure.code, message: failure.message });
    stream.end();
  }
}

/**
 * After a mid-stream failure: actions already sent stay valid (the app may be
 * running them), so the partial reply is stored with them; with no actions the
 * turn is dropped from the history like any failed call.
 */
async function keepPartialReply(runtime: AgentRuntime, started: Awaited<ReturnType<typeof startMessageTurn>>, text: string, stored: AgentActionRow[]): Promise<void> {
  try {
    if (stored.length === 0) {
      await failTurn(runtime, started.turn.id);
      return;
    }
    await insertMessage(runtime.db, {
      id: started.replyId, session_id: started.sessionId, turn_id: started.turn.id, role: 'assistant', content: text,
      summary: summarizeReply(text, stored.map(envelopeOf)), hop: 0, mcp_version: started.turn.mcp_version, usage: null, created_at: nowIso(),
    });
  } catch (error) {
    runtime.log.error({ err: error instanceof AppError ? error.message : error }, 'could not keep a partial reply');
  }
}
