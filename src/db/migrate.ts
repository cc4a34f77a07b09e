import { Migrator, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { currentSchema, withMigrationLock } from './dialect.js';
import { migrations } from './migrations/index.js';

const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => migrations,
};

/**
 * Applies every pending migration. Several processes (instances, the CLI) may
 * call this at once: Kysely's own lock table is created racily on a fresh
 * PostgreSQL database, so the whole run also holds a database lock (dialect.ts).
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const { error, results } = await withMigrationLock(database.db, async (db) => {
    const schema = await currentSchema(db);
    return new Migrator({
      db,
      provider,
      migrationTableName: 'parley_migrations',
      migrationLockTableName: 'parley_migrations_lock',
      // Kysely looks for its tables by name in ANY schema; with several schemas in
      // one database (a deployment per schema, test runs) it must look in ours.
      ...(schema === null ? {} : { migrationTableSchema: schema }),
    }).migrateToLatest();
  });
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
