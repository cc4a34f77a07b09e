import type { Db } from '../db/database.js';
import { commitBatcherFor } from '../db/commit-batcher.js';
import { insertRow } from '../db/compiled-once.js';
import { newId } from '../shared/ids.js';
import { nowIso } from '../shared/time.js';
import type { SessionRow } from './session-tables.js';

export async function insertSession(db: Db, input: { projectId: string; userId?: string | null | undefined; deviceInfo?: object | null | undefined; id?: string }): Promise<SessionRow> {
  const row: SessionRow = {
    // A caller may pick the id ahead (the agent knows it before it writes the turn).
    id: input.id ?? newId('ses'),
    project_id: input.projectId,
    user_id: input.userId ?? null,
    device_info: input.deviceInfo ? JSON.stringify(input.deviceInfo) : null,
    created_at: nowIso(),
    ended_at: null,
  };
  const insert = async (trx: Db) => {
    await insertRow(trx, 'sessions', row);
  };
  // Outside a transaction, concurrent creations share one commit (see CommitBatcher).
  if (db.isTransaction) await insert(db);
  else await commitBatcherFor(db).run(insert);
  return row;
}

/** A session of this project that has not been ended; anything else is "not found". */
export async function findOpenSession(db: Db, projectId: string, sessionId: string): Promise<SessionRow | undefined> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId)
    .where('project_id', '=', projectId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
}

export async function endSession(db: Db, projectId: string, sessionId: string): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ ended_at: nowIso() })
    .where('id', '=', sessionId)
    .where('project_id', '=', projectId)
    .where('ended_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
