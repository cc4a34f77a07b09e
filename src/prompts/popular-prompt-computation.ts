import { sql } from 'kysely';
import type { Db } from '../db/database.js';
import { nowIso } from '../shared/time.js';
import { rankPrompts, type PromptTally } from './popular-prompt-ranking.js';
import type { PopularPromptSnapshotRow } from './prompt-tables.js';

export interface PopularPromptSnapshot {
  global: string[];
  screens: Record<string, string[]>;
  computedAt: string;
}

/**
 * Recomputes one project's popular prompts from its recorded openings and
 * stores the snapshot GET /agent/popular-prompts serves. Counting happens in
 * SQL (grouped, floor applied in HAVING); ranking and the personal-data check
 * in rankPrompts.
 */
export async function computePopularPrompts(db: Db, projectId: string): Promise<PopularPromptSnapshot | null> {
  const project = await db.selectFrom('projects').select('popular_prompt_floor').where('id', '=', projectId).executeTakeFirst();
  if (!project) return null;
  const floor = Math.max(1, project.popular_prompt_floor);

  const globalRows = await db
    .selectFrom('prompt_openings')
    .select(['prompt', sql<number>`count(distinct session_id)`.as('sessions'), sql<string>`max(last_at)`.as('lastAt')])
    .where('project_id', '=', projectId)
    .groupBy('prompt')
    .having(sql<number>`count(distinct session_id)`, '>=', floor)
    .execute();

  const screenRows = await db
    .selectFrom('prompt_openings')
    .select(['screen', 'prompt', sql<number>`count(*)`.as('sessions'), sql<string>`max(last_at)`.as('lastAt')])
    .where('project_id', '=', projectId)
    .where('screen', '<>', '')
    .groupBy(['screen', 'prompt'])
    .having(sql<number>`count(*)`, '>=', floor)
    .execute();

  const byScreen = new Map<string, PromptTally[]>();
  for (const row of screenRows) {
    const list = byScreen.get(row.screen) ?? [];
    list.push({ prompt: row.prompt, sessions: Number(row.sessions), lastAt: row.lastAt });
    byScreen.set(row.screen, list);
  }
  const screens: Record<string, string[]> = {};
  for (const [screen, tallies] of byScreen) {
    const ranked = rankPrompts(tallies, floor);
    if (ranked.length > 0) screens[screen] = ranked;
  }
  const snapshot: PopularPromptSnapshot = {
    global: rankPrompts(globalRows.map((row) => ({ prompt: row.prompt, sessions: Number(row.sessions), lastAt: row.lastAt })), floor),
    screens,
    computedAt: nowIso(),
  };
  const row: PopularPromptSnapshotRow = {
    project_id: projectId,
    global_prompts: JSON.stringify(snapshot.global),
    screen_prompts: JSON.stringify(snapshot.screens),
    computed_at: snapshot.computedAt,
  };
  await db
    .insertInto('popular_prompt_snapshots')
    .values(row)
    .onConflict((conflict) => conflict.column('project_id').doUpdateSet({ global_prompts: row.global_prompts, screen_prompts: row.screen_prompts, computed_at: row.computed_at }))
    .execute();
  return snapshot;
}

/** One periodic run: every project that has recorded openings. */
export async function computeAllPopularPrompts(db: Db): Promise<number> {
  const projects = await db.selectFrom('prompt_openings').select('project_id').distinct().execute();
  for (const { project_id } of projects) await computePopularPrompts(db, project_id);
  return projects.length;
}

export async function findPopularPromptSnapshot(db: Db, projectId: string): Promise<PopularPromptSnapshot | null> {
  const row = await db.selectFrom('popular_prompt_snapshots').selectAll().where('project_id', '=', projectId).executeTakeFirst();
  if (!row) return null;
  return { global: JSON.parse(row.global_prompts) as string[], screens: JSON.parse(row.screen_prompts) as Record<string, string[]>, computedAt: row.computed_at };
}
