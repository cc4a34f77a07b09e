import type { Db } from '../db/database.js';
import type { ApiKeyRow } from './key-tables.js';

export async function insertApiKey(db: Db, row: ApiKeyRow): Promise<void> {
  await db.insertInto('api_keys').values(row).execute();
}

export async function findApiKeyByHash(db: Db, keyHash: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
}

export async function findApiKeyInWorkspace(db: Db, workspaceId: string, keyId: string): Promise<ApiKeyRow | undefined> {
  return db.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('workspace_id', '=', workspaceId).executeTakeFirst();
}

export async function listApiKeys(db: Db, workspaceId: string, filter: { projectId?: string | undefined } = {}): Promise<ApiKeyRow[]> {
  let query = db.selectFrom('api_keys').selectAll().where('workspace_id', '=', workspaceId);
  if (filter.projectId) query = query.where('project_id', '=', filter.projectId);
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

export async function markApiKeyRevoked(db: Db, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', keyId).where('revoked_at', 'is', null).execute();
}

export async function touchApiKey(db: Db, keyId: string, at: string): Promise<void> {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}
