// Decides once per run which databases the store and HTTP tests run on. SQLite always;
// PostgreSQL whenever it answers. In CI (CI=true) an unreachable PostgreSQL fails the run
// instead of silently testing less. A run may leave PostgreSQL out on purpose and say so
// (CHECKWRITER_TEST_DATABASES=sqlite: .ci/run does on its later runtimes, see there why).
import pg from 'pg';
import type { TestProject } from 'vitest/node';

export const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
  }
}

async function reachable(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const chosen = process.env.CHECKWRITER_TEST_DATABASES === 'sqlite';
  const problem = chosen
    ? 'CHECKWRITER_TEST_DATABASES=sqlite'
    : process.env.SKIP_POSTGRES === '1'
      ? 'SKIP_POSTGRES=1'
      : await reachable(PG_URL);
  if (problem !== null && !chosen && process.env.CI === 'true') {
    throw new Error(`PostgreSQL at ${PG_URL} is required in CI and could not be reached: ${problem}`);
  }
  project.provide('postgresUrl', problem === null ? PG_URL : null);
  const ran =
    problem === null
      ? 'SQLite and PostgreSQL'
      : chosen
        ? `SQLite only (PostgreSQL left out on purpose: ${problem})`
        : `SQLite only (PostgreSQL skipped: ${problem})`;
  process.stdout.write(`\ncheckwriter tests: databases = ${ran}\n`);
  return () => {
    process.stdout.write(`\ncheckwriter tests ran on: ${ran}\n`);
  };
}
