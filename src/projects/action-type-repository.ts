import { Ajv } from 'ajv';
import type { Db } from '../db/database.js';
import { validationError } from '../http/errors.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';

/** Names every project has; the agent defines them, a project cannot redefine them. */
export const builtInActionTypes = ['navigate', 'escalate'] as const;
/** The tool-name rule of the model APIs (OpenAI's is the strictest). */
export const actionTypePattern = '^[A-Za-z0-9_-]{1,64}$';

export interface ActionTypeView {
  type: string;
  mcpVersion: string | null;
  description: string;
  payloadSchema: Record<string, unknown>;
  createdAt: string;
}

const schemaChecker = new Ajv({ strict: true, strictTypes: false, strictTuples: false, strictRequired: false, validateFormats: false, logger: false });

/**
 * Refuses at save time what would fail at turn time: a built-in name, or a
 * payload schema that is not a valid JSON Schema of an object.
 */
export function checkActionTypeDefinition(type: string, payloadSchema: Record<string, unknown>): void {
  if ((builtInActionTypes as readonly string[]).includes(type)) throw validationError(`type "${type}" is built in and cannot be redefined`);
  if (payloadSchema['type'] !== 'object') throw validationError('body.payloadSchema must describe an object: "type": "object"');
  try {
    schemaChecker.compile(payloadSchema);
  } catch (error) {
    throw validationError(`body.payloadSchema is not a valid JSON Schema: ${error instanceof Error ? error.message.slice(0, 200) : 'invalid'}`);
  } finally {
    schemaChecker.removeSchema();
  }
}

export async function listActionTypes(db: Db, projectId: string, mcpVersion?: string): Promise<ActionTypeView[]> {
  let query = db.selectFrom('project_action_types').selectAll().where('project_id', '=', projectId);
  if (mcpVersion !== undefined) query = query.where('mcp_version', '=', mcpVersion);
  const rows = await query.orderBy('mcp_version').orderBy('type').execute();
  return rows.map((row) => ({
    type: row.type,
    mcpVersion: row.mcp_version === '' ? null : row.mcp_version,
    description: row.description,
    payloadSchema: JSON.parse(row.payload_schema) as Record<string, unknown>,
    createdAt: row.created_at,
  }));
}

/** Insert or replace one (project, mcpVersion, type); returns true when it was new. */
export async function putActionType(db: Db, input: { projectId: string; type: string; mcpVersion: string | null; description: string; payloadSchema: Record<string, unknown> }): Promise<boolean> {
  const version = input.mcpVersion ?? '';
  return db.transaction().execute(async (trx) => {
    const existing = await trx
      .selectFrom('project_action_types')
      .select('id')
      .where('project_id', '=', input.projectId)
      .where('mcp_version', '=', version)
      .where('type', '=', input.type)
      .executeTakeFirst();
    const schema = JSON.stringify(input.payloadSchema);
    if (existing) {
      await trx.updateTable('project_action_types').set({ description: input.description, payload_schema: schema }).where('id', '=', existing.id).execute();
      return false;
    }
    await trx
      .insertInto('project_action_types')
      .values({ id: newId('act'), project_id: input.projectId, mcp_version: version, type: input.type, description: input.description, payload_schema: schema, created_at: nowIso() })
      .execute();
    return true;
  });
}

export async function deleteActionType(db: Db, projectId: string, type: string, mcpVersion: string | null): Promise<boolean> {
  const result = await db
    .deleteFrom('project_action_types')
    .where('project_id', '=', projectId)
    .where('mcp_version', '=', mcpVersion ?? '')
    .where('type', '=', type)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
