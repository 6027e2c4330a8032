// The one query layer both databases sit behind. SQL is written once, with `?` placeholders, in
// the subset SQLite and PostgreSQL share; the few differences live in dialect.ts. Statements are
// prepared once and reused (better-sqlite3 statement cache; named prepared statements on pg),
// because building and parsing queries per request is what costs throughput (stack notes).

export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | null | Buffer;

export interface Queryable {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
}

export interface Db extends Queryable {
  /** Runs `fn` in one transaction: all its writes commit together or none do. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * False when another process may have changed API keys since the last call, so in-process
   * caches of verified keys must be dropped (a revoked key is refused at once).
   */
  keysUnchangedSinceLastCheck(): boolean;
  close(): Promise<void>;
}

/** A unique index refused a write; `target` names the columns when the database says. */
export class UniqueViolation extends Error {
  override name = 'UniqueViolation';
  constructor(readonly target: string) {
    super(`unique constraint failed: ${target}`);
  }
}
