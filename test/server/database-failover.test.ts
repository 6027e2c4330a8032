// Real server processes on PostgreSQL whose database fails under them,
// on the shared server without stopping it: the test ends its own connections
// (pg_terminate_backend, filtered by an application_name only these servers use), turns its own
// scratch database read-only the way a standby is (default_transaction_read_only), and starts the
// database "late" by putting a proxy on a port nothing listened on.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.ts';
import { eventually } from '../support/until.ts';

const postgres = dialects().includes('postgres');
const pgUrl = (): string => inject('postgresUrl') ?? '';

async function admin<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: pgUrl(), connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function withParam(url: string, name: string, value: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set(name, value);
  return parsed.toString();
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Answer {
  status: number;
  retryAfter: string | null;
  replayed: boolean;
  // biome-ignore lint/suspicious/noExplicitAny: JSON read back in tests
  body: any;
}

async function post(url: string, key: string, body: unknown, idempotencyKey: string): Promise<Answer> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    replayed: response.headers.get('idempotent-replayed') === 'true',
    body: JSON.parse(text),
  };
}

/** A bank account and a payee made through the API; answers the ids a check needs. */
async function seed(api: string, key: string): Promise<{ bankAccountId: string; payeeId: string }> {
  const bank = await http(`${api}/bankAccounts`, {
    method: 'POST',
    key,
    body: {
      bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 1 }],
    },
  });
  const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Acme Supplies' }] } });
  expect([bank.status, payee.status]).toEqual([201, 201]);
  return { bankAccountId: bank.body.data.bankAccounts[0].bankAccountId, payeeId: payee.body.data.payees[0].payeeId };
}

function expectSpecShaped503(answer: Answer): void {
  expect(answer.status).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
  expect(answer.body.success).toBe(false);
  expect(answer.body.errorMsg).toMatch(/Idempotency-Key/);
}

describe.skipIf(!postgres)('start-up waits for its database (postgres)', { timeout: 120_000 }, () => {
  it('waits, logging the address with its password masked, and starts once the database answers', async () => {
    const fresh = await freshDatabaseConfig('postgres');
    const port = await freePort();
    const target = new URL(pgUrl());
    const url = new URL(pgUrl());
    url.password = 'hunter2-not-logged';
    url.port = String(port);
    let proxy: TcpProxy | undefined;
    let server: ServerProcess | undefined;
    try {
      let waitedTwice: () => void = () => undefined;
      const waiting = new Promise<void>((resolve) => (waitedTwice = resolve));
      const starting = startServerProcess(
        { ...fresh.env, DATABASE_URL: url.toString(), DATABASE_WAIT_SECONDS: '60' },
        {
          startTimeoutMs: 90_000,
          onOutput: (output) => {
            if ((output.match(/waiting for the database/g) ?? []).length >= 2) waitedTwice();
          },
        },
      );
      // Nothing listens on the port until the server has tried twice: it must wait, not exit.
      await waiting;
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) }, port);
      server = await starting;
      const output = server.output();
      expect(output).toMatch(/waiting for the database/);
      expect(output).toMatch(/ECONNREFUSED/);
      expect(output).toContain(':***@');
      expect(output).not.toContain('hunter2-not-logged');
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    } finally {
      await server?.stop();
      await proxy?.close();
      await fresh.cleanup();
    }
  });

  it('gives up after DATABASE_WAIT_SECONDS with the reason, password masked', async () => {
    const fresh = await freshDatabaseConfig('postgres');
    try {
      const url = new URL(pgUrl());
      url.password = 'hunter2-not-logged';
      url.port = String(await freePort());
      const started = Date.now();
      const result = await runCli(['serve'], {
        ...fresh.env,
        DATABASE_URL: url.toString(),
        DATABASE_WAIT_SECONDS: '1',
      });
      expect(result.code).not.toBe(0);
      // Module loading on a loaded machine takes most of it; the wait itself is 1 s.
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(result.stderr).toMatch(/did not answer within DATABASE_WAIT_SECONDS=1/);
      expect(result.stderr + result.stdout).not.toContain('hunter2-not-logged');
    } finally {
      await fresh.cleanup();
    }
  });
});

describe.skipIf(!postgres)('connections ended under load (postgres)', { timeout: 240_000 }, () => {
  const appName = `cw_kill_${randomBytes(4).toString('hex')}`;
  let env: Record<string, string>;
  let cleanup: () => Promise<void> = async () => undefined;
  let server: ServerProcess;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig('postgres');
    cleanup = fresh.cleanup;
    env = { ...fresh.env, DATABASE_URL: withParam(pgUrl(), 'application_name', appName) };
    expect((await runCli(['migrate'], env)).code).toBe(0);
    server = await startServerProcess(env, { startTimeoutMs: 90_000 });
  }, 180_000);
  afterAll(async () => {
    await server?.stop();
    await cleanup();
  });

  it('every keyed batch answers 201 or 503 with Retry-After while connections are killed; retried with the same key, each is written exactly once', async () => {
    const key = await createKeyWithCli('kill@example.com', env);
    const api = `${server.url}/api/v3`;
    const ids = await seed(api, key);
    const CLIENTS = 4;
    // Each client sends at least this many batches, and goes on until the killer has ended more
    // than KILLS connections (a fast machine finishes 8 batches before enough were ended), at most
    // MAX_BATCHES.
    const BATCHES = 8;
    const MAX_BATCHES = 100;
    const KILLS = 10;
    const PER_BATCH = 20;
    const sent = new Array<number>(CLIENTS).fill(0);
    const statuses = new Map<number, number>();
    let killing = true;
    let killed = 0;
    const killer = (async () => {
      while (killing) {
        const rows = await admin<{ pid: number }>(
          'SELECT pg_terminate_backend(pid) AS done, pid FROM pg_stat_activity WHERE application_name = $1',
          [appName],
        );
        killed += rows.length;
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    const firstAnswers = new Map<string, string[]>();
    const clients = Array.from({ length: CLIENTS }, async (_, c) => {
      for (let b = 0; (b < BATCHES || killed <= KILLS) && b < MAX_BATCHES; b += 1) {
        sent[c] = b + 1;
        const idem = `kill-${c}-${b}`;
        const body = {
          checks: Array.from({ length: PER_BATCH }, (_, i) => ({ ...ids, amount: 100 + i, memo: `${idem}-${i}` })),
        };
        for (;;) {
          const answer = await post(`${api}/checks`, key, body, idem);
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (answer.status === 201) {
            firstAnswers.set(
              idem,
              answer.body.data.checks.map((check: { checkId: string }) => check.checkId),
            );
            break;
          }
          if (answer.status !== 503)
            console.log(`unexpected answer for ${idem}: ${answer.status} ${JSON.stringify(answer.body)}`);
          expectSpecShaped503(answer);
          await new Promise((r) => setTimeout(r, 100));
        }
      }
    });
    try {
      await Promise.all(clients);
    } finally {
      killing = false;
      await killer;
    }
    console.log(`connections killed: ${killed}; answers by status: ${JSON.stringify(Object.fromEntries(statuses))}`);
    // Only 201 and 503: never a 500, and the process never exited.
    expect([...statuses.keys()].sort()).toEqual([201, 503]);
    expect(killed).toBeGreaterThan(KILLS);
    expect(server.child.exitCode).toBeNull();
    // Each batch written once: the counts and the memos say so, read on the test's own connection.
    const rows = await admin<{ n: string; distinct_memos: string }>(
      `SELECT COUNT(*) AS n, COUNT(DISTINCT memo) AS distinct_memos FROM ${env.DATABASE_SCHEMA}.checks`,
    );
    const batches = sent.reduce((sum, n) => sum + n, 0);
    expect(batches).toBeGreaterThanOrEqual(CLIENTS * BATCHES);
    expect(Number(rows[0]?.n)).toBe(batches * PER_BATCH);
    expect(Number(rows[0]?.distinct_memos)).toBe(batches * PER_BATCH);
    // And a key sent again answers its first answer.
    const again = await post(
      `${api}/checks`,
      key,
      { checks: Array.from({ length: PER_BATCH }, (_, i) => ({ ...ids, amount: 100 + i, memo: `kill-0-0-${i}` })) },
      'kill-0-0',
    );
    expect(again.status).toBe(201);
    expect(again.replayed).toBe(true);
    expect(again.body.data.checks.map((check: { checkId: string }) => check.checkId)).toEqual(
      firstAnswers.get('kill-0-0'),
    );
  });
});

describe.skipIf(!postgres)(
  'a database that turns read-only (a standby) and back (postgres)',
  { timeout: 240_000 },
  () => {
    const database = `cw_ro_${randomBytes(4).toString('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'checkwriter-ro-'));
    let env: Record<string, string>;
    const servers: ServerProcess[] = [];

    beforeAll(async () => {
      await admin(`CREATE DATABASE ${database}`);
      const url = new URL(pgUrl());
      url.pathname = `/${database}`;
      env = { DATABASE_URL: url.toString(), SECRET_FILE: join(dir, 'checkwriter.secret'), DATABASE_WAIT_SECONDS: '5' };
      expect((await runCli(['migrate'], env)).code).toBe(0);
    }, 120_000);
    afterAll(async () => {
      for (const server of servers) await server.stop();
      await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      rmSync(dir, { recursive: true, force: true });
    });

    const setReadOnly = async (on: boolean): Promise<void> => {
      await admin(`ALTER DATABASE ${database} SET default_transaction_read_only = ${on ? 'on' : 'off'}`);
    };
    const listeners = async (): Promise<number> =>
      Number(
        (
          await admin<{ n: string }>(
            "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = $1 AND query LIKE 'LISTEN %'",
            [database],
          )
        )[0]?.n,
      );

    it('keeps running and answers 503, a second server starts on it (migrations write nothing), and both recover by themselves', async () => {
      servers.push(await startServerProcess(env, { startTimeoutMs: 90_000 }));
      const first = servers[0] as ServerProcess;
      const key = await createKeyWithCli('standby@example.com', env);
      const ids = await seed(`${first.url}/api/v3`, key);
      const batch = { checks: [{ ...ids, amount: 1234, memo: 'across the switchover' }] };
      expect((await post(`${first.url}/api/v3/checks`, key, batch, 'before')).status).toBe(201);
      expect(await eventually(listeners, (n) => n === 1)).toBe(1);

      // The primary becomes a standby: new sessions are read-only, the old ones are ended.
      await setReadOnly(true);
      await admin('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [database]);
      const refused = await post(`${first.url}/api/v3/checks`, key, batch, 'during');
      expectSpecShaped503(refused);
      expect((await fetch(`${first.url}/healthz`)).status).toBe(200);
      await eventually(
        async () => (await fetch(`${first.url}/readyz`)).status,
        (status) => status === 503,
      );
      // A server started now finds nothing to migrate and starts without writing.
      servers.push(await startServerProcess(env, { startTimeoutMs: 90_000 }));
      const second = servers[1] as ServerProcess;
      expect((await fetch(`${second.url}/readyz`)).status).toBe(503);
      expectSpecShaped503(await post(`${second.url}/api/v3/checks`, key, batch, 'during'));
      expect(first.child.exitCode).toBeNull();

      // A primary again. Nothing restarts the servers or ends their sessions: they recover alone.
      await setReadOnly(false);
      for (const server of [first, second]) {
        await eventually(
          async () => (await fetch(`${server.url}/readyz`)).status,
          (status) => status === 200,
        );
      }
      const retried = await eventually(
        () => post(`${second.url}/api/v3/checks`, key, batch, 'during'),
        (answer) => answer.status !== 503,
      );
      expect(retried.status).toBe(201);
      const replayed = await post(`${first.url}/api/v3/checks`, key, batch, 'during');
      expect(replayed.replayed).toBe(true);
      expect(replayed.body).toEqual(retried.body);
      // Both key-revocation listeners are back.
      expect(await eventually(listeners, (n) => n === 2)).toBe(2);
      // The check table of this database, read through a client of its own.
      const client = new pg.Client({ connectionString: env.DATABASE_URL });
      await client.connect();
      try {
        const counted = await client.query<{ n: string }>(
          "SELECT COUNT(*) AS n FROM checks WHERE memo = 'across the switchover'",
        );
        expect(Number(counted.rows[0]?.n)).toBe(2);
      } finally {
        await client.end();
      }
    });
  },
);
