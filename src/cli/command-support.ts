import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config/config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export interface CommandInput {
  config: Config;
  values: Record<string, string | boolean | undefined | Array<string | boolean>>;
  positionals: string[];
}

export interface Command {
  summary: string;
  options?: ParseArgsConfig['options'];
  positionals?: boolean;
  run(input: CommandInput): Promise<number>;
}

/** Opens the configured database, migrated, for one command, and always closes it. */
export async function withDatabase<T>(config: Config, work: (database: Database) => Promise<T>): Promise<T> {
  const database = openDatabase(config.databaseUrl, { poolSize: 2 });
  try {
    await migrateToLatest(database);
    return await work(database);
  } finally {
    await database.close();
  }
}

export const stringOption = (values: CommandInput['values'], name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};

