import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** PostgreSQL URL pointing at a schema made for this run, or '' when PostgreSQL tests are off. */
    postgresUrl: string;
    redisUrl: string;
  }
}

/**
 * PostgreSQL suites run in a fresh schema per `npm test`, dropped afterwards,
 * so runs never see each other's tables or half-applied migrations.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const base = process.env['PARLEY_TEST_DATABASE_URL'] ?? '';
  project.provide('redisUrl', process.env['PARLEY_TEST_REDIS_URL'] ?? '');
  if (!base) {
    console.log('[parley tests] PARLEY_TEST_DATABASE_URL is not set: PostgreSQL suites are SKIPPED (SQLite only).');
    project.provide('postgresUrl', '');
    return async () => {};
  }
  if (!process.env['PARLEY_TEST_REDIS_URL']) {
    console.log('[parley tests] PARLEY_TEST_REDIS_URL is not set: multi-instance suites are SKIPPED.');
  }
  const schema = `parley_test_${process.pid}_${Date.now().toString(36)}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  await client.query(`create schema "${schema}"`);
  await client.end();
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  // Migrate once here: test files starting in parallel would otherwise race to create
  // Kysely's lock table in the fresh schema ("relation parley_migrations_lock does not exist").
  const database = openDatabase(url.toString(), { poolSize: 1 });
  await migrateToLatest(database);
  await database.close();
  project.provide('postgresUrl', url.toString());
  return async () => {
    const cleanup = new pg.Client({ connectionString: base });
    await cleanup.connect();
    await cleanup.query(`drop schema if exists "${schema}" cascade`);
    await cleanup.end();
  };
}
