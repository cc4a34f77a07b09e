import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './database.js';
import { migrations } from './migrations/index.js';

const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => migrations,
};

/**
 * Applies every pending migration. Kysely's Migrator takes a lock table, so
 * several processes (instances, the CLI) can call this at once safely.
 */
export async function migrateToLatest(database: Database): Promise<string[]> {
  // On PostgreSQL the migrator must be told the schema: otherwise it looks for its tables in
  // every schema, and a parley_migrations table in another schema makes it skip creating ours.
  const schema = database.dialect === 'postgres' ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]?.schema : undefined;
  const migrator = new Migrator({
    db: database.db,
    provider,
    migrationTableName: 'parley_migrations',
    migrationLockTableName: 'parley_migrations_lock',
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`migration ${failed ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
