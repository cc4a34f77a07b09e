import type { ColumnType } from 'kysely';

type WithDefault<T> = ColumnType<T, T | undefined, T>;

export interface ProjectRow {
  id: string;
  workspace_id: string;
  name: string;
  /** `provider:model`, see CONTRACT.md. */
  model: WithDefault<string>;
  model_base_url: string | null;
  /** Written by the owner, never returned by any route. */
  model_api_key: string | null;
  /** Never returned by any route (spec section 2). */
  persona_prompt: string | null;
  /** JSON: Personalization settings. */
  personalization: WithDefault<string>;
  /** JSON: { global: string[], screens: Record<string, string[]> }. */
  dev_prompts: WithDefault<string>;
  popular_prompt_floor: WithDefault<number>;
  max_hops: WithDefault<number>;
  action_timeout_seconds: WithDefault<number>;
  escalate_tool_enabled: WithDefault<number>;
  /** JSON: per-project rate-limit overrides. */
  rate_limits: WithDefault<string>;
  created_at: string;
  updated_at: string;
}

export interface ProjectActionTypeRow {
  id: string;
  project_id: string;
  mcp_version: WithDefault<string>;
  type: string;
  description: WithDefault<string>;
  /** JSON Schema of the payload, as text. */
  payload_schema: string;
  created_at: string;
}

export interface ProjectTables {
  projects: ProjectRow;
  project_action_types: ProjectActionTypeRow;
}
