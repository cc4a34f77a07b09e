import type { ColumnType, Generated } from 'kysely';
import type { EscalationStatus } from './escalation-state.js';

export type EscalationReason = 'user_requested' | 'agent_gave_up';

export interface EscalationRow {
  id: string;
  workspace_id: string;
  project_id: string;
  session_id: string;
  status: EscalationStatus;
  reason: EscalationReason;
  note: string | null;
  /** Who claimed it: `key:<keyId>` or `user:<userId>` (the "same operator" test). */
  claimed_by_id: string | null;
  claimed_by_name: string | null;
  claimed_at: string | null;
  resolved_at: string | null;
  /** 'operator' (resolve) or 'end_user' (abandon). */
  resolved_by: 'operator' | 'end_user' | null;
  created_at: string;
  /** Queue order: newest activity first. */
  last_activity_at: string;
  /** createdAt of the newest message; the next one is strictly later (see nextMessageTime). */
  last_message_at: string | null;
}

export interface EscalationMessageRow {
  /** Total order of messages beyond the millisecond. */
  seq: Generated<number>;
  id: string;
  escalation_id: string;
  role: 'user' | 'human_agent';
  content: string;
  operator_name: string | null;
  created_at: string;
}

export interface EscalationEventRow {
  seq: ColumnType<number, never, never>;
  id: string;
  workspace_id: string;
  escalation_id: string;
  type: string;
  /** JSON: the EscalationEvent, exactly as the feed and webhooks send it. */
  payload: string;
  created_at: string;
}

export interface EscalationTables {
  escalations: EscalationRow;
  escalation_messages: EscalationMessageRow;
  escalation_events: EscalationEventRow;
}
