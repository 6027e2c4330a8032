// A throwaway database per benchmark run and dialect (the same scratch databases the tests use:
// a SQLite file in a temporary folder, or a PostgreSQL schema of its own, dropped afterwards), so
// a run never touches other data on a shared server.
import type { DatabaseConfig } from '../src/config.ts';
import type { Db } from '../src/store/db.ts';
import { scratchDatabase } from '../test/support/scratch-database.ts';
import type { BenchDialect } from './options.ts';

export interface BenchDatabase {
  dialect: BenchDialect;
  config: DatabaseConfig;
  /** Environment that points the server child at this database. */
  env: Record<string, string>;
  /** The benchmark's own connection: accounts, keys and seeding go straight through the store. */
  db: Db;
  drop(): Promise<void>;
}

export async function createDatabase(dialect: BenchDialect, postgresUrl: string): Promise<BenchDatabase> {
  const { config, env, db, drop } = await scratchDatabase(dialect, postgresUrl, 'bench');
  return { dialect, config, env, db, drop };
}
