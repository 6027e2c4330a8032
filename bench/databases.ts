// A throwaway database per benchmark run and dialect: a SQLite file in a temporary folder, or a
// PostgreSQL schema of its own (created here, dropped afterwards), so a run never touches other
// data on a shared server.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../src/config.ts';
import { connect } from '../src/store/connect.ts';
import type { Db } from '../src/store/db.ts';
import { migrate } from '../src/store/migrate.ts';
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

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function createDatabase(dialect: BenchDialect, postgresUrl: string): Promise<BenchDatabase> {
  let config: DatabaseConfig;
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'checkwriter-bench-'));
    const file = join(dir, 'bench.db');
    config = { kind: 'sqlite', url: file, schema: null };
    env = { DATABASE_URL: `sqlite:${file}` };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  } else {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    await adminQuery(postgresUrl, `CREATE SCHEMA ${schema}`);
    config = { kind: 'postgres', url: postgresUrl, schema };
    env = { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema };
    cleanup = () => adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
  const db = connect(config);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    await cleanup();
    throw error;
  }
  return {
    dialect,
    config,
    env,
    db,
    drop: async () => {
      await db.close().catch(() => undefined);
      await cleanup();
    },
  };
}
