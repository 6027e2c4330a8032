// The price of idempotency keys on POST /checks (batches of 100): the same load with a fresh
// Idempotency-Key on every request against the same load without one, in the same run.
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { measure } from '../load.ts';
import { fmt, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';
import { BATCH, POST_CONNECTIONS } from './post.ts';

export const IDEMPOTENCY_MAX_OVERHEAD = 0.1;

export interface IdempotencyDetails {
  withoutKeyPerSec: number;
  withKeyPerSec: number;
  overhead: number;
}

export async function runIdempotency(ctx: ScenarioContext): Promise<ScenarioOutcome<IdempotencyDetails>> {
  const account = await createAccount(ctx.database, 'idem@bench.test');
  const client = new HttpClient(ctx.serverUrl, account.key);
  const basics = await createBasics(client, ['Acme Supplies']).finally(() => client.close());
  const body = JSON.stringify({
    checks: Array.from({ length: BATCH }, () => ({
      bankAccountId: basics.bankAccountId,
      payeeId: basics.payees[0]?.id,
      amount: '12.34',
    })),
  });
  const base = {
    url: `${ctx.serverUrl}/api/v3/checks`,
    method: 'POST' as const,
    connections: POST_CONNECTIONS,
    duration: ctx.options.duration,
    body,
  };
  const headers = { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' };
  // Alternate the two so a drift of the machine's load during the run falls on both alike.
  const plain1 = await measure({ ...base, headers }, ctx.serverPid);
  const keyed1 = await measure(
    { ...base, headers: { ...headers, 'idempotency-key': '[<id>]' }, idReplacement: true },
    ctx.serverPid,
  );
  const plain2 = await measure({ ...base, headers }, ctx.serverPid);
  const keyed2 = await measure(
    { ...base, headers: { ...headers, 'idempotency-key': '[<id>]' }, idReplacement: true },
    ctx.serverPid,
  );
  const withoutKeyPerSec = ((plain1.reqPerSec + plain2.reqPerSec) / 2) * BATCH;
  const withKeyPerSec = ((keyed1.reqPerSec + keyed2.reqPerSec) / 2) * BATCH;
  const stored = await ctx.database.db.get<{ n: number }>(
    'SELECT COUNT(*) AS n FROM idempotency_keys WHERE account_id = ?',
    [account.owner.accountId],
  );
  if (Number(stored?.n ?? 0) < keyed1.requests + keyed2.requests)
    throw new Error('idempotency: fewer keys recorded than keyed requests answered');
  const overhead = 1 - withKeyPerSec / withoutKeyPerSec;
  return {
    details: { withoutKeyPerSec, withKeyPerSec, overhead },
    verdicts: [
      {
        scenario: 'POST /checks with Idempotency-Key: overhead',
        measured: `${fmt(overhead * 100, 1)}% (${fmt(withKeyPerSec)} vs ${fmt(withoutKeyPerSec)} checks/s)`,
        target: `< ${fmt(IDEMPOTENCY_MAX_OVERHEAD * 100)}%`,
        pass: overhead < IDEMPOTENCY_MAX_OVERHEAD,
      },
    ],
  };
}
