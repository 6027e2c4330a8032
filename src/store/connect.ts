import { ConfigError, type DatabaseConfig } from '../config.ts';
import { redactUrlPassword } from '../domain/redact.ts';
import type { Db } from './db.ts';
import { PostgresDb } from './postgres.ts';
import { SqliteDb } from './sqlite.ts';
import { isTransientDatabaseError } from './transient.ts';

/** `server`: a connection that serves requests (SQLite then checkpoints off its thread, sqlite-checkpointer.ts). */
export function connect(config: DatabaseConfig, { server = false }: { server?: boolean } = {}): Db {
  if (config.kind === 'sqlite') return new SqliteDb(config.url, { checkpointThread: server });
  return new PostgresDb({
    url: config.url,
    schema: config.schema,
    ...(config.pool === undefined ? {} : { pool: config.pool }),
  });
}

/**
 * `connect` for a command: the database opened and asked a first query, so one that cannot be
 * opened or reached at all (a path that cannot be a database, a file that is not one, PostgreSQL
 * refusing the connection, an unknown host, role or database) is a ConfigError naming it and why,
 * not a driver's stack trace, nor the API's advice to send a request again.
 */
export async function connectOrExplain(config: DatabaseConfig): Promise<Db> {
  let db: Db;
  try {
    db = connect(config);
  } catch (error) {
    throw cannotOpen(config, error);
  }
  try {
    await checkOpens(db, config);
  } catch (error) {
    await db.close().catch(() => undefined);
    // A command does not wait for a database that cannot be reached yet (serve does).
    throw error instanceof ConfigError ? error : cannotOpen(config, error);
  }
  return db;
}

/**
 * A first query on a new connection. A database that cannot be opened at all (an unknown host,
 * role or database), or a DATABASE_SCHEMA that does not exist, is a ConfigError; a passing state
 * (transient.ts: not reachable yet, a failover) is thrown as it is, for a caller that waits.
 */
export async function checkOpens(db: Db, config: DatabaseConfig): Promise<void> {
  let row: { schema: string | null } | undefined;
  try {
    row = await db.get<{ schema: string | null }>(
      config.kind === 'postgres' ? 'SELECT current_schema() AS schema' : 'SELECT NULL AS schema',
    );
  } catch (error) {
    throw isTransientDatabaseError(error) ? error : cannotOpen(config, error);
  }
  // search_path naming a schema that does not exist leaves no current schema: nothing could be created.
  if (config.kind === 'postgres' && config.schema !== null && (row?.schema ?? null) === null)
    throw new ConfigError(
      `the schema ${config.schema} (DATABASE_SCHEMA) does not exist in the PostgreSQL database ${redactUrlPassword(config.url)}: create it (CREATE SCHEMA ${config.schema}) or name another`,
    );
}

/** A database that cannot be opened or reached, named (password masked) with the driver's reason. */
export function cannotOpen(config: DatabaseConfig, error: unknown): ConfigError {
  // A connection error the store turned into the API's 503 keeps the driver's own as its cause.
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const { message, code } = (cause ?? {}) as { message?: unknown; code?: unknown };
  const reason =
    typeof message === 'string' && message !== '' ? message : typeof code === 'string' ? code : String(cause);
  const what = config.kind === 'sqlite' ? 'the SQLite database' : 'the PostgreSQL database';
  return new ConfigError(`cannot open ${what} ${redactUrlPassword(config.url)} (DATABASE_URL): ${reason}`);
}
