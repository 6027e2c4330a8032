import type { DatabaseConfig } from '../config.ts';
import type { Db } from './db.ts';
import { PostgresDb } from './postgres.ts';
import { SqliteDb } from './sqlite.ts';

export function connect(config: DatabaseConfig): Db {
  if (config.kind === 'sqlite') return new SqliteDb(config.url);
  return new PostgresDb({
    url: config.url,
    schema: config.schema,
    ...(config.pool === undefined ? {} : { pool: config.pool }),
  });
}
