import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import pg from 'pg';
import type { DialectName } from './dialect.js';
import type { Tables } from './tables.js';
import { startWalCheckpointer } from './wal-checkpointer.js';

export type Db = Kysely<Tables>;

export interface Database {
  readonly db: Db;
  readonly dialect: DialectName;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Connections in the PostgreSQL pool. */
  poolSize?: number;
  /**
   * SQLite files: checkpoint the write-ahead log on a worker thread (wal-checkpointer.ts)
   * instead of inside commits. For the long-running server; short CLI commands skip it.
   */
  backgroundCheckpoints?: boolean;
}

/** Opens `sqlite:<path>` (creating its folder) or `postgres://…`. Does not migrate. */
export function openDatabase(url: string, options: OpenDatabaseOptions = {}): Database {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), options.backgroundCheckpoints ?? false);
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url, options.poolSize ?? 10);
  throw new Error(`unsupported database URL scheme: ${url.split(':')[0]}`);
}

function openSqlite(path: string, backgroundCheckpoints: boolean): Database {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(resolve(path)), { recursive: true });
  const connection = new BetterSqlite3(inMemory ? ':memory:' : resolve(path));
  // WAL lets readers run beside the writer (the CLI beside a server); NORMAL sync
  // in WAL mode survives a process crash without an fsync per commit.
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  const cached = withStatementCache(connection);
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cached }) });
  sqliteConnections.set(db.getExecutor().adapter, cached);
  const checkpointer = backgroundCheckpoints && !inMemory ? startWalCheckpointer(resolve(path), (pages) => connection.pragma(`wal_autocheckpoint = ${pages}`)) : null;
  return {
    db,
    dialect: 'sqlite',
    close: async () => {
      // The worker first, so the server's connection is the last one and leaves the database whole (no -wal).
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/** The connection of each open SQLite database, by its Kysely adapter (shared by its transactions). */
const sqliteConnections = new WeakMap<object, SqliteDatabase>();

/**
 * The SQLite connection under `db` (a database or one of its transactions), or undefined
 * on PostgreSQL. Only for statements run inside a transaction: see compiled-once.ts.
 */
export function sqliteConnectionOf(db: Kysely<any>): SqliteDatabase | undefined {
  return sqliteConnections.get(db.getExecutor().adapter);
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
