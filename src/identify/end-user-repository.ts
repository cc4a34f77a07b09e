import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import type { EndUserRow } from './end-user-tables.js';

export interface EndUser {
  id: string;
  projectId: string;
  userId: string;
  name: string | null;
  identifiers: Record<string, string>;
  createdAt: string;
  updatedAt: string;
}

export function toEndUser(row: EndUserRow): EndUser {
  let identifiers: Record<string, string> = {};
  try {
    identifiers = JSON.parse(row.identifiers) as Record<string, string>;
  } catch {
    // Stored by us as JSON; a corrupt value shows as "no identifiers" rather than failing.
  }
  return { id: row.id, projectId: row.project_id, userId: row.user_id, name: row.name, identifiers, createdAt: row.created_at, updatedAt: row.updated_at };
}

/**
 * Insert or update by (project, userId) in one statement. A field the caller
 * omits keeps its stored value; a field it sends replaces it.
 */
export async function upsertEndUser(db: Db, input: { projectId: string; userId: string; name?: string | undefined; identifiers?: Record<string, string> | undefined }): Promise<void> {
  const now = nowIso();
  const changes: { updated_at: string; name?: string; identifiers?: string } = { updated_at: now };
  if (input.name !== undefined) changes.name = input.name;
  if (input.identifiers !== undefined) changes.identifiers = JSON.stringify(input.identifiers);
  await db
    .insertInto('end_users')
    .values({
      id: newId('eus'),
      project_id: input.projectId,
      user_id: input.userId,
      name: input.name ?? null,
      identifiers: JSON.stringify(input.identifiers ?? {}),
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) => conflict.columns(['project_id', 'user_id']).doUpdateSet(changes))
    .execute();
}

/** The person behind a userId in a project (unique index end_users_project_user). */
export async function findEndUser(db: Db, projectId: string, userId: string): Promise<EndUser | undefined> {
  const row = await db.selectFrom('end_users').selectAll().where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return row ? toEndUser(row) : undefined;
}

/** The person behind a session, when the session was created with a userId that was identified. */
export async function findEndUserForSession(db: Db, projectId: string, sessionId: string): Promise<EndUser | undefined> {
  const row = await db
    .selectFrom('sessions')
    .innerJoin('end_users', (join) => join.onRef('end_users.project_id', '=', 'sessions.project_id').onRef('end_users.user_id', '=', 'sessions.user_id'))
    .selectAll('end_users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.project_id', '=', projectId)
    .executeTakeFirst();
  return row ? toEndUser(row) : undefined;
}

/** Newest first, by id (ids sort by creation); `after` is the last id of the previous page. */
export async function listEndUsers(db: Db, projectId: string, options: { limit: number; after?: string | undefined; search?: string | undefined }): Promise<EndUser[]> {
  let query = db.selectFrom('end_users').selectAll().where('project_id', '=', projectId);
  if (options.after !== undefined) query = query.where('id', '<', options.after);
  if (options.search !== undefined && options.search !== '') {
    const pattern = `%${options.search.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb(sql`lower(user_id)`, 'like', sql`${pattern} escape '\\'`),
        eb(sql`lower(coalesce(name, ''))`, 'like', sql`${pattern} escape '\\'`),
      ]),
    );
  }
  const rows = await query.orderBy('id', 'desc').limit(options.limit).execute();
  return rows.map(toEndUser);
}

export async function deleteEndUser(db: Db, projectId: string, userId: string): Promise<boolean> {
  const result = await db.deleteFrom('end_users').where('project_id', '=', projectId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Recent sessions opened with this userId, for operator tooling. */
export async function listSessionsOfUser(db: Db, projectId: string, userId: string, limit = 20): Promise<Array<{ sessionId: string; createdAt: string; endedAt: string | null }>> {
  const rows = await db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'ended_at'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ sessionId: row.id, createdAt: row.created_at, endedAt: row.ended_at }));
}
