import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import type pg from 'pg';
import { DEFAULT_POOL, type PoolConfig } from '../config.ts';
import type { BatchedRead, Db, Queryable, SqlValue, TransactionOptions } from './db.ts';
import { ForeignKeyViolation, inSavepoint, joinedTo, LockTimeout, UniqueViolation, valuesOf } from './db.ts';
import { KEYS_CHANNEL } from './dialect.ts';
import { type StorageState, StorageRoom } from './storage-room.ts';
import { asUnavailable, isTransientDatabaseError } from './transient.ts';

let loaded: typeof pg | null = null;

/**
 * The pg driver, loaded when the first PostgreSQL pool opens rather than with this module: a server
 * or command on SQLite never needs it. Synchronously (its CommonJS build), because `connect` is.
 */
function driver(): typeof pg {
  loaded ??= createRequire(import.meta.url)('pg') as typeof pg;
  return loaded;
}

// int8 (BIGINT) comes back from pg as a string by default; every BIGINT here is cents or epoch
// milliseconds, far inside Number's exact range.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : driver().types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
}

function translateError(error: unknown): unknown {
  const pgError = error as PgError;
  if (typeof error === 'object' && error !== null && pgError.code === '23505') {
    return new UniqueViolation(pgError.constraint ?? pgError.detail ?? 'unique');
  }
  if (typeof error === 'object' && error !== null && pgError.code === '23503') {
    return new ForeignKeyViolation(pgError.constraint ?? 'foreign key');
  }
  if (typeof error === 'object' && error !== null && pgError.code === '55P03') return new LockTimeout('lock timeout');
  return asUnavailable(error);
}

/** An error that leaves the connection unfit for reuse: it is closed rather than given back to the pool. */
function spoilsConnection(error: unknown): boolean {
  const cause = (error as { cause?: unknown }).cause ?? error;
  // A lost race (serialization failure, deadlock) or a cancelled statement leaves a sound session.
  const code = (cause as { code?: unknown }).code;
  if (code === '40001' || code === '40P01' || code === '57014') return false;
  // A read-only answer (25006) does spoil it: the session may be one that stays read-only after the
  // database became writable again (default_transaction_read_only is read at session start).
  return isTransientDatabaseError(cause);
}

interface Compiled {
  name: string;
  text: string;
}

const compiledCache = new Map<string, Compiled>();

/** `?` placeholders become `$1..$n`; the statement gets a stable name so each connection prepares it once. */
function compile(sql: string): Compiled {
  let compiled = compiledCache.get(sql);
  if (compiled === undefined) {
    let index = 0;
    const text = sql.replace(/\?/g, () => {
      index += 1;
      return `$${index}`;
    });
    compiled = { name: `cw_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`, text };
    compiledCache.set(sql, compiled);
  }
  return compiled;
}

/** How long close() lets open transactions end by themselves before ending their connections. */
const CLOSE_WAIT_MS = 5_000;

/** The longest timer Node keeps: the client-side query timeout of an unbounded transaction. */
const NO_QUERY_TIMEOUT = 2_147_483_647;

function queryable(client: pg.Pool | pg.PoolClient, unbounded = false): Queryable {
  const query = async <T>(
    sql: string,
    params: readonly SqlValue[],
    asArrays = false,
  ): Promise<pg.QueryResult<T & pg.QueryResultRow>> => {
    const { name, text } = compile(sql);
    try {
      return await client.query<T & pg.QueryResultRow>({
        name,
        text,
        values: params as SqlValue[],
        ...(asArrays ? { rowMode: 'array' } : {}),
        ...(unbounded ? { query_timeout: NO_QUERY_TIMEOUT } : {}),
      });
    } catch (error) {
      throw translateError(error);
    }
  };
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T>(sql, params)).rows,
    allValues: async (sql: string, params: readonly SqlValue[] = []) =>
      (await query<SqlValue[]>(sql, params, true)).rows as unknown as SqlValue[][],
    get: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T>(sql, params)).rows[0],
    run: async (sql: string, params: readonly SqlValue[] = []) =>
      (await query<Record<string, unknown>>(sql, params)).rowCount ?? 0,
  };
}

export interface PostgresOptions {
  url: string;
  schema: string | null;
  pool?: PoolConfig;
}

/** What node-postgres needs to open a connection with our timeouts (pool and LISTEN client alike). */
function clientConfig(options: PostgresOptions): pg.ClientConfig {
  const pool = options.pool ?? DEFAULT_POOL;
  return {
    connectionString: options.url,
    types,
    application_name: 'checkwriter',
    connectionTimeoutMillis: pool.connectTimeoutMs,
    ...(pool.keepAliveSeconds > 0
      ? { keepAlive: true, keepAliveInitialDelayMillis: pool.keepAliveSeconds * 1000 }
      : {}),
    ...(pool.statementTimeoutMs > 0
      ? {
          statement_timeout: pool.statementTimeoutMs,
          // The server cancels a slow statement itself; this client-side bound only catches a
          // server that stopped answering at all (a blackholed network), where no cancel arrives.
          query_timeout: pool.statementTimeoutMs + Math.max(5_000, pool.connectTimeoutMs),
        }
      : {}),
    ...(pool.idleInTransactionTimeoutMs > 0
      ? { idle_in_transaction_session_timeout: pool.idleInTransactionTimeoutMs }
      : {}),
    ...(options.schema === null ? {} : { options: `-c search_path=${options.schema}` }),
  };
}

/** Reads of one kind asked for and not yet sent: they go to the database in one statement. */
interface OpenBatch {
  readonly keys: unknown[];
  readonly answers: { resolve: (value: unknown) => void; reject: (error: unknown) => void }[];
  /** Sends the batch though the slots are taken, if it still waits after BATCH_STALL_MS. */
  stallGuard: NodeJS.Timeout | null;
}

/**
 * How many batches of one read may be at the database at once; the next one waits, and grows, until
 * one answers. One: measured under GET load (50 connections, 2 cores, docs/benchmarks.md), a limit of
 * 1 made batches of ~18 reads and cost the server ~160–200 µs CPU a request and PostgreSQL ~25–40,
 * against ~210–260 and ~45–65 µs with 2 (batches of ~10) and ~300 and ~140 µs with the pool's 10
 * (batches of ~2.5). The next batch is sent the moment the one out answers, before that one's
 * callers are answered, so the database is not left idle meanwhile.
 */
export const BATCHES_IN_FLIGHT = 1;

/**
 * A batch waiting this long for the one out (a connection that stopped answering, a statement
 * stuck behind a lock) is sent anyway, on a connection of its own: one stalled statement must not
 * hold every GET of the process until the query timeout, as it would not have held them when each
 * read had its own connection. A batch answers in about a millisecond under load
 * (docs/benchmarks.md), so this fires only for a stall, or on a database too busy to answer in
 * time, where more statements at once is what every read did before batching.
 */
export const BATCH_STALL_MS = 100;

/**
 * Keys in one batch at most: a batch that reaches it is sent at once, as the stall guard sends
 * one, and the next caller opens a new batch. Under GET load batches hold ~18 keys (50 at 0.7 ms
 * at the database); the bound keeps one statement's cost bounded whatever burst arrives.
 */
export const MAX_BATCH_KEYS = 500;

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly direct: Queryable;
  private listener: pg.Client | null = null;
  private keysChanged = false;
  private listening = false;
  private closed = false;
  /** Per batched read (readBatched), the batch later callers join until it is sent. */
  private readonly openBatches = new Map<BatchedRead<unknown, unknown>, OpenBatch>();
  /** Per batched read, how many of its batches are at the database. */
  private readonly batchesInFlight = new Map<BatchedRead<unknown, unknown>, number>();
  /** Batches that asked the pool for a connection and have not got it yet. */
  private readonly sending = new Set<OpenBatch>();
  /** Clients checked out by transaction(): ended by close() if they outlive its bound. */
  private readonly checkedOut = new Set<pg.PoolClient>();
  private readonly room = new StorageRoom();

  /** Pool connections (for /metrics). */
  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  constructor(private readonly options: PostgresOptions) {
    const pool = options.pool ?? DEFAULT_POOL;
    this.pool = new (driver().Pool)({
      ...clientConfig(options),
      max: pool.size,
      idleTimeoutMillis: pool.idleTimeoutMs,
    });
    // An idle client that loses its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    // Nor a client checked out of the pool (a transaction's): pg-pool removes its own 'error'
    // listener while a client is out, and an 'error' event without a listener ends the process
    // (without it, both servers exited on a failover). The query in progress fails with the same
    // error, and transaction() below gives the client back as broken, so the pool opens a new one.
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    this.direct = queryable(this.pool);
  }

  /** The pool, or the client of the transaction the caller joined. */
  private target(): Queryable {
    return joinedTo(this)?.tx ?? this.direct;
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.target().all<T>(sql, params);
  }

  allValues(sql: string, params: readonly SqlValue[] = []): Promise<SqlValue[][]> {
    return valuesOf(this.target(), sql, params);
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.target().get<T>(sql, params);
  }

  /**
   * `read` of `key`, in one statement with the same read of every key asked for until that
   * statement is sent. Inside a joined transaction it reads there, alone: it must see the
   * transaction's own writes.
   *
   * Never stale: a caller joins only a batch not yet sent, so the statement that answers it leaves
   * after it was asked, and sees every commit acknowledged before that (on this server or another).
   * A batch is sent as soon as a pool connection is free for it (at once when one is idle) and
   * fewer than BATCHES_IN_FLIGHT of its kind are at the database; meanwhile it grows. On a quiet
   * server each read is therefore sent at once, alone; under load, the reads that arrive while the
   * others are at the database share one statement instead of each queueing for a connection.
   */
  readBatched<K, R>(read: BatchedRead<K, R>, key: K): Promise<R> {
    const joined = joinedTo(this);
    if (joined !== undefined) return read.one(joined.tx, key);
    const kind = read as BatchedRead<unknown, unknown>;
    let batch = this.openBatches.get(kind);
    const opened = batch === undefined;
    if (batch === undefined) {
      batch = { keys: [], answers: [], stallGuard: null };
      this.openBatches.set(kind, batch);
    }
    const joining = batch;
    const answer = new Promise<R>((resolve, reject) => {
      joining.keys.push(key);
      joining.answers.push({ resolve: resolve as (value: unknown) => void, reject });
    });
    if (joining.keys.length >= MAX_BATCH_KEYS) {
      // Full: closed to newcomers now, and sent unless it is already on its way.
      this.openBatches.delete(kind);
      if (!this.sending.has(joining)) this.sendBatch(kind, joining);
      return answer;
    }
    if (!opened) return answer;
    if ((this.batchesInFlight.get(kind) ?? 0) < BATCHES_IN_FLIGHT) this.sendBatch(kind, joining);
    else {
      joining.stallGuard = setTimeout(() => {
        joining.stallGuard = null;
        if (this.openBatches.get(kind) === joining && !this.sending.has(joining)) this.sendBatch(kind, joining);
      }, BATCH_STALL_MS);
      // A batch waiting for its turn keeps nothing alive: close() settles what is out.
      joining.stallGuard.unref();
    }
    return answer;
  }

  /** Takes a connection for `batch`, closes it to newcomers and runs it; then sends the next one waiting. */
  private sendBatch(read: BatchedRead<unknown, unknown>, batch: OpenBatch): void {
    if (batch.stallGuard !== null) {
      clearTimeout(batch.stallGuard);
      batch.stallGuard = null;
    }
    this.batchesInFlight.set(read, (this.batchesInFlight.get(read) ?? 0) + 1);
    const settled = (): void => {
      const left = (this.batchesInFlight.get(read) ?? 1) - 1;
      this.batchesInFlight.set(read, left);
      const waiting = this.openBatches.get(read);
      if (waiting !== undefined && waiting !== batch && left < BATCHES_IN_FLIGHT && !this.sending.has(waiting))
        this.sendBatch(read, waiting);
    };
    this.sending.add(batch);
    this.pool.connect((error, client, release) => {
      // From here on a caller opens the next batch: this one's statement is about to leave.
      if (this.openBatches.get(read) === batch) this.openBatches.delete(read);
      this.sending.delete(batch);
      if (error !== undefined || client === undefined) {
        const failure = translateError(error);
        for (const a of batch.answers) a.reject(failure);
        settled();
        return;
      }
      const q = queryable(client);
      const keys = batch.keys;
      const answered = keys.length === 1 ? read.one(q, keys[0]).then((one) => [one]) : read.many(q, keys);
      answered.then(
        (results) => {
          release();
          settled();
          for (let i = 0; i < batch.answers.length; i += 1) batch.answers[i]?.resolve(results[i]);
        },
        (failure: unknown) => {
          // As pool.query does: a connection whose statement failed is closed, not reused.
          release(failure instanceof Error ? failure : new Error(String(failure)));
          settled();
          for (const a of batch.answers) a.reject(failure);
        },
      );
    });
  }

  async run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    const joined = joinedTo(this) !== undefined;
    try {
      const changes = await this.target().run(sql, params);
      // Outside a transaction a statement commits by itself.
      if (!joined) this.room.noteCommit();
      return changes;
    } catch (error) {
      this.room.noteError(error);
      throw error;
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const unbounded = options.unbounded === true;
    const joined = joinedTo(this);
    if (joined !== undefined) return inSavepoint(joined, fn);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw translateError(error);
    }
    let broken: Error | undefined;
    this.checkedOut.add(client);
    try {
      await client.query('BEGIN');
      if (unbounded) {
        await client.query('SET LOCAL statement_timeout = 0');
        await client.query('SET LOCAL idle_in_transaction_session_timeout = 0');
      }
      try {
        const result = await fn(queryable(client, unbounded));
        await client.query('COMMIT');
        this.room.noteCommit();
        return result;
      } catch (error) {
        if (spoilsConnection(error)) broken = error instanceof Error ? error : new Error(String(error));
        // On a lost connection ROLLBACK fails too; the server rolls back a transaction whose
        // connection ended.
        else await client.query('ROLLBACK').catch(() => undefined);
        throw translateError(error);
      }
    } catch (error) {
      this.room.noteError(error);
      // BEGIN itself failed (the connection died while idle in the pool).
      if (broken === undefined && spoilsConnection(error))
        broken = error instanceof Error ? error : new Error(String(error));
      throw translateError(error);
    } finally {
      // Released with an error, the client is closed instead of going back to the pool.
      this.checkedOut.delete(client);
      client.release(broken);
    }
  }

  /**
   * Listens for key revocations made by any process (NOTIFY inside the revoking transaction).
   * Until the listener is connected, and after it drops, every check answers "changed" so no
   * cache outlives a revocation we could not hear about.
   */
  async listenForKeyChanges(): Promise<void> {
    if (this.closed || this.listener !== null) return;
    const client = new (driver().Client)(clientConfig(this.options));
    this.listener = client;
    const drop = (): void => {
      this.listening = false;
      this.keysChanged = true;
      if (this.listener === client) this.listener = null;
      client.end().catch(() => undefined);
      if (!this.closed) setTimeout(() => void this.listenForKeyChanges().catch(() => undefined), 1000).unref();
    };
    client.on('error', drop);
    client.on('end', () => {
      if (this.listening) drop();
    });
    client.on('notification', () => {
      this.keysChanged = true;
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${KEYS_CHANNEL}`);
      this.keysChanged = true;
      this.listening = true;
    } catch (error) {
      drop();
      throw error;
    }
  }

  storage(): StorageState {
    return this.room.state();
  }

  async writable(): Promise<boolean> {
    if (this.closed) return false;
    // Writes were refused for lack of space a moment ago, and none has committed since. (The
    // tablespace's free space is not something a query can ask cheaply; after DISK_FULL_RECENT_MS
    // without a refusal the next write tries again.)
    if (this.room.recentlyFull()) return false;
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch {
      return false;
    }
    try {
      const { rows } = await client.query<{ recovery: boolean; read_only: string; default_read_only: string }>(
        `SELECT pg_is_in_recovery() AS recovery, current_setting('transaction_read_only') AS read_only,
                current_setting('default_transaction_read_only') AS default_read_only`,
      );
      const row = rows[0];
      const ok = row !== undefined && !row.recovery && row.read_only === 'off' && row.default_read_only === 'off';
      // A read-only session is closed rather than kept: it would stay read-only after the database
      // became writable again (the setting is read at session start), and so would this answer.
      client.release(ok ? undefined : new Error('read-only session'));
      return ok;
    } catch (error) {
      client.release(error instanceof Error ? error : new Error(String(error)));
      return false;
    }
  }

  keysUnchangedSinceLastCheck(): boolean {
    if (!this.listening) return false;
    if (!this.keysChanged) return true;
    this.keysChanged = false;
    return false;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listening = false;
    const listener = this.listener;
    this.listener = null;
    if (listener !== null) await listener.end().catch(() => undefined);
    // pool.end() waits for every checked-out client. A transaction still open after the bound
    // (shutdown's own bound has passed by then) has its connection ended: the server rolls it back.
    const ended = this.pool.end();
    const timer = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), CLOSE_WAIT_MS).unref());
    if (!(await Promise.race([ended.then(() => true), timer]))) {
      for (const client of this.checkedOut) await client.end().catch(() => undefined);
      await ended;
    }
  }
}
