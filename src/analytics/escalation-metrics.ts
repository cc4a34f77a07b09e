import type { Db } from '../db/database.js';
import type { AnalyticsScope } from './analytics-query.js';

export interface EscalationFacts {
  createdAt: string;
  /** Only when an operator resolved it (an end user abandoning is not a resolution time). */
  resolvedAt: string | null;
  firstReplyAt: string | null;
}

/**
 * Every escalation opened in the window with its first operator reply: one
 * grouped query (a left join keeps escalations nobody answered).
 */
export async function escalationFacts(db: Db, scope: AnalyticsScope): Promise<EscalationFacts[]> {
  let query = db
    .selectFrom('escalations')
    .leftJoin('escalation_messages', (join) => join.onRef('escalation_messages.escalation_id', '=', 'escalations.id').on('escalation_messages.role', '=', 'human_agent'))
    .select(['escalations.created_at', 'escalations.resolved_at', 'escalations.resolved_by', (eb) => eb.fn.min('escalation_messages.created_at').as('first_reply_at')])
    .where('escalations.workspace_id', '=', scope.workspaceId)
    .where('escalations.created_at', '>=', scope.since);
  if (scope.projectId) query = query.where('escalations.project_id', '=', scope.projectId);
  const rows = await query.groupBy(['escalations.id', 'escalations.created_at', 'escalations.resolved_at', 'escalations.resolved_by']).execute();
  return rows.map((row) => ({
    createdAt: row.created_at,
    resolvedAt: row.resolved_by === 'operator' ? row.resolved_at : null,
    firstReplyAt: row.first_reply_at ?? null,
  }));
}
