// A full disk under writes, on a real server process: the SQLite file on a 24 MB tmpfs, the
// PostgreSQL schema's tables in a tablespace on a 24 MB tmpfs (the tests run as root, so both can
// be mounted). A filler file takes most of the room, then batches of checks fill the rest. Every
// refusal is a 503 in the spec's shape with Retry-After (never a 500), /readyz is not ready while
// full and /metrics says so, writes come back by themselves once the filler is removed, every
// acknowledged check is there, and the SQLite file passes integrity_check.
import { execFileSync } from 'node:child_process';
import { chownSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialects, freshDatabaseConfig, type TestDialect } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, type ServerProcess, startServerProcess } from '../support/processes.ts';

const TOKEN = 'disk-full-metrics-token-0123456789';
const BATCH = 25;

function mountTmpfs(dir: string): void {
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=24m,mode=0777', 'tmpfs', dir]);
}

function freeBytes(dir: string): number {
  const out = execFileSync('df', ['-B1', '--output=avail', dir]).toString().trim().split('\n');
  return Number(out.at(-1));
}

/** Fills `dir` up to `leave` bytes free with one file, written in chunks so a short write still counts. */
function fill(dir: string, leave: number): string {
  const file = join(dir, 'filler');
  const size = Math.max(0, freeBytes(dir) - leave);
  writeFileSync(file, Buffer.alloc(size, 1));
  return file;
}

async function admin<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: inject('postgresUrl') ?? '' });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function post(
  api: string,
  key: string,
  body: unknown,
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const response = await fetch(`${api}/checks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(text) };
}

async function metric(url: string, name: string): Promise<number> {
  const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const line = (await response.text()).split('\n').find((l) => l.startsWith(`${name} `));
  return Number(line?.split(' ')[1]);
}

describe.each(dialects())('a full disk under writes (%s)', { timeout: 300_000 }, (dialect: TestDialect) => {
  let mountDir = '';
  let server: ServerProcess;
  let env: Record<string, string>;
  let cleanup: () => Promise<void> = async () => undefined;
  let tablespace = '';
  let schema = '';

  beforeAll(async () => {
    mountDir = mkdtempSync(join(tmpdir(), 'checkwriter-disk-full-'));
    mountTmpfs(mountDir);
    if (dialect === 'sqlite') {
      const file = join(mountDir, 'full.db');
      env = { DATABASE_URL: `sqlite:${file}` };
    } else {
      const fresh = await freshDatabaseConfig('postgres');
      cleanup = fresh.cleanup;
      env = fresh.env;
      schema = fresh.config.schema ?? '';
      const location = join(mountDir, 'pg');
      mkdirSync(location);
      const postgres = Number(execFileSync('id', ['-u', 'postgres']).toString());
      chownSync(location, postgres, postgres);
      tablespace = `full_${schema}`;
      await admin(`CREATE TABLESPACE ${tablespace} LOCATION '${location}'`);
    }
    env = { ...env, METRICS_TOKEN: TOKEN };
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code, migrated.stderr).toBe(0);
    if (dialect === 'postgres') {
      // Every table and index of the schema into the small tablespace.
      await admin(`DO $$ DECLARE r record; BEGIN
        FOR r IN SELECT tablename FROM pg_tables WHERE schemaname = '${schema}' LOOP
          EXECUTE format('ALTER TABLE %I.%I SET TABLESPACE ${tablespace}', '${schema}', r.tablename);
        END LOOP;
        FOR r IN SELECT indexname FROM pg_indexes WHERE schemaname = '${schema}' LOOP
          EXECUTE format('ALTER INDEX %I.%I SET TABLESPACE ${tablespace}', '${schema}', r.indexname);
        END LOOP; END $$`);
    }
    server = await startServerProcess(env, { startTimeoutMs: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
    if (dialect === 'postgres') {
      await cleanup();
      await admin(`DROP TABLESPACE IF EXISTS ${tablespace}`).catch(() => undefined);
    }
    execFileSync('umount', [mountDir]);
    rmSync(mountDir, { recursive: true, force: true });
  });

  it('answers 503 with Retry-After while full, is not ready, and writes come back by themselves', async () => {
    const api = `${server.url}/api/v3`;
    const key = await createKeyWithCli('disk@example.com', env);
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ routingNumber: '011000015', accountNumber: '123456789', name: 'Full disk bank' }] },
    });
    expect(bank.status, JSON.stringify(bank.body)).toBe(201);
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Disk Payee' }] } });
    expect(payee.status).toBe(201);
    const payeeId = payee.body.data.payees[0].payeeId;
    const batch = (n: number): unknown => ({
      checks: Array.from({ length: BATCH }, (_, i) => ({
        bankAccountId,
        payeeId,
        amount: Number((1 + n + i / 100).toFixed(2)),
        memo: `batch ${n} check ${i} ${'x'.repeat(120)}`,
      })),
    });

    const filler = fill(mountDir, 512 * 1024);
    const statuses: number[] = [];
    let acknowledged = 0;
    let refused = 0;
    for (let n = 0; n < 400 && refused < 5; n++) {
      const answer = await post(api, key, batch(n));
      statuses.push(answer.status);
      if (answer.status === 201) acknowledged += BATCH;
      else {
        refused += 1;
        expect(answer.status, JSON.stringify(answer.body)).toBe(503);
        expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(answer.body).toMatchObject({ success: false, errorMsg: expect.stringMatching(/no room to write/) });
      }
    }
    expect(statuses).not.toContain(500);
    expect(refused).toBe(5);

    // Not ready while full, and the metrics say why; reads still answer.
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('retry-after')).not.toBeNull();
    expect(await ready.json()).toEqual({ status: 'database disk full' });
    expect(await metric(server.url, 'checkwriter_db_disk_full')).toBe(1);
    expect(await metric(server.url, 'checkwriter_db_disk_full_refusals_total')).toBeGreaterThanOrEqual(5);
    expect((await http(`${api}/checks?perPage=1`, { key })).status).toBe(200);
    // One warning for the whole run of refusals, no stack.
    expect(server.output().match(/database out of room/g)?.length).toBe(1);
    expect(server.output()).not.toMatch(/"stack"|unexpected error/);

    // Space returns: the next write succeeds with no restart, and readiness follows.
    rmSync(filler);
    const again = await post(api, key, batch(1000));
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    acknowledged += BATCH;
    // /readyz reuses its answer for a second (app.ts): ready again within a few.
    let readyAgain = 0;
    for (let i = 0; i < 50 && readyAgain !== 200; i++) {
      if (i > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      readyAgain = (await fetch(`${server.url}/readyz`)).status;
    }
    expect(readyAgain).toBe(200);
    expect(await metric(server.url, 'checkwriter_db_disk_full')).toBe(0);

    // Every acknowledged check is there (and nothing of a refused batch).
    const listed = await http(`${api}/checks?perPage=1`, { key });
    expect(listed.status).toBe(200);
    expect(listed.body.data.meta.total).toBe(acknowledged);

    if (dialect === 'sqlite') {
      await server.stop();
      // The driver this runtime loads (better-sqlite3 12 on Node 20, 13 on 22 and later).
      const { Database } = await import('../../src/store/sqlite-driver.ts');
      const db = new Database(env.DATABASE_URL?.slice('sqlite:'.length) ?? '', { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      expect((db.prepare('SELECT count(*) AS n FROM checks').get() as { n: number }).n).toBe(acknowledged);
      db.close();
    }
  });
});
