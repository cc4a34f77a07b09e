import type { Db } from '../db/database.js';

/** One message of the AI conversation as operators see it (escalation detail). */
export interface ConversationEntry {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  actions: Array<{ id: string; type: string; payload: unknown; status: 'pending' | 'executing' | 'completed' | 'failed'; error: string | null }>;
}

/**
 * The AI conversation of a session, oldest first, with each reply's actions and
 * their outcomes. Unlike the model's history it keeps turns whose model call
 * failed: the operator should see everything the user wrote.
 */
export async function conversationForOperator(db: Db, sessionId: string): Promise<ConversationEntry[]> {
  const messages = await db.selectFrom('agent_messages').select(['id', 'role', 'content', 'created_at']).where('session_id', '=', sessionId).orderBy('seq').execute();
  const actions = await db
    .selectFrom('agent_actions')
    .select(['id', 'message_id', 'type', 'payload', 'status', 'error'])
    .where('session_id', '=', sessionId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return messages.map((message) => ({
    id: message.id,
    role: message.role,
    content: message.content,
    createdAt: message.created_at,
    actions: actions
      .filter((action) => action.message_id === message.id)
      .map((action) => ({ id: action.id, type: action.type, payload: JSON.parse(action.payload) as unknown, status: action.status, error: action.error })),
  }));
}
