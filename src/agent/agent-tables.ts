import type { Generated } from 'kysely';

/** A user turn: one /agent/message and the /agent/continue hops that follow it. */
export interface AgentTurnRow {
  id: string;
  session_id: string;
  project_id: string;
  /** Continuations done so far (0 right after /agent/message); tracked here, never taken from the client. */
  hop: number;
  /** open: waiting for action results; done: ended; superseded: a new message ended it; failed: the model call failed (kept out of history). */
  status: 'open' | 'done' | 'superseded' | 'failed';
  /** mcpVersion sent with the turn's message: picks the action catalog for every hop. */
  mcp_version: string | null;
  created_at: string;
  updated_at: string;
}

/** A message of the AI conversation. Tool results live on the actions themselves. */
export interface AgentMessageRow {
  /** Total order within the database; ids only sort to the millisecond. */
  seq: number;
  id: string;
  session_id: string;
  turn_id: string;
  role: 'user' | 'assistant';
  content: string;
  summary: string | null;
  hop: number;
  mcp_version: string | null;
  /** JSON: { tokensUsed, modelUsed, latencyMs } on assistant messages. */
  usage: string | null;
  created_at: string;
}

export type ActionStatus = 'pending' | 'executing' | 'completed' | 'failed';

export interface AgentActionRow {
  id: string;
  session_id: string;
  message_id: string;
  turn_id: string;
  /** The model's tool call id, so its result can be matched in the history. */
  tool_call_id: string;
  hop: number;
  type: string;
  /** JSON object. */
  payload: string;
  status: ActionStatus;
  /** Failure reason: the app's error text, or `timeout` / `superseded`. */
  error: string | null;
  /** Optional summary the app gave with its result. */
  result_summary: string | null;
  created_at: string;
  updated_at: string;
  /** When an unreported action is failed with reason timeout. */
  expires_at: string;
}

/** The answer of one /agent/continue hop, kept so a retried request gets the same answer. */
export interface AgentContinueReplyRow {
  turn_id: string;
  hop: number;
  /** JSON sorted list of the action ids reported, to recognise a retry that omits `hop`. */
  result_ids: string;
  /** JSON response `data`, or null while the hop is still being answered. */
  response: string | null;
  created_at: string;
}

export interface AgentTables {
  agent_turns: AgentTurnRow;
  agent_messages: Omit<AgentMessageRow, 'seq'> & { seq: Generated<number> };
  agent_actions: AgentActionRow;
  agent_continue_replies: AgentContinueReplyRow;
}
