import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import type { Tables } from './tables.js';

export type Db = Kysely<Tables>;

export interface Database {
  readonly db: Db;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
}

/** Opens `sqlite:<path>` (creating its folder) or `postgres://…`. Does not migrate. */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length));
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.poolSize ?? 10);
  throw new Error(`unsupported database URL scheme: ${url.split(':')[0]}`);
}

function openSqlite(path: string): Database {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const connection = new BetterSqlite3(inMemory ? ':memory:' : resolve(path));
  // WAL lets readers run beside the writer (the CLI beside a server); NORMAL sync
  // in WAL mode survives a process crash without an fsync per commit.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: withStatementCache(connection) }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

const statementCacheSize = 500;

/**
 * Kysely prepares every query afresh; parsing and planning the SQL cost more
 * than running it on the hot routes. Queries are few distinct strings, so
 * prepared statements are kept by SQL text. Safe because Kysely runs one query
 * at a time on the single SQLite connection (its connection mutex).
 */
function withStatementCache(connection: BetterSqlite3.Database): SqliteDatabase {
  const statements = new Map<string, SqliteStatement>();
  return {
    close: () => {
      statements.clear();
      connection.close();
    },
    prepare: (sql: string) => {
      let statement = statements.get(sql);
      if (statement === undefined) {
        statement = connection.prepare(sql) as unknown as SqliteStatement;
        if (statements.size >= statementCacheSize) statements.delete(statements.keys().next().value as string);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(connectionString: string, max: number): Database {
  const pool = new pg.Pool({
    connectionString,
    max,
    // COUNT(*) and bigserial come back as int8; our values fit in a JS number.
    types: {
      getTypeParser: (oid: number, format?: any) =>
        oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format),
    },
  });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
