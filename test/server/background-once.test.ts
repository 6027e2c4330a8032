// Background work runs once across servers when one dies mid-item: two real
// server processes on one PostgreSQL database, one SIGKILLed while both send a queue of live
// emails to a real SMTP peer, then one SIGKILLed while it writes a CSV import. Every email arrives
// (counted by Message-ID, the key a receiver deduplicates on), every row is marked sent once, and
// the import is applied once, whole, by the server that lived.
//
// What "once" means for email: SMTP has no way to ask "did you get it?", so a message the peer
// accepted in the instant before its worker died, but whose `sent` was never recorded, goes again
// with the same Message-ID when its lease ends. The test counts such repeats and bounds them by
// what one worker can have in flight; no message is ever sent under two Message-IDs, and none twice
// while its sender lives.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { http, runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const EMAILS = 600;
const ROWS = 3_000;
/** Messages one worker sends at once (CONCURRENCY in delivery-worker.service.ts). */
const IN_FLIGHT = 20;

async function waitFor(what: string, done: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const start = Date.now();
  while (!(await done())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const keyOf = async (env: Record<string, string>, live: boolean): Promise<string> =>
  (await runCli(['keys', 'create', '--email', 'once@example.com', ...(live ? ['--env', 'live'] : [])], env)).stdout
    .trim()
    .split('\n')
    .at(-1) as string;

// Several servers share one database only on PostgreSQL; on SQLite alone the file reports a skip.
describe.skipIf(!dialects().includes('postgres'))(
  'two servers, one killed mid-item (postgres)',
  { timeout: 400_000 },
  () => {
    const dialect = 'postgres';
    let smtp: SmtpPeer;
    let env: Record<string, string>;
    let db: Db;
    let cleanup: () => Promise<void>;
    const servers: ServerProcess[] = [];
    const start = async (): Promise<ServerProcess> => {
      const server = await startServerProcess(env, { startTimeoutMs: 90_000 });
      servers.push(server);
      return server;
    };

    beforeAll(async () => {
      smtp = await startSmtpPeer({ delayMs: 5 });
      const fresh = await freshDatabaseConfig(dialect);
      cleanup = fresh.cleanup;
      env = { ...fresh.env, SMTP_URL: smtp.url, DELIVERY_POLL_MS: '50', DELIVERY_LEASE_MS: '3000' };
      expect((await runCli(['migrate'], env)).code).toBe(0);
      db = connect(fresh.config);
    }, 120_000);
    afterAll(async () => {
      for (const server of servers) await server.stop('SIGKILL');
      await db.close();
      await cleanup();
      await smtp.close();
    });

    it('emails: every message arrives, each row is sent once, repeats only of what the dead server had in flight', async () => {
      const [a, b] = await Promise.all([start(), start()]);
      if (a === undefined || b === undefined) throw new Error('servers did not start');
      const key = await keyOf(env, true);
      const api = `${a.url}/api/v3`;
      const bank = await http(`${api}/bankAccounts`, {
        method: 'POST',
        key,
        body: {
          bankAccounts: [
            { name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 1 },
          ],
        },
      });
      const payee = await http(`${api}/payees`, {
        method: 'POST',
        key,
        body: { payees: [{ name: 'Acme Supplies', email: 'ap@acme.test' }] },
      });
      const ids = {
        bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
        payeeId: payee.body.data.payees[0].payeeId,
      };
      for (let batch = 0; batch < EMAILS / 300; batch += 1) {
        const created = await http(`${api}/checks`, {
          method: 'POST',
          key,
          body: { checks: Array.from({ length: 300 }, () => ({ ...ids, amount: 10 })) },
        });
        expect(created.status).toBe(201);
        const emailed = await http(`${api}/emailchecks`, {
          method: 'POST',
          key,
          body: { emailChecks: created.body.data.checks.map((c: { checkId: string }) => ({ checkId: c.checkId })) },
        });
        expect(emailed.status).toBe(200);
      }
      await waitFor('the first 150 messages', () => smtp.received.length >= 150);
      await a.stop('SIGKILL');
      const atKill = smtp.received.length;
      const unique = () => new Set(smtp.received.map((m) => m.messageId)).size;
      await waitFor('every message', () => unique() === EMAILS);
      // A repeat shows up late (after its lease): give one the time to arrive before counting.
      await new Promise((r) => setTimeout(r, 3_500));
      const rows = await db.all<{ status: string; n: number }>(
        "SELECT status, COUNT(*) AS n FROM deliveries WHERE channel = 'email' GROUP BY status",
      );
      const repeats = smtp.received.length - EMAILS;
      console.log(
        `emails: ${EMAILS} queued, ${atKill} received when server A was killed, ${repeats} repeated (same Message-ID)`,
      );
      expect(unique()).toBe(EMAILS);
      expect(rows.map((r) => [r.status, Number(r.n)])).toEqual([['sent', EMAILS]]);
      expect(repeats).toBeLessThanOrEqual(IN_FLIGHT);
      await b.stop();
    });

    it('an import: the server writing it is killed, the other applies it once, whole', async () => {
      const [a, b] = await Promise.all([start(), start()]);
      if (a === undefined || b === undefined) throw new Error('servers did not start');
      const key = await keyOf(env, false);
      const api = `${a.url}/api/v3`;
      const bank = await http(`${api}/bankAccounts`, {
        method: 'POST',
        key,
        body: {
          bankAccounts: [{ name: 'Imports', routingNumber: '021000021', accountNumber: '87654321', startingSerial: 1 }],
        },
      });
      const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
      const csv = [
        'Payee,Amount,Invoice Number',
        ...Array.from({ length: ROWS }, (_, i) => `Payee ${i % 50},${i + 1}.00,IMP-${i}`),
      ].join('\n');
      const before = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'))?.n);
      // Which server runs it is up to the runners; the one that marks it running is killed.
      const accepted = await http(`${api}/imports`, {
        method: 'POST',
        key,
        body: { type: 'checks', csv, bankAccountId, createPayees: true },
      });
      expect(accepted.status).toBe(202);
      const importId: string = accepted.body.data.importId;
      const stateOf = async () =>
        (await db.get<{ state: string }>('SELECT state FROM imports WHERE id = ?', [importId]))?.state ?? '';
      await waitFor('the import to run', async () => (await stateOf()) !== 'queued', 60_000);
      // A received it and woke its runner at once (B looks every 5 s): A is the one writing it.
      await a.stop('SIGKILL');
      const stateAfterKill = await stateOf();
      const checksAfterKill = Number((await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'))?.n);
      console.log(
        `import: state when server A was killed: ${stateAfterKill}, checks written: ${checksAfterKill - before}`,
      );
      // Killed inside the write: nothing of it committed, still to be done.
      expect(stateAfterKill).toBe('running');
      expect(checksAfterKill).toBe(before);
      await waitFor('the import to finish', async () => ['succeeded', 'failed'].includes(await stateOf()), 180_000);
      expect(await stateOf()).toBe('succeeded');
      const count = async (sql: string) => Number((await db.get<{ n: number }>(sql))?.n ?? -1);
      expect(await count('SELECT COUNT(*) AS n FROM checks')).toBe(before + ROWS);
      expect(
        await count("SELECT COUNT(DISTINCT invoice_number) AS n FROM checks WHERE invoice_number LIKE 'IMP-%'"),
      ).toBe(ROWS);
      expect(await count("SELECT SUM(amount_cents) AS n FROM checks WHERE invoice_number LIKE 'IMP-%'")).toBe(
        ((ROWS * (ROWS + 1)) / 2) * 100,
      );
      await b.stop();
    });
  },
);
