import type { ModelMessage } from 'ai';
import type { Config } from '../config/config.js';
import type { Db } from '../db/database.js';
import { humanExchangesForHistory } from '../escalations/handback.js';
import { AppError, notFound } from '../http/errors.js';
import { UnsupportedModelError } from '../models/model-errors.js';
import { resolveLanguageModel, type ResolvedModel } from '../models/model-registry.js';
import { parseModelSpec } from '../models/model-spec.js';
import type { ProjectRecord } from '../projects/project-repository.js';
import type { ActionCatalog } from './action-catalog.js';
import type { AgentProjectCache } from './agent-project-cache.js';
import { listConversation } from './agent-repository.js';
import { buildHistory } from './conversation-history.js';
import { buildSystemPrompt, personalizationForPrompt } from './system-prompt.js';

/**
 * Built models by everything that defines them. Building a provider costs about as much
 * as the rest of a request; models are stateless, so one per configuration is reused.
 * A changed setting makes a new key; the bound only limits growth.
 */
const modelCache = new Map<string, ResolvedModel>();
const modelCacheLimit = 1000;

function cachedModel(key: string, build: () => ResolvedModel): ResolvedModel {
  const hit = modelCache.get(key);
  if (hit) return hit;
  const built = build();
  if (modelCache.size >= modelCacheLimit) modelCache.clear();
  modelCache.set(key, built);
  return built;
}

/** The project and its model, checked before anything is stored: a bad model answers 422 up front. */
export async function loadProjectModel(projects: AgentProjectCache, config: Config, projectId: string, need: { streaming: boolean }): Promise<{ project: ProjectRecord; resolved: ResolvedModel }> {
  const project = await projects.project(projectId);
  if (!project) throw notFound('project');
  let resolved: ResolvedModel;
  try {
    const parsed = parseModelSpec(project.model);
    if (!parsed.ok) throw new UnsupportedModelError('invalid-model-spec', parsed.error.message);
    const spec = parsed.spec;
    const modelConfig = { provider: spec.provider, model: spec.model, baseUrl: project.model_base_url, apiKey: project.model_api_key };
    const environment = { ...(config.openaiApiKey ? { openaiApiKey: config.openaiApiKey } : {}), ...(config.anthropicApiKey ? { anthropicApiKey: config.anthropicApiKey } : {}) };
    resolved = cachedModel(JSON.stringify([modelConfig, environment]), () => resolveLanguageModel(modelConfig, environment));
  } catch (error) {
    if (error instanceof UnsupportedModelError) throw new AppError('UNSUPPORTED_MODEL', error.message);
    throw new AppError('UNSUPPORTED_MODEL', `project model "${project.model}" is not supported`, { cause: error });
  }
  if (!resolved.capabilities.tools) throw new AppError('UNSUPPORTED_MODEL', `project model ${resolved.modelId} cannot call tools, which the agent needs for actions`);
  if (need.streaming && !resolved.capabilities.streaming) throw new AppError('UNSUPPORTED_MODEL', `project model ${resolved.modelId} cannot stream; use POST /agent/message`);
  return { project, resolved };
}

/**
 * What one model call sees: the system prompt, the session's history and the
 * action catalog. Built only from the project's settings, the request's context
 * and the conversation — never from the end user's identity record.
 */
export async function buildModelContext(
  db: Db,
  projects: AgentProjectCache,
  project: ProjectRecord,
  sessionId: string,
  request: { context: Record<string, unknown> | null; mcpVersion: string | null },
  /** Set when the session is new: its whole history is this one message, so nothing is read. */
  newSessionMessage: string | null = null,
): Promise<{ system: string; messages: ModelMessage[]; catalog: ActionCatalog }> {
  const [catalog, messages] = await Promise.all([
    projects.catalog(project.id, request.mcpVersion),
    newSessionMessage === null ? loadHistory(db, sessionId) : ([{ role: 'user', content: newSessionMessage }] satisfies ModelMessage[]),
  ]);
  if (!catalog) throw notFound('project');
  const { assistantName, locale } = personalizationForPrompt(project.personalization);
  const system = buildSystemPrompt({ personaPrompt: project.persona_prompt, assistantName, locale, context: request.context, actionTypes: catalog.types });
  return { system, messages, catalog };
}

async function loadHistory(db: Db, sessionId: string): Promise<ModelMessage[]> {
  const [conversation, exchanges] = await Promise.all([listConversation(db, sessionId), humanExchangesForHistory(db, sessionId)]);
  return buildHistory({ ...conversation, exchanges });
}
