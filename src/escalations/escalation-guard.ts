import type { Db } from '../db/database.js';
import { findOpenEscalationOfSession } from './escalation-repository.js';

/**
 * The open (pending or active) escalation of a session, if any. The agent
 * routes ask this before calling the model, so the AI does not talk over a
 * human operator (they answer 409 ESCALATION_OPEN while one is open).
 */
export async function findOpenEscalationId(db: Db, sessionId: string): Promise<string | null> {
  const row = await findOpenEscalationOfSession(db, sessionId);
  return row?.id ?? null;
}
