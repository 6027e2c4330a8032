// SIGTERM under load, on a real server process: /readyz turns 503 first while
// requests are still served (SHUTDOWN_DRAIN_MS), then the listener closes, in-flight requests
// answer, the delivery worker hands back what it has not sent, and the process exits 0. Every
// request the server read got an answer (2xx, 4xx or 503), and every acknowledged check is in the
// database, once. The test's clients talk to the server directly, without the balancer that the
// drain is for, so some connect while it closes: refused, or — accepted by the kernel but not yet
// read when the listener closes — reset. Such a request was never read: the test checks that none
// of them wrote anything (a client sends it again, with its Idempotency-Key, to another server).
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { createKeyWithCli, http, runCli, startServerProcess } from '../support/processes.ts';

interface Outcome {
  status: number | null;
  error: string | null;
  memo?: string;
}

/** One request on a connection of its own (no keep-alive), so a closed listener shows as ECONNREFUSED. */
function send(url: string, method: string, key: string | null, body: unknown, idem: string | null): Promise<Outcome> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = request(
      url,
      {
        method,
        agent: false,
        headers: {
          ...(key === null ? {} : { authorization: `Bearer ${key}` }),
          ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
          ...(idem === null ? {} : { 'idempotency-key': idem }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, error: null }));
        res.on('error', (error: NodeJS.ErrnoException) =>
          resolve({ status: null, error: error.code ?? error.message }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ status: null, error: error.code ?? error.message }));
    req.end(payload);
  });
}

describe.each(dialects())('SIGTERM under load (%s)', { timeout: 240_000 }, (dialect) => {
  let smtp: SmtpPeer;
  let env: Record<string, string>;
  let db: Db;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ delayMs: 20 });
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    env = {
      ...fresh.env,
      SMTP_URL: smtp.url,
      DELIVERY_POLL_MS: '50',
      SHUTDOWN_DRAIN_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: '20000',
    };
    expect((await runCli(['migrate'], env)).code).toBe(0);
    db = connect(fresh.config);
  }, 120_000);
  afterAll(async () => {
    await db.close();
    await cleanup();
    await smtp.close();
  });

  it('readiness turns 503 first, in-flight requests answer, unsent emails are handed back, nothing acknowledged is lost', async () => {
    const server = await startServerProcess(env, { startTimeoutMs: 90_000 });
    const api = `${server.url}/api/v3`;
    const key = await createKeyWithCli('shutdown@example.com', { ...env });
    const liveKey = (await runCli(['keys', 'create', '--email', 'shutdown@example.com', '--env', 'live'], env)).stdout
      .trim()
      .split('\n')
      .at(-1) as string;
    const seed = async (k: string) => {
      const bank = await http(`${api}/bankAccounts`, {
        method: 'POST',
        key: k,
        body: {
          bankAccounts: [
            { name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 1 },
          ],
        },
      });
      const payee = await http(`${api}/payees`, {
        method: 'POST',
        key: k,
        body: { payees: [{ name: 'Acme Supplies', email: 'ap@acme.test' }] },
      });
      return {
        bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
        payeeId: payee.body.data.payees[0].payeeId,
      };
    };
    const ids = await seed(key);
    // 400 live emails queued: the worker is mid-batch when the signal comes (20 ms a message).
    const liveIds = await seed(liveKey);
    const created = await http(`${api}/checks`, {
      method: 'POST',
      key: liveKey,
      body: { checks: Array.from({ length: 400 }, () => ({ ...liveIds, amount: 10 })) },
    });
    expect(created.status).toBe(201);
    const emailed = await http(`${api}/emailchecks`, {
      method: 'POST',
      key: liveKey,
      body: { emailChecks: created.body.data.checks.map((c: { checkId: string }) => ({ checkId: c.checkId })) },
    });
    expect(emailed.status).toBe(200);

    const outcomes: Outcome[] = [];
    const acknowledged: string[] = [];
    let stop = false;
    const clients = Array.from({ length: 4 }, async (_, c) => {
      for (let n = 0; !stop; n += 1) {
        const memo = `sd-${c}-${n}`;
        const outcome = await send(
          `${api}/checks`,
          'POST',
          key,
          { checks: Array.from({ length: 5 }, (_, i) => ({ ...ids, amount: 100 + i, memo })) },
          memo,
        );
        outcomes.push({ ...outcome, memo });
        if (outcome.status === 201) acknowledged.push(memo);
        // The listener is closed: this client is done (a balancer would send it elsewhere).
        if (outcome.error === 'ECONNREFUSED') return;
      }
    });
    await new Promise((r) => setTimeout(r, 1500));
    const beforeSignal = acknowledged.length;
    const exited = server.stop('SIGTERM');
    // During the drain: not ready, yet still serving.
    await new Promise((r) => setTimeout(r, 300));
    const ready = await send(`${server.url}/readyz`, 'GET', null, undefined, null);
    const duringDrain = acknowledged.length;
    await new Promise((r) => setTimeout(r, 600));
    const servedWhileDraining = acknowledged.length - duringDrain;
    expect(await exited).toBe(0);
    stop = true;
    await Promise.all(clients);

    const statuses = outcomes.filter((o) => o.status !== null).map((o) => o.status as number);
    const errors = outcomes.filter((o) => o.error !== null).map((o) => o.error);
    console.log(
      `shutdown (${dialect}): ${outcomes.length} requests, ${acknowledged.length} acknowledged (${beforeSignal} before the signal, ${servedWhileDraining} in 0.6 s of the drain), errors: ${JSON.stringify(errors)}; emails sent ${smtp.received.length} of 400`,
    );
    expect(ready.status).toBe(503);
    expect(servedWhileDraining).toBeGreaterThan(0);
    for (const status of statuses) expect(status === 503 || (status >= 200 && status < 500)).toBe(true);
    // Connections after the close are refused or reset before being read; nothing else.
    expect(errors.filter((e) => e !== 'ECONNREFUSED' && e !== 'ECONNRESET')).toEqual([]);
    // Every acknowledged batch is there, once; nothing else is.
    const rows = await db.all<{ memo: string; n: number }>(
      "SELECT memo, COUNT(*) AS n FROM checks WHERE memo LIKE 'sd-%' GROUP BY memo",
    );
    expect(rows.map((r) => r.memo).sort()).toEqual([...acknowledged].sort());
    for (const row of rows) expect(Number(row.n)).toBe(5);
    const reset = outcomes.filter((o) => o.error === 'ECONNRESET').map((o) => o.memo);
    for (const memo of reset) expect(rows.map((r) => r.memo)).not.toContain(memo);
    // The worker sent what it started and handed the rest back: nothing is left leased.
    const byStatus = await db.all<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM deliveries WHERE channel = 'email' GROUP BY status ORDER BY status",
    );
    const counts = Object.fromEntries(byStatus.map((r) => [r.status, Number(r.n)]));
    expect(counts.sending ?? 0).toBe(0);
    expect((counts.sent ?? 0) + (counts.queued ?? 0)).toBe(400);
    expect(new Set(smtp.received.map((m) => m.messageId)).size).toBe(counts.sent ?? 0);
  });
});
