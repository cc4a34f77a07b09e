import type { Db } from '../db/database.js';
import { channels, type EventBus } from '../events/event-bus.js';
import { AppError, notFound, validationError } from '../http/errors.js';
import { findProjectInWorkspace } from '../projects/project-repository.js';
import { newId } from '../shared/ids.js';
import { nowIso, parseIso } from '../shared/time.js';
import { generateApiKey } from './api-key-format.js';
import { findApiKeyInWorkspace, insertApiKey, listApiKeys, markApiKeyRevoked } from './key-repository.js';
import type { ApiKeyRow, KeyScope } from './key-tables.js';

export interface CreateKeyInput {
  workspaceId: string;
  name: string;
  scope: KeyScope;
  /** Required for sdk keys; must be absent for operator keys. */
  projectId?: string | null | undefined;
  /** ISO timestamp, in the future. */
  expiresAt?: string | null | undefined;
}

/** What lists show: never the hash, never the key. */
export interface KeySummary {
  id: string;
  name: string;
  scope: KeyScope;
  projectId: string | null;
  prefix: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
  lastUsedAt: string | null;
}

export function summarizeKey(row: ApiKeyRow): KeySummary {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    projectId: row.project_id,
    prefix: row.prefix,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
  };
}

/** Creates a key and returns it in the clear, the only time it is ever visible. */
export async function createApiKey(db: Db, input: CreateKeyInput): Promise<KeySummary & { key: string }> {
  const name = input.name.trim();
  if (name.length === 0 || name.length > 120) throw validationError('name must be 1 to 120 characters');
  if (input.scope === 'sdk') {
    if (!input.projectId) throw validationError('projectId is required for an sdk key');
    if (!(await findProjectInWorkspace(db, input.workspaceId, input.projectId))) throw notFound('project');
  } else if (input.projectId) {
    throw validationError('projectId must not be set for an operator key: operator keys span the workspace');
  }
  let expiresAt: string | null = null;
  if (input.expiresAt) {
    const date = parseIso(input.expiresAt);
    if (!date) throw validationError('expiresAt must be an ISO 8601 timestamp');
    if (date.getTime() <= Date.now()) throw validationError('expiresAt must be in the future');
    expiresAt = date.toISOString();
  }
  const generated = generateApiKey();
  const row: ApiKeyRow = {
    id: newId('key'),
    workspace_id: input.workspaceId,
    project_id: input.scope === 'sdk' ? (input.projectId ?? null) : null,
    name,
    scope: input.scope,
    prefix: generated.prefix,
    key_hash: generated.hash,
    created_at: nowIso(),
    expires_at: expiresAt,
    revoked_at: null,
    last_used_at: null,
  };
  await insertApiKey(db, row);
  return { ...summarizeKey(row), key: generated.key };
}

export async function listKeys(db: Db, workspaceId: string, projectId?: string): Promise<KeySummary[]> {
  return (await listApiKeys(db, workspaceId, { projectId })).map(summarizeKey);
}

/** Revokes at once on every instance: the authenticator's cache hears it on the bus. */
export async function revokeApiKey(db: Db, bus: EventBus, workspaceId: string, keyId: string): Promise<KeySummary> {
  const row = await findApiKeyInWorkspace(db, workspaceId, keyId);
  if (!row) throw notFound('API key');
  if (row.revoked_at === null) {
    await markApiKeyRevoked(db, keyId, nowIso());
    await bus.publish(channels.apiKeyRevoked, { keyHash: row.key_hash });
  }
  const updated = await findApiKeyInWorkspace(db, workspaceId, keyId);
  if (!updated) throw new AppError('INTERNAL_ERROR', 'key vanished during revoke');
  return summarizeKey(updated);
}
