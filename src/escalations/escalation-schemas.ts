import { Type, type Static } from 'typebox';
import { validationError } from '../http/errors.js';
import { parseIso } from '../shared/time.js';
import type { MessageRecord } from './escalation-repository.js';
import type { EscalationRow } from './escalation-tables.js';

/** Longest escalation message (end user or operator), in characters. */
export const maxMessageLength = 8000;
export const maxNoteLength = 2000;

export const Status = Type.Enum(['pending', 'active', 'resolved']);
export const Content = Type.String({ minLength: 1, maxLength: maxMessageLength, pattern: '\\S', description: `message text, 1–${maxMessageLength} characters, not only whitespace` });
export const OperatorName = Type.String({ minLength: 1, maxLength: 120, description: "display name; defaults to the key's (or user's) own name" });
export const SinceQuery = Type.Object({ since: Type.Optional(Type.String({ maxLength: 64, description: 'ISO 8601 timestamp: only operator messages created after it' })) });

export const EndUserEscalation = Type.Object({ escalationId: Type.String(), sessionId: Type.String(), status: Status });

export const PollMessage = Type.Object({ id: Type.String(), role: Type.Enum(['user', 'human_agent']), content: Type.String(), createdAt: Type.String() });

export const OperatorEscalation = Type.Object({
  escalationId: Type.String(),
  sessionId: Type.String(),
  projectId: Type.String(),
  status: Status,
  reason: Type.Enum(['user_requested', 'agent_gave_up']),
  note: Type.Union([Type.String(), Type.Null()]),
  claimedByName: Type.Union([Type.String(), Type.Null()], { description: 'operator who claimed it; null while pending' }),
  claimedAt: Type.Union([Type.String(), Type.Null()]),
  resolvedAt: Type.Union([Type.String(), Type.Null()]),
  resolvedBy: Type.Union([Type.Enum(['operator', 'end_user']), Type.Null()]),
  createdAt: Type.String(),
  lastActivityAt: Type.String(),
});

export const TranscriptMessage = Type.Object({
  id: Type.String(),
  role: Type.Enum(['user', 'human_agent']),
  content: Type.String(),
  operatorName: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String(),
});

export function toEndUserView(row: EscalationRow): Static<typeof EndUserEscalation> {
  return { escalationId: row.id, sessionId: row.session_id, status: row.status };
}

export function toOperatorView(row: EscalationRow): Static<typeof OperatorEscalation> {
  return {
    escalationId: row.id, sessionId: row.session_id, projectId: row.project_id, status: row.status, reason: row.reason, note: row.note,
    claimedByName: row.claimed_by_name, claimedAt: row.claimed_at, resolvedAt: row.resolved_at, resolvedBy: row.resolved_by,
    createdAt: row.created_at, lastActivityAt: row.last_activity_at,
  };
}

export function toPollMessage(m: MessageRecord): Static<typeof PollMessage> {
  return { id: m.id, role: m.role, content: m.content, createdAt: m.created_at };
}

export function toTranscriptMessage(m: MessageRecord): Static<typeof TranscriptMessage> {
  return { id: m.id, role: m.role, content: m.content, operatorName: m.operator_name, createdAt: m.created_at };
}

/** `since` as a normalized ISO string (so it compares with stored timestamps), or 422 naming it. */
export function parseSince(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const date = parseIso(value);
  if (!date) throw validationError('query.since must be an ISO 8601 timestamp');
  return date.toISOString();
}
