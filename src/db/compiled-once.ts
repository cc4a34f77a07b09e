import { RawNode, type Compilable, type CompiledQuery, type QueryResult, type SqliteDatabase } from 'kysely';
import { sqliteConnectionOf, type Db } from './database.js';
import type { Tables } from './tables.js';

/*
 * Hot statements, compiled once per dialect instead of built and compiled by Kysely's
 * query builder on every call. Building a query allocates and freezes a tree of
 * operation nodes and walks it to produce SQL; on the hot routes that cost as much as
 * SQLite running the statement. The statements are still written with the builder
 * (type-checked, dialect-neutral): the first call compiles them, later calls reuse
 * the SQL with new parameters, on the database or inside a transaction alike.
 */

type Scalar = string | number | null;

interface Compiled {
  sql: string;
  node: RawNode;
  /** Per SQL parameter: the index of the caller's argument it takes, or -1 for a constant of the query. */
  sources: number[];
  constants: readonly unknown[];
}

function run<R>(db: Db, compiled: Compiled, parameters: readonly unknown[]): Promise<QueryResult<R>> {
  // Inside a transaction on SQLite, the one connection is held for this transaction alone
  // (Kysely's connection mutex), so the statement runs on it directly and synchronously,
  // without the executor's layers of promises — which cost more than the statement. What
  // runs is what Kysely's own SQLite connection would run. Outside a transaction a
  // statement must wait its turn like any query, or it could land in someone else's.
  if (db.isTransaction) {
    const connection = sqliteConnectionOf(db);
    if (connection !== undefined) {
      try {
        return Promise.resolve(runOnSqlite<R>(connection, compiled.sql, parameters));
      } catch (error) {
        return Promise.reject(error);
      }
    }
  }
  const query: CompiledQuery<R> = { sql: compiled.sql, query: compiled.node, parameters, queryId: { queryId: '' } };
  return db.executeQuery(query);
}

function runOnSqlite<R>(connection: SqliteDatabase, sql: string, parameters: readonly unknown[]): QueryResult<R> {
  const statement = connection.prepare(sql);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid) };
}

/**
 * A query whose only varying parts are scalar arguments. `build` is called once per
 * dialect with stand-in values, to learn where each argument lands in the SQL;
 * every argument must become exactly one SQL parameter.
 */
export function compiledOnce<P extends Scalar[], R>(build: (db: Db, ...params: P) => Compilable<R>): (db: Db, ...params: P) => Promise<QueryResult<R>> {
  const byAdapter = new WeakMap<object, Compiled>();
  return async (db, ...params) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (compiled === undefined) {
      compiled = compileWithMarkers(db, build, params.length);
      byAdapter.set(adapter, compiled);
    }
    return run<R>(db, compiled, bind(compiled, params));
  };
}

/** The SQL parameters for a call: each caller's argument where it lands, the query's constants elsewhere. */
function bind(compiled: Compiled, args: readonly unknown[]): unknown[] {
  const { sources, constants } = compiled;
  const parameters = new Array<unknown>(sources.length);
  for (let index = 0; index < sources.length; index++) {
    const source = sources[index]!;
    parameters[index] = source === -1 ? constants[index] : args[source];
  }
  return parameters;
}

function compileWithMarkers<P extends unknown[], R>(db: Db, build: (db: Db, ...params: P) => Compilable<R>, count: number): Compiled {
  const markers = Array.from({ length: count }, (_, index) => `\u0000compiled-once-parameter-${index}\u0000`);
  const query = build(db, ...(markers as P)).compile();
  const sources = query.parameters.map((value) => (typeof value === 'string' ? markers.indexOf(value) : -1));
  for (let index = 0; index < count; index++) {
    if (sources.filter((source) => source === index).length !== 1) {
      throw new Error(`compiledOnce: argument ${index} must appear exactly once as an SQL parameter of: ${query.sql}`);
    }
  }
  return { sql: query.sql, node: RawNode.createWithSql(query.sql), sources, constants: query.parameters };
}

const insertsByAdapter = new WeakMap<object, Map<string, Compiled>>();

/**
 * INSERT of one row, compiled once per table and column list. Columns whose value is
 * undefined are left out, as Kysely's builder does.
 */
export function insertRow<T extends keyof Tables & string>(db: Db, table: T, row: { [K in keyof Tables[T]]?: unknown }): Promise<QueryResult<never>> {
  const adapter = db.getExecutor().adapter;
  let inserts = insertsByAdapter.get(adapter);
  if (inserts === undefined) {
    inserts = new Map();
    insertsByAdapter.set(adapter, inserts);
  }
  const columns: string[] = [];
  const values: unknown[] = [];
  for (const column in row) {
    const value = (row as Record<string, unknown>)[column];
    if (value === undefined) continue;
    columns.push(column);
    values.push(value);
  }
  const key = `${table}(${columns.join(',')})`;
  let compiled = inserts.get(key);
  if (compiled === undefined) {
    compiled = compileWithMarkers(db, (builder, ...markers: string[]) => builder.insertInto(table).values(Object.fromEntries(columns.map((column, index) => [column, markers[index]])) as never), columns.length);
    inserts.set(key, compiled);
  }
  return run<never>(db, compiled, bind(compiled, values));
}
