import type { Db } from '../db/database.js';
import { notFound } from '../http/errors.js';
import { findOpenSession, insertSession } from './session-repository.js';
import type { SessionRow } from './session-tables.js';

/**
 * The session a request continues, or a new one when it names none
 * (POST /agent/message and POST /agent/escalation create sessions implicitly).
 */
export async function resolveSession(db: Db, projectId: string, sessionId: string | undefined): Promise<{ session: SessionRow; created: boolean }> {
  if (sessionId === undefined) return { session: await insertSession(db, { projectId }), created: true };
  const session = await findOpenSession(db, projectId, sessionId);
  if (!session) throw notFound('session');
  return { session, created: false };
}

export async function requireOpenSession(db: Db, projectId: string, sessionId: string): Promise<SessionRow> {
  const session = await findOpenSession(db, projectId, sessionId);
  if (!session) throw notFound('session');
  return session;
}
