import type { Db } from '../db/database.js';

/** One message of the AI conversation as operators see it (escalation detail). */
export interface ConversationEntry {
  id: string;
  role: 'user' | 'assistant';
  content: string;
  createdAt: string;
  actions: Array<{ id: string; type: string; payload: unknown; status: 'pending' | 'executing' | 'completed' | 'failed'; error: string | null }>;
}

/** The AI conversation of a session, oldest first. Implemented by the agent feature. */
export async function conversationForOperator(_db: Db, _sessionId: string): Promise<ConversationEntry[]> {
  return [];
}
