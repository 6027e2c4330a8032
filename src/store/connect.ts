import { ConfigError, type DatabaseConfig } from '../config.ts';
import { redactUrlPassword } from '../domain/redact.ts';
import type { Db } from './db.ts';
import { PostgresDb } from './postgres.ts';
import { SqliteDb } from './sqlite.ts';

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
    await db.get('SELECT 1 AS one');
  } catch (error) {
    await db.close().catch(() => undefined);
    throw cannotOpen(config, error);
  }
  return db;
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
