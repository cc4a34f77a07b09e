import { Type, type Static } from 'typebox';
import type { Updateable } from 'kysely';
import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { notFound } from '../http/errors.js';
import { publishPersonalizationSaved } from '../personalization/personalization-service.js';
import { PersonalizationInput, personalizationToJson } from '../personalization/personalization-schema.js';
import { DevPrompts } from '../prompts/dev-prompts.js';
import { validateModelSetting } from './model-setting.js';
import { findProjectInWorkspace, insertProject, updateProject, type ProjectRecord } from './project-repository.js';
import type { ProjectRow } from './project-tables.js';

const NullableText = (maxLength: number, description: string) => Type.Union([Type.String({ minLength: 1, maxLength }), Type.Null()], { description });

/** Every setting the dashboard can change; all optional (PATCH). null clears a nullable one. */
/** One token bucket: burst size and steady rate (see src/rate-limits/). */
const TokenBucketOverride = Type.Object(
  {
    capacity: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'burst size' })),
    refillPerSecond: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000, description: 'steady requests per second' })),
  },
  { additionalProperties: false },
);

/** Per-project overrides of the configured rate limits, per route class; absent fields keep the defaults. */
export const RateLimitOverrides = Type.Object(
  { agentMessage: Type.Optional(TokenBucketOverride), default: Type.Optional(TokenBucketOverride) },
  { additionalProperties: false },
);

export const ProjectSettings = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 120 })),
    model: Type.Optional(Type.String({ minLength: 3, maxLength: 200, description: 'PROVIDER:MODEL' })),
    modelBaseUrl: Type.Optional(NullableText(2048, 'base URL of an openai-compatible server')),
    modelApiKey: Type.Optional(NullableText(1024, 'write-only: never returned')),
    personaPrompt: Type.Optional(NullableText(20_000, 'write-only: never returned, never in GET /agent/personalization')),
    personalization: Type.Optional(PersonalizationInput),
    devPrompts: Type.Optional(DevPrompts),
    popularPromptFloor: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
    maxHops: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })),
    actionTimeoutSeconds: Type.Optional(Type.Integer({ minimum: 5, maximum: 86_400 })),
    escalateToolEnabled: Type.Optional(Type.Boolean()),
    rateLimits: Type.Optional(RateLimitOverrides),
  },
  { additionalProperties: false },
);

export type ProjectSettings = Static<typeof ProjectSettings>;

export const NewProjectSettings = Type.Object({ ...ProjectSettings.properties, name: Type.String({ minLength: 1, maxLength: 120 }) }, { additionalProperties: false });

function toColumns(settings: ProjectSettings): Updateable<ProjectRow> {
  const changes: Updateable<ProjectRow> = {};
  if (settings.name !== undefined) changes.name = settings.name.trim();
  if (settings.model !== undefined) changes.model = settings.model;
  if (settings.modelBaseUrl !== undefined) changes.model_base_url = settings.modelBaseUrl;
  if (settings.modelApiKey !== undefined) changes.model_api_key = settings.modelApiKey;
  if (settings.personaPrompt !== undefined) changes.persona_prompt = settings.personaPrompt;
  if (settings.personalization !== undefined) changes.personalization = personalizationToJson(settings.personalization);
  if (settings.devPrompts !== undefined) changes.dev_prompts = JSON.stringify(settings.devPrompts);
  if (settings.popularPromptFloor !== undefined) changes.popular_prompt_floor = settings.popularPromptFloor;
  if (settings.maxHops !== undefined) changes.max_hops = settings.maxHops;
  if (settings.actionTimeoutSeconds !== undefined) changes.action_timeout_seconds = settings.actionTimeoutSeconds;
  if (settings.escalateToolEnabled !== undefined) changes.escalate_tool_enabled = settings.escalateToolEnabled ? 1 : 0;
  if (settings.rateLimits !== undefined) changes.rate_limits = JSON.stringify(settings.rateLimits);
  return changes;
}

async function announce(bus: EventBus, projectId: string, settings: ProjectSettings): Promise<void> {
  await bus.publish(channels.projectUpdated, { projectId });
  if (settings.personalization !== undefined) await publishPersonalizationSaved(bus, projectId);
}

/**
 * Applies dashboard or CLI changes to a project of the workspace. The model is
 * checked against the resulting base URL before anything is written; saving
 * personalization announces it so every instance's cache refreshes at once.
 */
export async function updateProjectSettings(db: Db, bus: EventBus, workspaceId: string, projectId: string, settings: ProjectSettings): Promise<ProjectRecord> {
  const current = await findProjectInWorkspace(db, workspaceId, projectId);
  if (!current) throw notFound('project');
  if (settings.model !== undefined || settings.modelBaseUrl !== undefined) {
    validateModelSetting(settings.model ?? current.model, settings.modelBaseUrl === undefined ? current.model_base_url : settings.modelBaseUrl);
  }
  const changes = toColumns(settings);
  if (Object.keys(changes).length > 0) {
    await updateProject(db, projectId, changes);
    await announce(bus, projectId, settings);
  }
  const updated = await findProjectInWorkspace(db, workspaceId, projectId);
  if (!updated) throw notFound('project');
  return updated;
}

export async function createProjectWithSettings(db: Db, bus: EventBus, workspaceId: string, settings: ProjectSettings & { name: string }): Promise<ProjectRecord> {
  const model = settings.model ?? 'demo:parley-demo';
  validateModelSetting(model, settings.modelBaseUrl ?? null);
  // Insert and settings in one transaction: a failure leaves no half-made project.
  const project = await db.transaction().execute(async (trx) => {
    const created = await insertProject(trx, { workspaceId, name: settings.name.trim(), model, modelBaseUrl: settings.modelBaseUrl ?? null, modelApiKey: settings.modelApiKey ?? null });
    const rest = toColumns({ ...settings, name: undefined, model: undefined, modelBaseUrl: undefined, modelApiKey: undefined });
    if (Object.keys(rest).length > 0) await updateProject(trx, created.id, rest);
    return created;
  });
  const stored = await findProjectInWorkspace(db, workspaceId, project.id);
  if (!stored) throw notFound('project');
  await bus.publish(channels.projectUpdated, { projectId: project.id });
  return stored;
}
