import type { BodyOr, DataOr, QueryOr } from './route-types.js';
import type * as Spec from './spec-fallback-types.js';

/*
 * Named types of the routes, taken from the server's schemas (see route-types.ts),
 * plus the SSE frames of section 6, which no JSON schema describes.
 */

export type CreateSessionRequest = NonNullable<BodyOr<'/api/v1/agent/session', 'post', { userId?: string; deviceInfo?: Record<string, unknown> }>>;
export type CreateSessionReply = DataOr<'/api/v1/agent/session', 'post', { sessionId: string }>;
export type EndSessionReply = DataOr<'/api/v1/agent/session/{sessionId}', 'delete', { message: string }>;
export type PendingActionsReply = DataOr<'/api/v1/agent/session/{sessionId}/pending-actions', 'get', Spec.SpecPendingActions>;
export type PendingAction = PendingActionsReply['actions'][number];

export type MessageRequest = BodyOr<'/api/v1/agent/message', 'post', Spec.SpecMessageRequest>;
export type MessageReply = DataOr<'/api/v1/agent/message', 'post', Spec.SpecMessageReply>;
export type ContinueRequest = BodyOr<'/api/v1/agent/continue', 'post', Spec.SpecContinueRequest>;
export type ContinueReply = DataOr<'/api/v1/agent/continue', 'post', Spec.SpecContinueReply>;

/** An action envelope: what the client executes in its own app. */
export type Action = MessageReply['message']['actions'][number];
/** An outcome reported through /agent/continue. */
export type ActionResult = ContinueRequest['results'][number];
/** The opaque UI context; `currentScreen` is the recommended field. */
export type Context = NonNullable<MessageRequest['context']>;
export type Usage = MessageReply['usage'];

export type ExecuteActionReply = DataOr<'/api/v1/agent/action/{actionId}/execute', 'post', Spec.SpecExecuteReply>;
export type CompleteActionRequest = BodyOr<'/api/v1/agent/action/{actionId}/complete', 'post', Spec.SpecCompleteRequest>;
export type CompleteActionReply = DataOr<'/api/v1/agent/action/{actionId}/complete', 'post', Spec.SpecCompleteReply>;

export type IdentifyRequest = BodyOr<'/api/v1/agent/identify', 'post', Spec.SpecIdentifyRequest>;
export type IdentifyReply = DataOr<'/api/v1/agent/identify', 'post', { identified: true }>;
export type PopularPromptsQuery = QueryOr<'/api/v1/agent/popular-prompts', 'get', Spec.SpecPopularPromptsQuery>;
export type PopularPrompts = DataOr<'/api/v1/agent/popular-prompts', 'get', Spec.SpecPopularPrompts>;
export type Personalization = DataOr<'/api/v1/agent/personalization', 'get', Spec.SpecPersonalization>;

export type EscalateRequest = BodyOr<'/api/v1/agent/escalation', 'post', Spec.SpecEscalateRequest>;
export type Escalation = DataOr<'/api/v1/agent/escalation', 'post', Spec.SpecEscalation>;
export type EscalationMessageReply = DataOr<'/api/v1/agent/escalation/{id}/message', 'post', { messageId: string }>;
export type EscalationPoll = DataOr<'/api/v1/agent/escalation/{id}', 'get', Spec.SpecEscalationPoll>;
export type EscalationStatus = EscalationPoll['status'];
export type AbandonReply = DataOr<'/api/v1/agent/escalation/{id}/abandon', 'post', { status: 'resolved' }>;

export type OperatorQueueQuery = QueryOr<'/api/v1/escalations', 'get', { status?: 'open' | 'resolved' }>;
export type OperatorQueue = DataOr<'/api/v1/escalations', 'get', Spec.SpecOperatorQueue>;
export type OperatorEscalation = DataOr<'/api/v1/escalations/{id}', 'get', Spec.SpecOperatorEscalation>;
export type ClaimReply = DataOr<'/api/v1/escalations/{id}/claim', 'post', Spec.SpecOperatorEscalation>;
export type OperatorReplyReply = DataOr<'/api/v1/escalations/{id}/message', 'post', Record<string, unknown>>;
export type ResolveReply = DataOr<'/api/v1/escalations/{id}/resolve', 'post', Spec.SpecOperatorEscalation>;

/** Frames of POST /agent/message/stream (section 6). */
export type StreamFrame =
  | { type: 'session'; sessionId: string }
  | { type: 'text-delta'; content: string }
  | { type: 'tool-call'; action: Action }
  | {
      type: 'done';
      messageId: string;
      usage?: { tokensUsed: number };
      /**
       * Client-side only: true when the stream dropped before its own `done` and the
       * client recovered the turn's actions through pending-actions; the text may be partial.
       */
      recovered?: true;
    };

/** Events of GET /agent/escalation/:id/stream (section 6). */
export type EscalationEvent =
  | { type: 'status'; status: EscalationStatus; operatorName?: string }
  | { type: 'human-message'; message: { id: string; content: string; createdAt: string } };

/** One event of the operator feed: its SSE id (for Last-Event-ID) and parsed JSON data. */
export interface FeedEvent {
  id: string | undefined;
  data: { type: string; [key: string]: unknown };
}
