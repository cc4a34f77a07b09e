import { ParleyError } from './errors.js';
import { operatorFeed, type OperatorFeedOptions } from './operator-feed.js';
import { retryPolicy, type RetryPolicy } from './retry.js';
import { runTurn, type RunTurnOptions, type TurnTranscript } from './run-turn.js';
import { MessageStream, type StreamMessageOptions } from './stream-message.js';
import { Transport, type FetchLike } from './transport.js';
import type * as T from './types.js';
import { escalationEvents, watchEscalation, type WatchEscalationCallbacks, type WatchEscalationOptions } from './watch-escalation.js';

export interface ParleyClientOptions {
  /** The server's root, e.g. `http://127.0.0.1:8787` (the client adds /api/v1). */
  baseUrl: string;
  /** An API key (ak_…): sdk scope for the agent surface, operator scope for `operator`. */
  apiKey?: string;
  /** Instead of an operator key: a dashboard user token, with `workspaceId`. */
  userToken?: string;
  workspaceId?: string;
  /** A fetch implementation (default: the global one). */
  fetch?: FetchLike;
  /** Retry policy of section 7 (`false`: never retry). */
  retry?: Partial<RetryPolicy> | false;
}

/** Per-call options. */
export interface CallOptions {
  signal?: AbortSignal | undefined;
}

const segment = encodeURIComponent;

/**
 * The Parley HTTP API. Every method returns `data` of the success envelope and throws
 * ParleyError { code, status, message, requestId } on failure, after the retries of
 * section 7. Keys belong on servers: use this from your backend (section 5, rule 8).
 */
export class ParleyClient {
  readonly transport: Transport;
  /** The operator surface (/escalations): needs an operator key, or a user token + workspace id. */
  readonly operator: OperatorApi;

  constructor(options: ParleyClientOptions) {
    const credentials: Record<string, string> = {};
    if (options.apiKey !== undefined) credentials['authorization'] = `Bearer ${options.apiKey}`;
    else if (options.userToken !== undefined) credentials['authorization'] = `Bearer ${options.userToken}`;
    if (options.workspaceId !== undefined) credentials['x-workspace-id'] = options.workspaceId;
    const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.transport = new Transport(options.baseUrl, credentials, fetchImpl, retryPolicy(options.retry));
    this.operator = new OperatorApi(this.transport);
  }

  /** GET /health (no credentials needed); true when the API answers 200. */
  async health(options: CallOptions = {}): Promise<boolean> {
    try {
      const response = await this.transport.fetch('GET', '/health', { signal: options.signal });
      await response.body?.cancel();
      return response.ok;
    } catch (error) {
      if (error instanceof ParleyError && error.code === 'NETWORK_ERROR') return false;
      throw error;
    }
  }

  // --- sessions -------------------------------------------------------------------------

  createSession(body: T.CreateSessionRequest = {}, options: CallOptions = {}): Promise<T.CreateSessionReply> {
    return this.transport.json('POST', '/agent/session', { body, signal: options.signal });
  }

  endSession(sessionId: string, options: CallOptions = {}): Promise<T.EndSessionReply> {
    return this.transport.json('DELETE', `/agent/session/${segment(sessionId)}`, { signal: options.signal });
  }

  /** Actions persisted for the session and not yet reported (recovery after a drop). */
  pendingActions(sessionId: string, options: CallOptions = {}): Promise<T.PendingActionsReply> {
    return this.transport.json('GET', `/agent/session/${segment(sessionId)}/pending-actions`, { signal: options.signal });
  }

  // --- messages and turns ---------------------------------------------------------------

  sendMessage(body: T.MessageRequest, options: CallOptions = {}): Promise<T.MessageReply> {
    return this.transport.json('POST', '/agent/message', { body, signal: options.signal });
  }

  /** POST /agent/message/stream as section-6 frames, with fallback and recovery (see MessageStream). */
  streamMessage(body: T.MessageRequest, options: StreamMessageOptions = {}): MessageStream {
    return new MessageStream(this, body, options);
  }

  continueTurn(body: T.ContinueRequest, options: CallOptions = {}): Promise<T.ContinueReply> {
    return this.transport.json('POST', '/agent/continue', { body, signal: options.signal });
  }

  /** One whole turn: message, actions through `executeAction`, continuation hops until isDone. */
  runTurn(content: string, options: RunTurnOptions): Promise<TurnTranscript> {
    return runTurn(this, content, options);
  }

  markActionExecuting(actionId: string, options: CallOptions = {}): Promise<T.ExecuteActionReply> {
    return this.transport.json('POST', `/agent/action/${segment(actionId)}/execute`, { signal: options.signal });
  }

  completeAction(actionId: string, body: T.CompleteActionRequest, options: CallOptions = {}): Promise<T.CompleteActionReply> {
    return this.transport.json('POST', `/agent/action/${segment(actionId)}/complete`, { body, signal: options.signal });
  }

  // --- end user, prompts, personalization -----------------------------------------------

  identify(body: T.IdentifyRequest, options: CallOptions = {}): Promise<T.IdentifyReply> {
    return this.transport.json('POST', '/agent/identify', { body, signal: options.signal });
  }

  popularPrompts(query: T.PopularPromptsQuery = {}, options: CallOptions = {}): Promise<T.PopularPrompts> {
    return this.transport.json('GET', '/agent/popular-prompts', { query: query as Record<string, string | number | undefined>, signal: options.signal });
  }

  personalization(options: CallOptions = {}): Promise<T.Personalization> {
    return this.transport.json('GET', '/agent/personalization', { signal: options.signal });
  }

  // --- escalation, end-user side --------------------------------------------------------

  /** Starts a hand-off to a human, or returns the session's open one. */
  escalate(body: T.EscalateRequest, options: CallOptions = {}): Promise<T.Escalation> {
    return this.transport.json('POST', '/agent/escalation', { body, signal: options.signal });
  }

  sendEscalationMessage(escalationId: string, content: string, options: CallOptions = {}): Promise<T.EscalationMessageReply> {
    return this.transport.json('POST', `/agent/escalation/${segment(escalationId)}/message`, { body: { content }, signal: options.signal });
  }

  getEscalation(escalationId: string, query: { since?: string } = {}, options: CallOptions = {}): Promise<T.EscalationPoll> {
    return this.transport.json('GET', `/agent/escalation/${segment(escalationId)}`, { query, signal: options.signal });
  }

  abandonEscalation(escalationId: string, options: CallOptions = {}): Promise<T.AbandonReply> {
    return this.transport.json('POST', `/agent/escalation/${segment(escalationId)}/abandon`, { signal: options.signal });
  }

  /** Operator replies and status changes as callbacks; reconnects, dedupes, falls back to polling. */
  watchEscalation(escalationId: string, options: WatchEscalationCallbacks = {}): Promise<void> {
    return watchEscalation(this.transport, escalationId, options);
  }

  /** The same as an async iterator; ends after status `resolved`. */
  escalationEvents(escalationId: string, options: WatchEscalationOptions = {}): AsyncGenerator<T.EscalationEvent, void, undefined> {
    return escalationEvents(this.transport, escalationId, options);
  }
}

/** The operator surface: the workspace's queue, across its projects. */
export class OperatorApi {
  constructor(private readonly transport: Transport) {}

  /** GET /escalations: open (pending + active, the default) or resolved ones. */
  queue(query: T.OperatorQueueQuery = {}, options: CallOptions = {}): Promise<T.OperatorQueue> {
    return this.transport.json('GET', '/escalations', { query: query as Record<string, string | number | undefined>, signal: options.signal });
  }

  detail(escalationId: string, options: CallOptions = {}): Promise<T.OperatorEscalation> {
    return this.transport.json('GET', `/escalations/${segment(escalationId)}`, { signal: options.signal });
  }

  claim(escalationId: string, body: { operatorName?: string } = {}, options: CallOptions = {}): Promise<T.ClaimReply> {
    return this.transport.json('POST', `/escalations/${segment(escalationId)}/claim`, { body, signal: options.signal });
  }

  /** Replies as the operator (claims a pending escalation on the way). */
  reply(escalationId: string, content: string, body: { operatorName?: string } = {}, options: CallOptions = {}): Promise<T.OperatorReplyReply> {
    return this.transport.json('POST', `/escalations/${segment(escalationId)}/message`, { body: { content, ...body }, signal: options.signal });
  }

  resolve(escalationId: string, options: CallOptions = {}): Promise<T.ResolveReply> {
    return this.transport.json('POST', `/escalations/${segment(escalationId)}/resolve`, { signal: options.signal });
  }

  /** Every escalation event of the workspace; resumes with Last-Event-ID after a drop. */
  feed(options: OperatorFeedOptions = {}): AsyncGenerator<T.FeedEvent, void, undefined> {
    return operatorFeed(this.transport, options);
  }
}
