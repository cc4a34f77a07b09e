import { PostgresAdapter, type Kysely, type CreateTableBuilder } from 'kysely';

/**
 * The dialect seam: the only place that knows SQLite and PostgreSQL differ.
 * Repositories stay dialect-neutral by going through these helpers.
 */
export type DialectName = 'sqlite' | 'postgres';

export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** An auto-incrementing integer primary key, for tables that need a total order (event logs). */
export function addSerialPrimaryKey<T extends string>(
  table: CreateTableBuilder<T, never>,
  dialect: DialectName,
  column = 'seq',
): CreateTableBuilder<T, never> {
  return dialect === 'postgres'
    ? table.addColumn(column, 'bigserial', (c) => c.primaryKey())
    : table.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

/** True when `error` is a unique-constraint violation in either dialect. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * Locks the selected rows until the transaction ends. PostgreSQL needs it for
 * read-then-write use cases; SQLite serializes writing transactions on its one
 * connection already (and has no FOR UPDATE).
 */
export function forUpdate<Q extends { forUpdate(): Q }>(query: Q, dialect: DialectName): Q {
  return dialect === 'postgres' ? query.forUpdate() : query;
}
