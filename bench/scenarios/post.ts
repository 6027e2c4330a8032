// POST /api/v3/checks with batches of 100 and of 500 checks: the bulk-issue path (validation of
// every item, one transaction with the reference checks, serial reservation, multi-row inserts).
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { measure, type LoadResult } from '../load.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';

export const BATCH = 100;
/** The largest batch a client of the hosted service sends: the same target in checks/s. */
export const LARGE_BATCH = 500;
/**
 * Batches are written one transaction at a time on SQLite (one writer) and at most pool-size (10)
 * at a time on PostgreSQL, so connections beyond that only queue: they add latency, not checks/s.
 */
export const POST_CONNECTIONS = 10;

export interface PostBatchDetails {
  batch: number;
  load: LoadResult;
  checksPerSec: number;
  /** Checks found in the database afterwards: proves the 201s were real writes. */
  checksStored: number;
}

const MEMOS = ['Consulting services', 'Office rent', 'Monthly retainer', 'Equipment lease', 'Office supplies'];

export interface PostDetails {
  batches: PostBatchDetails[];
}

export async function runPost(ctx: ScenarioContext): Promise<ScenarioOutcome<PostDetails>> {
  const batches: PostBatchDetails[] = [];
  const verdicts: Verdict[] = [];
  for (const size of [BATCH, LARGE_BATCH]) {
    const outcome = await runBatches(ctx, size);
    batches.push(outcome.details);
    verdicts.push(...outcome.verdicts);
  }
  return { details: { batches }, verdicts };
}

/** Batches of `size` on an account of their own, so the count afterwards is theirs. */
async function runBatches(ctx: ScenarioContext, size: number): Promise<ScenarioOutcome<PostBatchDetails>> {
  const account = await createAccount(ctx.database, `post-${size}@bench.test`);
  const client = new HttpClient(ctx.serverUrl, account.key);
  const basics = await createBasics(client, ['Acme Supplies', 'Blue Harbor Freight', 'Northwind Traders']).finally(() =>
    client.close(),
  );
  // Serial numbers are left to the service (automatic, reserved per batch), so the same body can
  // be sent again and again without colliding.
  const checks = Array.from({ length: size }, (_, i) => ({
    bankAccountId: basics.bankAccountId,
    payeeId: basics.payees[i % basics.payees.length]?.id,
    amount: (((i * 7919) % 500_000) / 100 + 1).toFixed(2),
    memo: MEMOS[i % MEMOS.length],
    invoiceNumber: `INV-${String(i).padStart(5, '0')}`,
  }));
  const load = await measure(
    {
      url: `${ctx.serverUrl}/api/v3/checks`,
      method: 'POST',
      connections: POST_CONNECTIONS,
      duration: ctx.options.duration,
      headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checks }),
    },
    ctx.serverPid,
  );
  const stored = await ctx.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks WHERE account_id = ?', [
    account.owner.accountId,
  ]);
  const checksStored = Number(stored?.n ?? 0);
  if (checksStored < load.requests * size)
    throw new Error(`POST /checks: ${load.requests} batches answered 201 but only ${checksStored} checks are stored`);
  const checksPerSec = load.reqPerSec * size;
  const target = TARGETS.postChecksPerSec[ctx.dialect];
  return {
    details: { batch: size, load, checksPerSec, checksStored },
    verdicts: [
      {
        scenario: `POST /checks (batches of ${size})`,
        measured: `${fmt(checksPerSec)} checks/s, p99 ${fmt(load.p99Ms)} ms/batch${load.serverCpuUsPerRequest === null ? '' : `, ${fmt(load.serverCpuUsPerRequest / size)} µs CPU/check`}`,
        target: target === null ? 'reported' : `≥ ${fmt(target)} checks/s`,
        pass: target === null ? null : checksPerSec >= target,
      },
    ],
  };
}
