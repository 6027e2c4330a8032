// A server killed with SIGKILL at random points while clients send keyed batches (no referenceId):
// after a restart, every retry of a batch either replays the response of the batch that committed
// (the same check ids) or runs it for the first time. No batch is lost, none is written twice.
// (It holds because the idempotency record commits in the same transaction as the checks.)
//
// A kill at a random instant rarely lands in the gap that matters (a batch committed, its response
// not yet recorded), so each kill is preceded by a freeze of the database from outside: on SQLite
// the test takes the write lock, on PostgreSQL it row-locks every idempotency record. Requests then
// stop wherever their next write would be, and the kill finds them there. On PostgreSQL a statement
// already sent would still run once the lock goes, so the statements the freeze holds up are ended
// with the server (pg_terminate_backend), as they would be had the server died before sending them.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Database } from '../../src/store/sqlite-driver.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { createKeyWithCli, http, startServerProcess, type ServerProcess } from '../support/processes.ts';

const CYCLES = 6;
const MAX_BATCHES_PER_CYCLE = 300;
const CHECKS_PER_BATCH = 20;
const IN_FLIGHT = 6;

interface Batch {
  key: string;
  memo: string;
  /** Check ids of the answer the client last got (null: no answer yet). */
  answered: string[] | null;
}

type Sent = { ok: true; status: number; ids: string[] } | { ok: false };

async function send(url: string, apiKey: string, batch: Batch, bank: string, payee: string): Promise<Sent> {
  const body = {
    checks: Array.from({ length: CHECKS_PER_BATCH }, (_, i) => ({
      bankAccountId: bank,
      payeeId: payee,
      amount: `${i + 1}.00`,
      memo: batch.memo,
    })),
  };
  try {
    const response = await fetch(`${url}/api/v3/checks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', 'idempotency-key': batch.key },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as { data?: { checks?: { checkId: string }[] } };
    return { ok: true, status: response.status, ids: (json.data?.checks ?? []).map((c) => c.checkId) };
  } catch {
    return { ok: false }; // the connection died with the server
  }
}

/** Stops the server's writes from outside until the returned function is called. */
async function freeze(env: Record<string, string>): Promise<() => Promise<void>> {
  const url = env.DATABASE_URL ?? '';
  if (url.startsWith('sqlite:')) {
    const db = new Database(url.slice('sqlite:'.length), { timeout: 10_000 });
    db.exec('BEGIN IMMEDIATE');
    return async () => {
      db.exec('ROLLBACK');
      db.close();
    };
  }
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${env.DATABASE_SCHEMA ?? 'public'}` });
  await client.connect();
  await client.query('BEGIN');
  await client.query('SELECT idem_key FROM idempotency_keys FOR UPDATE');
  return async () => {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pg_blocking_pids(pid) @> ARRAY[pg_backend_pid()]',
    );
    await client.query('ROLLBACK');
    await client.end();
  };
}

describe.each(dialects())('keyed batches survive SIGKILL (%s)', (dialect) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let server: ServerProcess | null = null;
  let apiKey = '';

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    env = fresh.env;
    cleanup = fresh.cleanup;
    server = await startServerProcess(env);
    apiKey = await createKeyWithCli('crash-idem@example.com', env);
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup();
  });

  it(`${CYCLES} kill-and-restart cycles: every batch exists exactly once and retries replay its ids`, async () => {
    if (server === null) throw new Error('no server');
    const bank = await http(`${server.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key: apiKey,
      body: { bankAccounts: [{ name: 'Crash', routingNumber: '011000015', accountNumber: '1234' }] },
    });
    const payee = await http(`${server.url}/api/v3/payees`, {
      method: 'POST',
      key: apiKey,
      body: { payees: [{ name: 'Crash payee' }] },
    });
    const bankId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const payeeId: string = payee.body.data.payees[0].payeeId;
    const batches: Batch[] = [];
    let killedMidway = 0;

    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      const running = server;
      // Clients keep IN_FLIGHT batches going until the server dies (a fast machine could otherwise
      // finish a fixed list before the freeze, and no kill would land mid-batch).
      const mine: Batch[] = [];
      const clients = Array.from({ length: IN_FLIGHT }, async () => {
        while (mine.length < MAX_BATCHES_PER_CYCLE) {
          const batch: Batch = {
            key: `cycle${cycle}-batch${mine.length}`,
            memo: `c${cycle}b${mine.length}`,
            answered: null,
          };
          mine.push(batch);
          const sent = await send(running.url, apiKey, batch, bankId, payeeId);
          if (sent.ok && sent.status === 201) batch.answered = sent.ids;
          if (!sent.ok) return;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.floor(Math.random() * 300)));
      const thaw = await freeze(env);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await running.stop('SIGKILL');
      await thaw();
      await Promise.all(clients);
      batches.push(...mine);
      killedMidway += mine.filter((b) => b.answered === null).length;
      server = await startServerProcess(env);
    }
    const restarted = server;
    if (restarted === null) throw new Error('no server');

    // Every batch is retried with its key (answered ones too: those must replay).
    for (const batch of batches) {
      const deadline = Date.now() + 75_000;
      for (;;) {
        const sent = await send(restarted.url, apiKey, batch, bankId, payeeId);
        if (sent.ok && sent.status === 201) {
          if (batch.answered !== null) expect(sent.ids).toEqual(batch.answered);
          batch.answered = sent.ids;
          break;
        }
        if (Date.now() > deadline) throw new Error(`batch ${batch.key} still refused: ${JSON.stringify(sent)}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }

    const list = await http(`${restarted.url}/api/v3/checks?perPage=500&page=1`, { key: apiKey });
    const total: number = list.body.data.meta.total;
    expect(total).toBe(batches.length * CHECKS_PER_BATCH);
    // Page through everything and group by memo: each batch is there once, with the ids it answered.
    const byMemo = new Map<string, string[]>();
    for (let page = 1; (page - 1) * 500 < total; page += 1) {
      const chunk = await http(`${restarted.url}/api/v3/checks?perPage=500&page=${page}`, { key: apiKey });
      for (const check of chunk.body.data.checks as { checkId: string; memo: string }[])
        byMemo.set(check.memo, [...(byMemo.get(check.memo) ?? []), check.checkId]);
    }
    for (const batch of batches)
      expect([...(byMemo.get(batch.memo) ?? [])].sort()).toEqual([...(batch.answered ?? [])].sort());
    // The kills did land mid-run: some batches had no answer before their retry.
    expect(killedMidway).toBeGreaterThan(0);
  }, 240_000);
});
