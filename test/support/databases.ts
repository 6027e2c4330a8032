// One fresh, migrated database per test suite, on each dialect under test: a SQLite file in a
// temporary folder, or a PostgreSQL schema of its own (so suites run in parallel on one server).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import type { DatabaseConfig } from '../../src/config.ts';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';

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

/** A fresh database config (not yet connected). */
export async function freshDatabaseConfig(dialect: TestDialect): Promise<{ config: DatabaseConfig; env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'checkwriter-test-'));
    const file = join(dir, 'test.db');
    return {
      config: { kind: 'sqlite', url: file, schema: null },
      env: { DATABASE_URL: `sqlite:${file}` },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const url = inject('postgresUrl');
  if (url === null) throw new Error('PostgreSQL is not available in this run');
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  return {
    config: { kind: 'postgres', url, schema },
    env: { DATABASE_URL: url, DATABASE_SCHEMA: schema },
    cleanup: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await client.end();
    },
  };
}

export async function freshDatabase(dialect: TestDialect): Promise<TestDatabase> {
  const { config, env, cleanup } = await freshDatabaseConfig(dialect);
  const db = connect(config);
  await migrate(db);
  return {
    dialect,
    config,
    env,
    db,
    drop: async () => {
      await db.close();
      await cleanup();
    },
  };
}
