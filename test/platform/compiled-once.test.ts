import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compiledOnce, insertRow } from '../../src/db/compiled-once.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { validateModelSetting } from '../../src/projects/model-setting.js';
import { bootstrap } from '../../src/provisioning/bootstrap.js';
import { databaseUrlFor, testDialects } from '../support/harness.js';

const sessionsOfUser = compiledOnce((db, projectId: string, userId: string) =>
  db.selectFrom('sessions').select(['id', 'user_id']).where('project_id', '=', projectId).where('user_id', '=', userId).where('ended_at', 'is', null).orderBy('id'));

const endSessionAt = compiledOnce((db, endedAt: string, id: string) => db.updateTable('sessions').set({ ended_at: endedAt }).where('id', '=', id));

describe.each(testDialects())('statements compiled once (hot paths) on %s', (dialect) => {
  let database: Database;
  let projectId: string;
  beforeAll(async () => {
    database = openDatabase(databaseUrlFor(dialect));
    await migrateToLatest(database);
    projectId = (await bootstrap(database.db, { userTokenTtlSeconds: 3600 }, validateModelSetting)).projectId;
  });
  afterAll(() => database.close());

  const session = (id: string, userId: string | null) => ({ id, project_id: projectId, user_id: userId, device_info: null, created_at: new Date().toISOString(), ended_at: null });

  it('binds new arguments on every call, on the database and inside a transaction', async () => {
    await insertRow(database.db, 'sessions', session('ses_a1', 'ann'));
    await database.db.transaction().execute(async (trx) => {
      await insertRow(trx, 'sessions', session('ses_a2', 'ann'));
      await insertRow(trx, 'sessions', session('ses_b1', 'bob'));
    });
    expect((await sessionsOfUser(database.db, projectId, 'ann')).rows).toEqual([{ id: 'ses_a1', user_id: 'ann' }, { id: 'ses_a2', user_id: 'ann' }]);
    expect((await sessionsOfUser(database.db, projectId, 'bob')).rows).toEqual([{ id: 'ses_b1', user_id: 'bob' }]);
    // A constant of the query (ended_at IS NULL) stays in force with the new arguments.
    const updated = await endSessionAt(database.db, new Date().toISOString(), 'ses_a1');
    expect(Number(updated.numAffectedRows)).toBe(1);
    expect((await sessionsOfUser(database.db, projectId, 'ann')).rows).toEqual([{ id: 'ses_a2', user_id: 'ann' }]);
  });

  it('leaves out undefined columns of a row and compiles each column list on its own', async () => {
    await insertRow(database.db, 'sessions', { ...session('ses_c1', 'cat'), device_info: undefined });
    await insertRow(database.db, 'sessions', { ...session('ses_c2', 'cat'), device_info: '{"os":"x"}' });
    const rows = await database.db.selectFrom('sessions').select(['id', 'device_info']).where('user_id', '=', 'cat').orderBy('id').execute();
    expect(rows).toEqual([{ id: 'ses_c1', device_info: null }, { id: 'ses_c2', device_info: '{"os":"x"}' }]);
  });

  it('rolls back with the transaction it ran in', async () => {
    await expect(
      database.db.transaction().execute(async (trx) => {
        await insertRow(trx, 'sessions', session('ses_d1', 'dan'));
        throw new Error('abandon');
      }),
    ).rejects.toThrow('abandon');
    expect((await sessionsOfUser(database.db, projectId, 'dan')).rows).toEqual([]);
  });

  it('keeps a statement run beside an open transaction out of it', async () => {
    let insideStarted!: () => void;
    const started = new Promise<void>((resolve) => (insideStarted = resolve));
    const abandoned = database.db.transaction().execute(async (trx) => {
      await insertRow(trx, 'sessions', session('ses_e1', 'eve'));
      insideStarted();
      await new Promise((resolve) => setTimeout(resolve, 50));
      throw new Error('abandon');
    });
    await started;
    const beside = insertRow(database.db, 'sessions', session('ses_e2', 'eve'));
    await expect(abandoned).rejects.toThrow('abandon');
    await beside;
    expect((await sessionsOfUser(database.db, projectId, 'eve')).rows).toEqual([{ id: 'ses_e2', user_id: 'eve' }]);
  });

  it('rejects (not throws) when a statement fails, and the transaction rolls back whole', async () => {
    const failing = database.db.transaction().execute(async (trx) => {
      await insertRow(trx, 'sessions', session('ses_f1', 'fay'));
      await insertRow(trx, 'sessions', session('ses_f1', 'fay'));
    });
    await expect(failing).rejects.toThrow();
    expect((await sessionsOfUser(database.db, projectId, 'fay')).rows).toEqual([]);
  });

  it('refuses a query that does not use each argument exactly once', async () => {
    const twice = compiledOnce((db, id: string) => db.selectFrom('sessions').select('id').where('id', '=', id).where('user_id', '=', id));
    await expect(twice(database.db, 'x')).rejects.toThrow(/argument 0 must appear exactly once/);
  });
});
