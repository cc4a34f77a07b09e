import type { Db } from '../db/database.js';
import { listEscalationMessages, listResolvedEscalationsOfSession } from './escalation-repository.js';

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
 * has ended. Operator names are included; identifiers of the end user never are.
 */
export async function humanExchangesForHistory(db: Db, sessionId: string): Promise<HumanExchange[]> {
  const escalations = await listResolvedEscalationsOfSession(db, sessionId);
  const exchanges: HumanExchange[] = [];
  for (const escalation of escalations) {
    const messages = await listEscalationMessages(db, escalation.id);
    exchanges.push({
      escalationId: escalation.id,
      startedAt: escalation.created_at,
      resolvedAt: escalation.resolved_at ?? escalation.last_activity_at,
      messages: messages.map((m) => ({ role: m.role, content: m.content, operatorName: m.operator_name, createdAt: m.created_at })),
    });
  }
  return exchanges;
}
