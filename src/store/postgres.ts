import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db, Queryable, SqlValue } from './db.ts';
import { inSavepoint, joinedTo, LockTimeout, UniqueViolation } from './db.ts';
import { KEYS_CHANNEL } from './dialect.ts';

// int8 (BIGINT) comes back from pg as a string by default; every BIGINT here is cents or epoch
// milliseconds, far inside Number's exact range.
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
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
  if (typeof error === 'object' && error !== null && pgError.code === '55P03') return new LockTimeout('lock timeout');
  return error;
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

function queryable(client: pg.Pool | pg.PoolClient): Queryable {
  const query = async <T>(sql: string, params: readonly SqlValue[]): Promise<pg.QueryResult<T & pg.QueryResultRow>> => {
    const { name, text } = compile(sql);
    try {
      return await client.query<T & pg.QueryResultRow>({ name, text, values: params as SqlValue[] });
    } catch (error) {
      throw translateError(error);
    }
  };
  return {
    dialect: 'postgres',
    all: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T>(sql, params)).rows,
    get: async <T>(sql: string, params: readonly SqlValue[] = []) => (await query<T>(sql, params)).rows[0],
    run: async (sql: string, params: readonly SqlValue[] = []) =>
      (await query<Record<string, unknown>>(sql, params)).rowCount ?? 0,
  };
}

export interface PostgresOptions {
  url: string;
  schema: string | null;
  poolSize?: number;
}

export class PostgresDb implements Db {
  readonly dialect = 'postgres' as const;
  private readonly pool: pg.Pool;
  private readonly direct: Queryable;
  private listener: pg.Client | null = null;
  private keysChanged = false;
  private listening = false;
  private closed = false;

  /** Pool connections (for /metrics). */
  poolUse(): { total: number; idle: number; waiting: number } {
    return { total: this.pool.totalCount, idle: this.pool.idleCount, waiting: this.pool.waitingCount };
  }

  constructor(private readonly options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize ?? 10,
      types,
      ...(options.schema === null ? {} : { options: `-c search_path=${options.schema}` }),
    });
    // An idle client that loses its server must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    this.direct = queryable(this.pool);
  }

  /** The pool, or the client of the transaction the caller joined. */
  private target(): Queryable {
    return joinedTo(this)?.tx ?? this.direct;
  }

  all<T>(sql: string, params?: readonly SqlValue[]): Promise<T[]> {
    return this.target().all<T>(sql, params);
  }

  get<T>(sql: string, params?: readonly SqlValue[]): Promise<T | undefined> {
    return this.target().get<T>(sql, params);
  }

  run(sql: string, params?: readonly SqlValue[]): Promise<number> {
    return this.target().run(sql, params);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const joined = joinedTo(this);
    if (joined !== undefined) return inSavepoint(joined, fn);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      try {
        const result = await fn(queryable(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw translateError(error);
      }
    } finally {
      client.release();
    }
  }

  /**
   * Listens for key revocations made by any process (NOTIFY inside the revoking transaction).
   * Until the listener is connected, and after it drops, every check answers "changed" so no
   * cache outlives a revocation we could not hear about.
   */
  async listenForKeyChanges(): Promise<void> {
    if (this.closed || this.listener !== null) return;
    const client = new pg.Client({ connectionString: this.options.url });
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
    await this.pool.end();
  }
}
