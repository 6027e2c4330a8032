// A lost, blackholed or read-only database fails the statement in hand with the service's 503
// (store/transient.ts), never the process. PostgreSQL is reached through a TCP
// proxy the test cuts or blackholes; SQLite is made busy by a second connection holding the write
// lock, and read-only by the file's permissions.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPoolConfig } from '../../src/config.ts';
import { AppError } from '../../src/errors.ts';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { Database } from '../../src/store/sqlite-driver.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { startTcpProxy, throughProxy, type TcpProxy } from '../support/tcp-proxy.ts';

/** The error `promise` rejects with (fails the test if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

function expectUnavailable(error: unknown): void {
  expect(error).toBeInstanceOf(AppError);
  const appError = error as AppError;
  expect(appError.code).toBe('unavailable');
  expect(appError.status).toBe(503);
  expect(Number(appError.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dialects().filter((d) => d === 'postgres'))('PostgreSQL through a proxy that fails (%s)', () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let db: Db;

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const target = new URL(database.config.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
    db = connect({
      ...database.config,
      url: throughProxy(database.config.url, proxy),
      pool: loadPoolConfig({
        DATABASE_CONNECT_TIMEOUT_MS: '500',
        DATABASE_STATEMENT_TIMEOUT_MS: '1000',
        DATABASE_POOL_SIZE: '4',
      }),
    });
  });
  afterAll(async () => {
    await db.close().catch(() => undefined);
    await proxy.close();
    await database.drop();
  });

  it('a connection cut inside a transaction: that transaction fails with 503 and is rolled back, the process lives, the pool reconnects', async () => {
    const error = await rejection(
      db.transaction(async (tx) => {
        await tx.run("INSERT INTO settings (name, value) VALUES ('cut-test', 'written before the cut')");
        // The client sits idle inside the transaction when its connection dies: pg emits 'error'
        // on it, which without a listener would end this process.
        proxy.cut();
        await pause(100);
        await tx.run("INSERT INTO settings (name, value) VALUES ('cut-test-2', 'after the cut')");
      }),
    );
    expectUnavailable(error);
    // Rolled back: neither row exists (read on the test's own direct connection).
    expect(await database.db.all("SELECT name FROM settings WHERE name LIKE 'cut-test%'")).toEqual([]);
    // The pool opens a new connection for the next statement.
    expect(await db.get<{ ok: number }>('SELECT 1 AS ok')).toEqual({ ok: 1 });
    await db.transaction(async (tx) => tx.run("INSERT INTO settings (name, value) VALUES ('cut-test', 'after')"));
    expect(await database.db.all("SELECT value FROM settings WHERE name = 'cut-test'")).toEqual([{ value: 'after' }]);
  });

  it('a connection cut while a statement runs: 503, and the next one succeeds', async () => {
    const running = db.get('SELECT pg_sleep(0.5) AS slept');
    await pause(100);
    proxy.cut();
    expectUnavailable(await rejection(running));
    expect(await db.get<{ ok: number }>('SELECT 1 AS ok')).toEqual({ ok: 1 });
  });

  it('blackholed: a new connection gives up after DATABASE_CONNECT_TIMEOUT_MS, a statement in flight after its bound; both 503', async () => {
    // A statement on an existing connection whose packets vanish: no answer, no close. The
    // server-side statement_timeout cannot reach us; the client-side bound (statement timeout +
    // 5 s) ends it.
    await db.get('SELECT 1');
    proxy.blackhole(true);
    try {
      const started = Date.now();
      const inFlight = rejection(db.get('SELECT 1 AS ok'));
      // Fresh connections (the pool has 4; the others are opened now) time out on connect.
      const fresh = await Promise.all([1, 2, 3].map(() => rejection(db.transaction(async (tx) => tx.get('SELECT 1')))));
      for (const error of fresh) expectUnavailable(error);
      expectUnavailable(await inFlight);
      const tookMs = Date.now() - started;
      expect(tookMs).toBeLessThan(10_000);
    } finally {
      proxy.blackhole(false);
      proxy.cut();
    }
    expect(await db.get<{ ok: number }>('SELECT 1 AS ok')).toEqual({ ok: 1 });
  }, 20_000);

  it('a database that is not listening: 503 at once (ECONNREFUSED), not a crash', async () => {
    const nowhere = connect({
      ...database.config,
      url: throughProxy(database.config.url, { port: 1 } as TcpProxy),
      pool: loadPoolConfig({ DATABASE_CONNECT_TIMEOUT_MS: '500' }),
    });
    try {
      expectUnavailable(await rejection(nowhere.get('SELECT 1')));
      expectUnavailable(await rejection(nowhere.transaction(async (tx) => tx.get('SELECT 1'))));
      expect(await nowhere.writable()).toBe(false);
    } finally {
      await nowhere.close();
    }
  });
});

describe('SQLite: busy and read-only files answer 503', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await freshDatabase('sqlite');
  });
  afterAll(() => database.drop());

  it('another process holding the write lock past the busy timeout: 503 with Retry-After, then writes again', async () => {
    const other = new Database(database.config.url, { timeout: 100 });
    other.exec('BEGIN IMMEDIATE');
    try {
      const error = await rejection(
        database.db.transaction(async (tx) => tx.run("INSERT INTO settings (name, value) VALUES ('busy', 'x')")),
      );
      expectUnavailable(error);
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    await database.db.run("INSERT INTO settings (name, value) VALUES ('busy', 'x')");
    expect(await database.db.get("SELECT value FROM settings WHERE name = 'busy'")).toEqual({ value: 'x' });
  }, 15_000);

  it('a read-only file: opens, migrate writes nothing, reads work, writes answer 503, not writable', async () => {
    const file = database.config.url;
    await database.db.close();
    // chmod does not stop root; the immutable flag does (the tests run as root in some sandboxes).
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chattr', ['+i', file]);
    else chmodSync(file, 0o444);
    const readOnly = connect(database.config);
    try {
      expect(await readOnly.writable()).toBe(false);
      expect(await migrate(readOnly)).toEqual([]);
      expect(await readOnly.get("SELECT value FROM settings WHERE name = 'busy'")).toEqual({ value: 'x' });
      expectUnavailable(await rejection(readOnly.run("INSERT INTO settings (name, value) VALUES ('ro', 'x')")));
      expectUnavailable(
        await rejection(
          readOnly.transaction(async (tx) => tx.run("UPDATE settings SET value = 'y' WHERE name = 'busy'")),
        ),
      );
    } finally {
      await readOnly.close();
      if (asRoot) execFileSync('chattr', ['-i', file]);
      else chmodSync(file, 0o644);
    }
    const writable = connect(database.config);
    expect(await writable.writable()).toBe(true);
    await writable.close();
  });
});
