// A throwaway database: a SQLite file in a temporary folder, or a PostgreSQL schema of its own
// (created here, dropped afterwards) so several suites or runs share one server safely. Used by
// the tests (databases.ts) and by `npm run bench`; it depends on nothing of vitest.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config.ts';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';

export interface ScratchConfig {
  config: DatabaseConfig;
  /** Environment variables that point a child process (server, CLI, worker) at this database. */
  env: Record<string, string>;
  cleanup: () => Promise<void>;
}

export interface ScratchDatabase extends ScratchConfig {
  db: Db;
  drop: () => Promise<void>;
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

/** A fresh, empty database, not yet connected. `label` names the folder or schema. */
export async function scratchConfig(
  kind: 'sqlite' | 'postgres',
  postgresUrl: string,
  label: string,
): Promise<ScratchConfig> {
  if (kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), `checkwriter-${label}-`));
    const file = join(dir, `${label}.db`);
    return {
      config: { kind: 'sqlite', url: file, schema: null },
      env: { DATABASE_URL: `sqlite:${file}` },
      cleanup: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const schema = `${label}_${randomBytes(6).toString('hex')}`;
  await adminQuery(postgresUrl, `CREATE SCHEMA ${schema}`);
  // PostgreSQL has no file to keep the server secret beside: like an operator, name one (docs/secrets.md).
  const dir = mkdtempSync(join(tmpdir(), `checkwriter-${label}-`));
  return {
    config: { kind: 'postgres', url: postgresUrl, schema },
    env: { DATABASE_URL: postgresUrl, DATABASE_SCHEMA: schema, SECRET_FILE: join(dir, 'checkwriter.secret') },
    cleanup: async () => {
      rmSync(dir, { recursive: true, force: true });
      await adminQuery(postgresUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    },
  };
}

/** A fresh database, connected and migrated. */
export async function scratchDatabase(
  kind: 'sqlite' | 'postgres',
  postgresUrl: string,
  label: string,
): Promise<ScratchDatabase> {
  const scratch = await scratchConfig(kind, postgresUrl, label);
  const db = connect(scratch.config);
  try {
    await migrate(db);
  } catch (error) {
    await db.close().catch(() => undefined);
    await scratch.cleanup();
    throw error;
  }
  return {
    ...scratch,
    db,
    drop: async () => {
      await db.close().catch(() => undefined);
      await scratch.cleanup();
    },
  };
}
