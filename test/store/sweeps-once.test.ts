// The sweeps (expired idempotency keys, panel sessions, unconfirmed import drafts) are each one
// DELETE statement, so with several servers each row is deleted once however they overlap or die
// (docs/operations.md, "Background work on several servers"). Shown here for the
// idempotency sweep on PostgreSQL: two "servers" (connections of their own) sweeping at once delete
// each row once between them, and a server ended by the database in the middle of its sweep leaves
// every row for the next sweep rather than half of them.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { purgeOlderThan } from '../../src/store/idempotency.repository.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { eventually } from '../support/until.ts';

const EXPIRED = 2_000;
const FRESH = 100;
const CUTOFF = 1_000_000;

// Several servers share one database only on PostgreSQL; on SQLite alone the file reports a skip.
describe.skipIf(!dialects().includes('postgres'))('the idempotency sweep on two servers (postgres)', () => {
  let database: TestDatabase;
  const appName = `cw_sweep_${randomBytes(4).toString('hex')}`;
  let serverA: Db;
  let serverB: Db;

  const fill = async (): Promise<void> => {
    await database.db.run('DELETE FROM idempotency_keys');
    await database.db.run(
      `INSERT INTO idempotency_keys (account_id, env, idem_key, request_hash, state, created_at)
       SELECT 'acc', 'test', 'k' || g, 'h', 'done', CASE WHEN g <= ${EXPIRED} THEN g ELSE ${CUTOFF} + g END
       FROM generate_series(1, ${EXPIRED + FRESH}) AS g`,
    );
  };
  const count = async (): Promise<number> =>
    Number((await database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM idempotency_keys'))?.n);

  beforeAll(async () => {
    database = await freshDatabase('postgres');
    const url = new URL(database.config.url);
    url.searchParams.set('application_name', appName);
    serverA = connect({ ...database.config, url: url.toString() });
    serverB = connect(database.config);
  });
  afterAll(async () => {
    await serverA.close();
    await serverB.close();
    await database.drop();
  });

  it('two sweeps at once delete each expired row once between them, and no fresh one', async () => {
    await fill();
    const [a, b] = await Promise.all([purgeOlderThan(serverA, CUTOFF), purgeOlderThan(serverB, CUTOFF)]);
    expect(a + b).toBe(EXPIRED);
    expect(await count()).toBe(FRESH);
  });

  it('a sweep ended mid-statement deletes nothing; the next one deletes every expired row once', async () => {
    await fill();
    // A third connection holds one expired row, so server A's DELETE stops part-way and waits.
    const holder = new pg.Client({
      connectionString: database.config.url,
      options: `-c search_path=${database.config.schema}`,
    });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query(`SELECT 1 FROM idempotency_keys WHERE idem_key = 'k${EXPIRED}' FOR UPDATE`);
      const sweepA = purgeOlderThan(serverA, CUTOFF).then(
        () => 'finished',
        (error: unknown) => (error instanceof Error ? error.name : 'error'),
      );
      const pid = await eventually(
        async () =>
          (
            await database.db.get<{ pid: number }>(
              "SELECT pid FROM pg_stat_activity WHERE application_name = ? AND wait_event_type = 'Lock'",
              [appName],
            )
          )?.pid,
        (found) => found !== undefined,
      );
      await database.db.get('SELECT pg_terminate_backend(?)', [pid ?? 0]);
      // The statement failed as a passing state (the sweep is logged and tried again later).
      expect(await sweepA).toBe('AppError');
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(await count()).toBe(EXPIRED + FRESH);
    expect(await purgeOlderThan(serverB, CUTOFF)).toBe(EXPIRED);
    expect(await count()).toBe(FRESH);
    // Server A's pool reconnects for its next sweep, which finds nothing left.
    expect(await purgeOlderThan(serverA, CUTOFF)).toBe(0);
  });
});
