import type { QueryParams, RequestBody, ResponseData } from './route-types.js';

/*
 * Named types of the routes, taken from the server's schemas (see route-types.ts),
 * plus the SSE frames of section 6, which no JSON schema describes.
 */

export type CreateSessionRequest = NonNullable<RequestBody<'/api/v1/agent/session', 'post'>>;
export type CreateSessionReply = ResponseData<'/api/v1/agent/session', 'post'>;
export type EndSessionReply = ResponseData<'/api/v1/agent/session/{sessionId}', 'delete'>;
export type PendingActionsReply = ResponseData<'/api/v1/agent/session/{sessionId}/pending-actions', 'get'>;
export type PendingAction = PendingActionsReply['actions'][number];

export type MessageRequest = RequestBody<'/api/v1/agent/message', 'post'>;
export type MessageReply = ResponseData<'/api/v1/agent/message', 'post'>;
export type ContinueRequest = RequestBody<'/api/v1/agent/continue', 'post'>;
export type ContinueReply = ResponseData<'/api/v1/agent/continue', 'post'>;

/** An action envelope: what the client executes in its own app. */
export type Action = MessageReply['message']['actions'][number];
/** An outcome reported through /agent/continue. */
export type ActionResult = ContinueRequest['results'][number];
/** The opaque UI context; `currentScreen` is the recommended field. */
export type Context = NonNullable<MessageRequest['context']>;
export type Usage = MessageReply['usage'];

export type ExecuteActionReply = ResponseData<'/api/v1/agent/action/{actionId}/execute', 'post'>;
export type CompleteActionRequest = RequestBody<'/api/v1/agent/action/{actionId}/complete', 'post'>;
export type CompleteActionReply = ResponseData<'/api/v1/agent/action/{actionId}/complete', 'post'>;

export type IdentifyRequest = RequestBody<'/api/v1/agent/identify', 'post'>;
export type IdentifyReply = ResponseData<'/api/v1/agent/identify', 'post'>;
export type PopularPromptsQuery = QueryParams<'/api/v1/agent/popular-prompts', 'get'>;
export type PopularPrompts = ResponseData<'/api/v1/agent/popular-prompts', 'get'>;
export type Personalization = ResponseData<'/api/v1/agent/personalization', 'get'>;

export type EscalateRequest = RequestBody<'/api/v1/agent/escalation', 'post'>;
export type Escalation = ResponseData<'/api/v1/agent/escalation', 'post'>;
export type EscalationMessageReply = ResponseData<'/api/v1/agent/escalation/{id}/message', 'post'>;
export type EscalationPoll = ResponseData<'/api/v1/agent/escalation/{id}', 'get'>;
export type EscalationStatus = EscalationPoll['status'];
export type AbandonReply = ResponseData<'/api/v1/agent/escalation/{id}/abandon', 'post'>;

export type OperatorQueueQuery = QueryParams<'/api/v1/escalations', 'get'>;
export type OperatorQueue = ResponseData<'/api/v1/escalations', 'get'>;
export type OperatorEscalation = ResponseData<'/api/v1/escalations/{id}', 'get'>;
export type ClaimReply = ResponseData<'/api/v1/escalations/{id}/claim', 'post'>;
export type OperatorReplyReply = ResponseData<'/api/v1/escalations/{id}/message', 'post'>;
export type ResolveReply = ResponseData<'/api/v1/escalations/{id}/resolve', 'post'>;

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
