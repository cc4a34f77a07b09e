import { Ajv, type ValidateFunction } from 'ajv';
import type { Db } from '../db/database.js';

/** One action type the model may call: built in, or declared by the project. */
export interface ActionType {
  type: string;
  description: string;
  /** JSON Schema of the payload (an object schema). */
  payloadSchema: Record<string, unknown>;
}

export interface ActionCatalog {
  types: ActionType[];
  /** Checks a payload the model produced; returns a short reason when it does not fit. */
  check(type: string, payload: unknown): string | null;
}

export const navigateAction: ActionType = {
  type: 'navigate',
  description: 'Open a screen of the app. `screen` is the screen name; `params` are optional screen parameters.',
  payloadSchema: {
    type: 'object',
    properties: { screen: { type: 'string', minLength: 1 }, params: { type: 'object' } },
    required: ['screen'],
    additionalProperties: false,
  },
};

export const escalateAction: ActionType = {
  type: 'escalate',
  description: 'Ask for a human operator to take over the conversation, when the user asks for a person or you cannot help. `reason` says why, in one sentence.',
  payloadSchema: {
    type: 'object',
    properties: { reason: { type: 'string', minLength: 1 } },
    required: ['reason'],
    additionalProperties: false,
  },
};

/** Tool names the model APIs accept (OpenAI's rule is the strictest). */
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;

const ajv = new Ajv({ strict: false, allErrors: false, coerceTypes: false, useDefaults: false });
const validators = new Map<string, ValidateFunction>();

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(schema);
    // Catalogs are few and small; the bound only guards against unbounded growth.
    if (validators.size > 1000) validators.clear();
    validators.set(key, validate);
  }
  return validate;
}

/** Newest first for version strings: numeric-aware, so 1.10.0 comes before 1.9.2. */
function compareVersionsDescending(a: string, b: string): number {
  return b.localeCompare(a, 'en', { numeric: true });
}

/**
 * The catalog for one turn. Rule: project types with mcp_version '' apply to every
 * app build; on top of them come the types of the message's mcpVersion when the
 * project declared any for it, otherwise those of the newest declared version.
 * A versioned type overrides an unversioned one of the same name; built-in types
 * (navigate, escalate) cannot be overridden.
 */
export async function loadActionCatalog(
  db: Db,
  project: { id: string; escalate_tool_enabled: number },
  mcpVersion: string | null,
): Promise<ActionCatalog> {
  return catalogFromRows(await loadActionTypeRows(db, project.id), project, mcpVersion);
}

/** The project's declared action types as stored: what catalogFromRows needs. */
export interface ActionTypeRecord {
  mcp_version: string;
  type: string;
  description: string;
  payload_schema: string;
}

export async function loadActionTypeRows(db: Db, projectId: string): Promise<ActionTypeRecord[]> {
  return db.selectFrom('project_action_types').select(['mcp_version', 'type', 'description', 'payload_schema']).where('project_id', '=', projectId).execute();
}

/** The catalog from already loaded rows (see loadActionCatalog for the rule). */
export function catalogFromRows(rows: ActionTypeRecord[], project: { escalate_tool_enabled: number }, mcpVersion: string | null): ActionCatalog {
  const versions = [...new Set(rows.map((row) => row.mcp_version).filter((version) => version !== ''))].sort(compareVersionsDescending);
  const chosen = mcpVersion !== null && versions.includes(mcpVersion) ? mcpVersion : (versions[0] ?? '');
  const byType = new Map<string, ActionType>();
  for (const version of ['', chosen]) {
    for (const row of rows.filter((r) => r.mcp_version === version)) {
      if (!toolNamePattern.test(row.type)) continue;
      const schema = parseSchema(row.payload_schema);
      if (schema && compiles(schema)) byType.set(row.type, { type: row.type, description: row.description, payloadSchema: schema });
    }
  }
  const builtIns = project.escalate_tool_enabled === 0 ? [navigateAction] : [navigateAction, escalateAction];
  for (const builtIn of builtIns) byType.delete(builtIn.type);
  if (project.escalate_tool_enabled === 0) byType.delete('escalate');
  return catalogOf([...builtIns, ...byType.values()]);
}

export function catalogOf(types: ActionType[]): ActionCatalog {
  const byType = new Map(types.map((t) => [t.type, t]));
  return {
    types,
    check(type, payload) {
      const actionType = byType.get(type);
      if (!actionType) return `unknown action type "${type}"`;
      if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return 'payload must be a JSON object';
      const validate = validatorFor(actionType.payloadSchema);
      if (validate(payload)) return null;
      const issue = validate.errors?.[0];
      return `payload${issue?.instancePath ?? ''} ${issue?.message ?? 'does not match the schema'}`;
    },
  };
}

function compiles(schema: Record<string, unknown>): boolean {
  try {
    validatorFor(schema);
    return true;
  } catch {
    return false;
  }
}

function parseSchema(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    // Tool inputs are objects for every provider; a schema without a type gets one.
    const schema = value as Record<string, unknown>;
    return schema['type'] === undefined ? { type: 'object', ...schema } : schema;
  } catch {
    return null;
  }
}
