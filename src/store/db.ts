// The one query layer both databases sit behind. SQL is written once, with `?` placeholders, in
// the subset SQLite and PostgreSQL share; the few differences live in dialect.ts. Statements are
// prepared once and reused (better-sqlite3 statement cache; named prepared statements on pg),
// because building and parsing queries per request is what costs throughput (stack notes).
import { AsyncLocalStorage } from 'node:async_hooks';
import type { StorageState } from './storage-room.ts';

export type Dialect = 'sqlite' | 'postgres';
export type SqlValue = string | number | null | Buffer;

export interface Queryable {
  readonly dialect: Dialect;
  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]>;
  /**
   * all, each row an array of its values in the order the statement selects them: a row object
   * costs the drivers a property per column (better-sqlite3 also internalizes every column's name
   * on every row), which on the hottest read was more than SQLite's own work. Optional: a
   * Queryable without it is read through `valuesOf` (below).
   */
  allValues?(sql: string, params?: readonly SqlValue[]): Promise<SqlValue[][]>;
  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * `read` of `key`, possibly sent to the database in one statement with the same read of other
   * keys asked for meanwhile (PostgreSQL outside a transaction: postgres.ts says when). Optional:
   * a Queryable without it answers each key on its own (`readBatched` below).
   */
  readBatched?<K, R>(read: BatchedRead<K, R>, key: K): Promise<R>;
}

/**
 * A read by key that concurrent callers may share one statement for: GET /checks/{id} under load
 * is many primary-key reads at once, and on PostgreSQL each statement costs a round trip, the
 * driver's work on both ends and a backend's CPU, whatever few rows it finds. `many` answers keys
 * in one statement (duplicates allowed) with an answer per key, in order and each its own object
 * (two requests for one check must not share one to mutate); `one` is the same read of one key,
 * what a transaction, SQLite or a batch of one runs. Each key carries its owner scope, so a batch
 * answers every key within its own scope only.
 */
export interface BatchedRead<K, R> {
  one(q: Queryable, key: K): Promise<R>;
  many(q: Queryable, keys: readonly K[]): Promise<R[]>;
}

/** `read` of `key`: batched with other callers' where `q` can (PostgreSQL), else on its own. */
export function readBatched<K, R>(q: Queryable, read: BatchedRead<K, R>, key: K): Promise<R> {
  return q.readBatched !== undefined ? q.readBatched(read, key) : read.one(q, key);
}

/** Rows as arrays of values: through allValues where the Queryable has it, else from its row objects. */
export function valuesOf(q: Queryable, sql: string, params: readonly SqlValue[]): Promise<SqlValue[][]> {
  if (q.allValues !== undefined) return q.allValues(sql, params);
  // A row object's keys are in the order of the select list (no two of its columns share a name).
  return q.all<Record<string, SqlValue>>(sql, params).then((rows) => rows.map((row) => Object.values(row)));
}

export interface Db extends Queryable {
  /**
   * Runs `fn` in one transaction: all its writes commit together or none do. Inside a joined
   * transaction (transactionJoinedByCalls below) it is a savepoint of that one instead.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * False when another process may have changed API keys since the last call, so in-process
   * caches of verified keys must be dropped (a revoked key is refused at once).
   */
  keysUnchangedSinceLastCheck(): boolean;
  /**
   * Whether a write would be accepted now (readiness, /readyz): PostgreSQL connected to a primary
   * (not in recovery, not read-only); SQLite's file writable. Never throws.
   */
  writable(): Promise<boolean>;
  /** Whether writes are being refused for lack of disk space, and how many were (for /metrics). */
  storage(): StorageState;
  close(): Promise<void>;
}

export interface TransactionOptions {
  /**
   * PostgreSQL: no statement or idle-in-transaction timeout (config.ts, DATABASE_*_TIMEOUT_MS) for
   * this transaction: migrations may build an index for minutes. Nothing else should ask for it.
   */
  readonly unbounded?: boolean;
}

/** A unique index refused a write; `target` names the columns when the database says. */
export class UniqueViolation extends Error {
  override name = 'UniqueViolation';
  constructor(readonly target: string) {
    super(`unique constraint failed: ${target}`);
  }
}

/**
 * A foreign key refused a write: a row named a record that is gone, or a delete left rows naming
 * it. The services lock what they check first, so this is only the last guard of a race.
 */
export class ForeignKeyViolation extends Error {
  override name = 'ForeignKeyViolation';
  constructor(readonly target: string) {
    super(`foreign key constraint failed: ${target}`);
  }
}

/** A statement waited longer than its transaction allows for a lock another transaction holds. */
export class LockTimeout extends Error {
  override name = 'LockTimeout';
}

/**
 * A transaction that the current async call chain has joined: while it is set, every query and
 * every nested `transaction()` of that database runs inside it (nested ones as savepoints). The
 * idempotency layer uses it so that a request's effect and its idempotency record commit together
 * (so a crash never leaves one without the other) without every service having to pass a
 * transaction around.
 */
export interface JoinedTransaction {
  readonly db: Db;
  readonly tx: Queryable;
  savepoints: number;
}

const joinedTransactions = new AsyncLocalStorage<JoinedTransaction>();

/**
 * How many joined transactions' call chains are running now. When the last one ends, the storage
 * is disabled: on Node 20 and 22 an AsyncLocalStorage that has run keeps async hooks on for every
 * promise of the process until it is, ~10 µs of a 100 µs GET (docs/benchmarks.md, "async hooks
 * off"); the next run() turns it back on. A call chain that outlives its transaction (work left
 * running after fn answered) then finds no transaction, which is right: that one has ended.
 */
let joinedNow = 0;

/** Runs `fn` in a new transaction of `db` that every query of `db` made by `fn`'s call chain joins. */
export function transactionJoinedByCalls<T>(db: Db, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    joinedNow += 1;
    try {
      return await joinedTransactions.run({ db, tx, savepoints: 0 }, () => fn(tx));
    } finally {
      joinedNow -= 1;
      if (joinedNow === 0) joinedTransactions.disable();
    }
  });
}

/** Joined transactions whose call chains run now (tests read it). */
export function joinedTransactionsNow(): number {
  return joinedNow;
}

/** The transaction of `db` the caller runs inside, if any. */
export function joinedTo(db: Db): JoinedTransaction | undefined {
  const joined = joinedTransactions.getStore();
  return joined !== undefined && joined.db === db ? joined : undefined;
}

/** `fn` inside a savepoint of a joined transaction: its writes are undone alone if it throws. */
export async function inSavepoint<T>(joined: JoinedTransaction, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  joined.savepoints += 1;
  const name = `cw_sp${joined.savepoints}`;
  await joined.tx.run(`SAVEPOINT ${name}`);
  try {
    const result = await fn(joined.tx);
    await joined.tx.run(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    await joined.tx.run(`ROLLBACK TO SAVEPOINT ${name}`);
    await joined.tx.run(`RELEASE SAVEPOINT ${name}`);
    throw error;
  } finally {
    joined.savepoints -= 1;
  }
}
