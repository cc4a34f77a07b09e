import type { Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import type { ProjectRow } from './project-tables.js';

export type ProjectRecord = ProjectRow & { model: string; personalization: string; dev_prompts: string; popular_prompt_floor: number; max_hops: number; action_timeout_seconds: number; escalate_tool_enabled: number; rate_limits: string };

export interface NewProject {
  workspaceId: string;
  name: string;
  model?: string | undefined;
  modelBaseUrl?: string | null | undefined;
  modelApiKey?: string | null | undefined;
}

export async function insertProject(db: Db, input: NewProject): Promise<ProjectRecord> {
  const now = nowIso();
  const id = newId('prj');
  await db
    .insertInto('projects')
    .values({
      id,
      workspace_id: input.workspaceId,
      name: input.name,
      model: input.model ?? 'demo:parley-demo',
      model_base_url: input.modelBaseUrl ?? null,
      model_api_key: input.modelApiKey ?? null,
      persona_prompt: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  const row = await findProject(db, id);
  if (!row) throw new Error('project vanished after insert');
  return row;
}

export async function findProject(db: Db, projectId: string): Promise<ProjectRecord | undefined> {
  return (await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst()) as ProjectRecord | undefined;
}

export async function findProjectInWorkspace(db: Db, workspaceId: string, projectId: string): Promise<ProjectRecord | undefined> {
  return (await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', projectId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst()) as ProjectRecord | undefined;
}

export async function listProjects(db: Db, workspaceId: string): Promise<ProjectRecord[]> {
  return (await db.selectFrom('projects').selectAll().where('workspace_id', '=', workspaceId).orderBy('created_at').orderBy('id').execute()) as ProjectRecord[];
}

export async function updateProject(db: Db, projectId: string, changes: Updateable<ProjectRow>): Promise<void> {
  await db.updateTable('projects').set({ ...changes, updated_at: nowIso() }).where('id', '=', projectId).execute();
}
