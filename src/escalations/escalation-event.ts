import type { EscalationStatus } from './escalation-state.js';

/** The feed and webhook event kinds, `<noun>-<action>`. */
export const escalationEventTypes = [
  'escalation-created',
  'user-message',
  'escalation-claimed',
  'operator-message',
  'escalation-resolved',
  'escalation-abandoned',
] as const;

export type EscalationEventType = (typeof escalationEventTypes)[number];

/**
 * One event of the workspace feed; webhooks POST exactly this object, and the
 * SSE `id:` and the `webhook-id` header are its `id`.
 */
export interface EscalationEvent {
  id: string;
  type: EscalationEventType;
  createdAt: string;
  workspaceId: string;
  projectId: string;
  escalationId: string;
  sessionId: string;
  /** Status after the event. */
  status: EscalationStatus;
  /** Set where an operator acted (claimed, operator-message, resolved). */
  operatorName?: string;
  /** escalation-created only. */
  reason?: string;
  note?: string | null;
  /** user-message and operator-message. */
  message?: { id: string; role: 'user' | 'human_agent'; content: string; createdAt: string };
}

/** What an end-user stream hears on channels.escalation(id). */
export type EscalationSignal =
  | { kind: 'status'; status: EscalationStatus; operatorName?: string }
  | { kind: 'human-message'; message: { id: string; content: string; createdAt: string } };
