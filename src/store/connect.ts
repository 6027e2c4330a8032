import type { DatabaseConfig } from '../config.ts';
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
