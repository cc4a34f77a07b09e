import type { Db } from '../db/database.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';

export async function createWorkspace(db: Db, name: string): Promise<{ id: string; name: string; createdAt: string }> {
  const row = { id: newId('ws'), name, created_at: nowIso() };
  await db.insertInto('workspaces').values(row).execute();
  return { id: row.id, name: row.name, createdAt: row.created_at };
}

export async function findWorkspace(db: Db, workspaceId: string): Promise<{ id: string; name: string; created_at: string } | undefined> {
  return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
}
