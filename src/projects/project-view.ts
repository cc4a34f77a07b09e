import { Type, type Static } from 'typebox';
import { parseDevPrompts, DevPrompts } from '../prompts/dev-prompts.js';
import { Personalization, personalizationFromJson } from '../personalization/personalization-schema.js';
import type { ProjectRecord } from './project-repository.js';
import { RateLimitOverrides } from './project-settings.js';

/** A project as the dashboard sees it: secrets only as "is it set". */
export const ProjectView = Type.Object({
  id: Type.String(),
  workspaceId: Type.String(),
  name: Type.String(),
  model: Type.String({ description: 'PROVIDER:MODEL' }),
  modelBaseUrl: Type.Union([Type.String(), Type.Null()]),
  modelApiKeySet: Type.Boolean({ description: 'the key itself is write-only' }),
  personaPromptSet: Type.Boolean({ description: 'the persona prompt itself is write-only' }),
  personalization: Personalization,
  devPrompts: DevPrompts,
  popularPromptFloor: Type.Integer(),
  maxHops: Type.Integer(),
  actionTimeoutSeconds: Type.Integer(),
  escalateToolEnabled: Type.Boolean(),
  rateLimits: RateLimitOverrides,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export type ProjectView = Static<typeof ProjectView>;

function jsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function toProjectView(row: ProjectRecord): ProjectView {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    model: row.model,
    modelBaseUrl: row.model_base_url,
    modelApiKeySet: row.model_api_key !== null && row.model_api_key !== '',
    personaPromptSet: row.persona_prompt !== null && row.persona_prompt !== '',
    personalization: personalizationFromJson(row.personalization),
    devPrompts: parseDevPrompts(row.dev_prompts),
    popularPromptFloor: row.popular_prompt_floor,
    maxHops: row.max_hops,
    actionTimeoutSeconds: row.action_timeout_seconds,
    escalateToolEnabled: row.escalate_tool_enabled === 1,
    rateLimits: jsonObject(row.rate_limits),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
