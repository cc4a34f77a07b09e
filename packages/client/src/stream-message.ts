import { ParleyError, abortedError, isRetryable, networkError } from './errors.js';
import { parseSse } from './sse.js';
import type { Transport } from './transport.js';
import { isRecord, parseJson } from './transport.js';
import type { Action, MessageReply, MessageRequest, PendingActionsReply, StreamFrame } from './types.js';

export interface StreamMessageOptions {
  signal?: AbortSignal;
}

export interface StreamApi {
  transport: Transport;
  sendMessage(body: MessageRequest, options?: { signal?: AbortSignal | undefined }): Promise<MessageReply>;
  pendingActions(sessionId: string, options?: { signal?: AbortSignal | undefined }): Promise<PendingActionsReply>;
}

/**
 * A reply as section-6 frames. How the frames were obtained is visible afterwards:
 * `via` is 'stream', or 'message' when the stream failed before its first frame and the
 * client fell back to POST /agent/message (section 7, rule 4); `recovered` is true when
 * the stream dropped midway and the turn's actions came from pending-actions.
 */
export class MessageStream implements AsyncIterable<StreamFrame> {
  via: 'stream' | 'message' = 'stream';
  recovered = false;
  sessionId: string | undefined;

  constructor(
    private readonly api: StreamApi,
    private readonly body: MessageRequest,
    private readonly options: StreamMessageOptions,
  ) {
    this.sessionId = body.sessionId;
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamFrame> {
    return this.frames()[Symbol.asyncIterator]();
  }

  private async *frames(): AsyncGenerator<StreamFrame, void, undefined> {
    const { signal } = this.options;
    let response: Response;
    try {
      response = await this.api.transport.fetch('POST', '/agent/message/stream', { body: this.body, headers: { accept: 'text/event-stream' }, signal });
    } catch (error) {
      yield* this.fallback(error);
      return;
    }
    if (!response.ok || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      // The server answers a failure before the first event as a JSON envelope.
      yield* this.fallback(response.ok ? networkError('the stream answered without an event stream') : await this.api.transport.failure(response));
      return;
    }
    if (response.body === null) {
      yield* this.fallback(networkError('the stream has no body'));
      return;
    }

    const requestId = response.headers.get('x-request-id') ?? undefined;
    const seenActions = new Set<string>();
    let framesSeen = 0;
    try {
      for await (const event of parseSse(response.body)) {
        const frame = parseJson(event.data);
        // Parley ends a stream that fails after its first frame with an `error` frame:
        // the reply is incomplete, but the actions already sent stay valid.
        if (isRecord(frame) && frame['type'] === 'error') throw lateFailure(frame, requestId);
        if (!isFrame(frame)) continue;
        framesSeen += 1;
        if (frame.type === 'session') this.sessionId = frame.sessionId;
        if (frame.type === 'tool-call') seenActions.add(frame.action.id);
        yield frame;
        if (frame.type === 'done') return;
      }
      // The body ended without `done`: the connection was closed under us.
      throw networkError('the stream ended before its done event');
    } catch (error) {
      if (signal?.aborted) throw abortedError();
      if (error instanceof ParleyError && error.status !== 0) throw error;
      if (framesSeen === 0) {
        yield* this.fallback(error);
        return;
      }
      yield* this.recover(seenActions, error);
    }
  }

  /** Section 7 rule 4: nothing arrived, so the whole message is sent again as plain JSON. */
  private async *fallback(cause: unknown): AsyncGenerator<StreamFrame, void, undefined> {
    if (!isRetryable(cause)) throw cause;
    this.via = 'message';
    const reply = await this.api.sendMessage(this.body, { signal: this.options.signal });
    this.sessionId = reply.sessionId;
    yield { type: 'session', sessionId: reply.sessionId };
    if (reply.message.content !== '') yield { type: 'text-delta', content: reply.message.content };
    for (const action of reply.message.actions) yield { type: 'tool-call', action };
    yield { type: 'done', messageId: reply.message.id, usage: { tokensUsed: reply.usage.tokensUsed } };
  }

  /**
   * After a drop midway, the actions the server persisted for this turn come back
   * through pending-actions: those of the message whose tool calls we already saw, or,
   * when none was seen, every unreported action of the session.
   */
  private async *recover(seenActions: Set<string>, cause: unknown): AsyncGenerator<StreamFrame, void, undefined> {
    const sessionId = this.sessionId;
    if (sessionId === undefined) throw cause;
    const { actions } = await this.api.pendingActions(sessionId, { signal: this.options.signal });
    const messageIds = new Set(actions.filter((action) => seenActions.has(action.id)).map((action) => action.messageId));
    const turnActions = messageIds.size > 0 ? actions.filter((action) => messageIds.has(action.messageId)) : actions;
    this.recovered = true;
    for (const pending of turnActions) {
      if (seenActions.has(pending.id)) continue;
      const action: Action = { id: pending.id, type: pending.type, payload: pending.payload } as Action;
      yield { type: 'tool-call', action };
    }
    const messageId = turnActions[turnActions.length - 1]?.messageId ?? '';
    yield { type: 'done', messageId, recovered: true };
  }
}

const statusOfCode: Record<string, number> = { AI_RELAY_ERROR: 502, UNSUPPORTED_MODEL: 422, RECOVER_PENDING_FAILED: 500 };

function lateFailure(frame: Record<string, unknown>, requestId: string | undefined): ParleyError {
  const code = typeof frame['code'] === 'string' ? frame['code'] : 'INTERNAL_ERROR';
  const message = typeof frame['message'] === 'string' ? frame['message'] : 'the reply failed midway';
  return new ParleyError({ code, status: statusOfCode[code] ?? 500, message, requestId });
}

function isFrame(value: unknown): value is StreamFrame {
  if (!isRecord(value)) return false;
  switch (value['type']) {
    case 'session':
      return typeof value['sessionId'] === 'string';
    case 'text-delta':
      return typeof value['content'] === 'string';
    case 'tool-call':
      return isRecord(value['action']) && typeof value['action']['id'] === 'string';
    case 'done':
      return typeof value['messageId'] === 'string';
    default:
      // Unknown kinds are skipped: the spec shows no others, and a newer server may add some.
      return false;
  }
}

