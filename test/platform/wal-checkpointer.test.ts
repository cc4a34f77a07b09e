import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { bootstrap } from '../../src/provisioning/bootstrap.js';
import { eventually } from '../support/eventually.js';

/** Writes `count` sessions of about 1 KB each, 50 per transaction. */
async function writeSessions(database: Database, projectId: string, count: number, prefix: string): Promise<void> {
  const padding = 'x'.repeat(1000);
  for (let start = 0; start < count; start += 50) {
    await database.db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: Math.min(50, count - start) }, (_, i) => ({
        id: `ses_${prefix}${String(start + i).padStart(8, '0')}`,
        project_id: projectId,
        user_id: null,
        device_info: JSON.stringify({ padding }),
        created_at: new Date().toISOString(),
        ended_at: null,
      }));
      await trx.insertInto('sessions').values(rows).execute();
    });
  }
}

async function openWithProject(path: string, backgroundCheckpoints: boolean): Promise<{ database: Database; projectId: string }> {
  const database = openDatabase(`sqlite:${path}`, { backgroundCheckpoints });
  await migrateToLatest(database);
  const { projectId } = await bootstrap(database.db, { userTokenTtlSeconds: 3600 }, validateModelSetting);
  return { database, projectId };
}

describe('SQLite write-ahead log checkpoints on a worker thread (server databases)', () => {
  it('moves committed pages into the database file off the server thread, and closes clean', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'parley-wal-')), 'parley.db');
    const { database, projectId } = await openWithProject(path, true);
    const before = statSync(path).size;
    // About 2 MB: far below the server connection's own (backstop) threshold of 10,000 pages.
    await writeSessions(database, projectId, 2000, 'a');
    await eventually(() => statSync(path).size > before + 1_500_000);
    await database.close();
    expect(existsSync(`${path}-wal`)).toBe(false);

    const reopened = openDatabase(`sqlite:${path}`);
    const { n } = await reopened.db.selectFrom('sessions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(n)).toBe(2000);
    await reopened.close();
  });

  it('without it, the same writes stay in the log until the threshold (what the worker saves the server from)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'parley-wal-')), 'parley.db');
    const { database, projectId } = await openWithProject(path, false);
    const before = statSync(path).size;
    await writeSessions(database, projectId, 300, 'b');
    // Below SQLite's default 1000-page threshold nothing is checkpointed yet.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(statSync(path).size).toBe(before);
    expect(statSync(`${path}-wal`).size).toBeGreaterThan(300_000);
    await database.close();
  });
});
