// One fresh, migrated database per test suite, on each dialect under test (scratch-database.ts).
import { inject } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import type { Db } from '../../src/store/db.ts';
import { scratchConfig, scratchDatabase } from './scratch-database.ts';

export type TestDialect = 'sqlite' | 'postgres';

/** The dialects every store and HTTP test runs on in this run. */
export function dialects(): TestDialect[] {
  return inject('postgresUrl') === null ? ['sqlite'] : ['sqlite', 'postgres'];
}

export interface TestDatabase {
  dialect: TestDialect;
  config: DatabaseConfig;
  /** Environment variables that point a child process (server, CLI) at this database. */
  env: Record<string, string>;
  db: Db;
  drop: () => Promise<void>;
}

function postgresUrl(dialect: TestDialect): string {
  const url = inject('postgresUrl');
  if (dialect === 'postgres' && url === null) throw new Error('PostgreSQL is not available in this run');
  return url ?? '';
}

/** A fresh database config (not yet connected). */
export function freshDatabaseConfig(
  dialect: TestDialect,
): Promise<{ config: DatabaseConfig; env: Record<string, string>; cleanup: () => Promise<void> }> {
  return scratchConfig(dialect, postgresUrl(dialect), 'test');
}

export async function freshDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const { config, env, db, drop } = await scratchDatabase(dialect, postgresUrl(dialect), 'test');
  return { dialect, config, env, db, drop };
}
