import type { Db } from '../db/database.js';

/** One finished human exchange of a session, for the agent's history after hand-back. */
export interface HumanExchange {
  escalationId: string;
  startedAt: string;
  resolvedAt: string;
  messages: Array<{ role: 'user' | 'human_agent'; content: string; operatorName: string | null; createdAt: string }>;
}

/**
 * The resolved escalations of a session with their transcripts, oldest first.
 * The agent puts them in the model's history with a marker that the human part
 * has ended. Implemented by the escalation feature.
 */
export async function humanExchangesForHistory(_db: Db, _sessionId: string): Promise<HumanExchange[]> {
  return [];
}
