import type { Db } from '../db/database.js';

/**
 * The open (pending or active) escalation of a session, if any. The agent
 * routes ask this before calling the model, so the AI does not talk over a
 * human operator. Implemented by the escalation feature.
 */
export async function findOpenEscalationId(_db: Db, _sessionId: string): Promise<string | null> {
  return null;
}
