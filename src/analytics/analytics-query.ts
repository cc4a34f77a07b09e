import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Which projects and since when: every query below is bounded by both. */
export interface AnalyticsScope {
  workspaceId: string;
  /** One project, or every project of the workspace. */
  projectId: string | null;
  /** ISO timestamp: start of the first day counted (UTC midnight). */
  since: string;
}

/** The UTC date of an ISO timestamp column; ISO text makes this one portable expression. */
const dayOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`;

/** Conversations (sessions started) per UTC day. */
export async function conversationsPerDay(db: Db, scope: AnalyticsScope): Promise<Map<string, number>> {
  let query = db
    .selectFrom('sessions')
    .innerJoin('projects', 'projects.id', 'sessions.project_id')
    .select([dayOf('sessions.created_at').as('day'), (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('projects.workspace_id', '=', scope.workspaceId)
    .where('sessions.created_at', '>=', scope.since);
  if (scope.projectId) query = query.where('sessions.project_id', '=', scope.projectId);
  const rows = await query.groupBy(dayOf('sessions.created_at')).execute();
  return new Map(rows.map((row) => [row.day, Number(row.count)]));
}

/**
 * The prompts that opened the most conversations in the window, counted by
 * distinct session. Only prompts at or above each project's popular-prompt
 * floor are shown, as for end users: analytics must not reveal one person's words.
 */
export async function topPrompts(db: Db, scope: AnalyticsScope, limit: number): Promise<Array<{ prompt: string; conversations: number }>> {
  let query = db
    .selectFrom('prompt_openings')
    .innerJoin('projects', 'projects.id', 'prompt_openings.project_id')
    .select(['prompt_openings.prompt', (eb) => eb.fn.count<string | number>('prompt_openings.session_id').distinct().as('conversations'), (eb) => eb.fn.max('projects.popular_prompt_floor').as('floor')])
    .where('projects.workspace_id', '=', scope.workspaceId)
    .where('prompt_openings.last_at', '>=', scope.since);
  if (scope.projectId) query = query.where('prompt_openings.project_id', '=', scope.projectId);
  const rows = await query
    .groupBy('prompt_openings.prompt')
    .having((eb) => eb(eb.fn.count('prompt_openings.session_id').distinct(), '>=', eb.fn.max('projects.popular_prompt_floor')))
    .orderBy('conversations', 'desc')
    .orderBy('prompt_openings.prompt')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ prompt: row.prompt, conversations: Number(row.conversations) }));
}

/** Median of a list of numbers, or null for none. */
export function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? null) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The UTC dates from `since` through today, oldest first. */
export function daysFrom(since: string, now: Date = new Date()): string[] {
  const days: string[] = [];
  for (let day = new Date(since); day <= now; day = new Date(day.getTime() + 86_400_000)) days.push(day.toISOString().slice(0, 10));
  return days;
}
