// A server killed (SIGKILL) in the middle of a 10,000-row CSV import: nothing of the import exists
// afterwards, the import is still to be done, and the next server to start does it, whole — every
// row exactly once. (The promise held: nothing acknowledged is lost, and an import is all or nothing.)
//
// When to kill: the runner commits `state = 'running'` before it opens the import's write
// transaction, so the test watches the row from its own connection and kills the server the moment
// it reads `running` — inside the write, which takes hundreds of milliseconds. A fixed delay does not
// hold: on a quiet machine a 10,000-check write can finish inside 400 ms (CI, Node 24). Should the
// kill still come after the commit, that attempt proves nothing, so it is made again on a fresh
// database (at most three times) instead of passing or failing on timing.
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/store/connect.ts';
import type { Db } from '../../src/store/db.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const ROWS = 10_000;
const ATTEMPTS = 3;

interface Attempt {
  env: Record<string, string>;
  db: Db;
  cleanup: () => Promise<void>;
  key: string;
  importId: string;
  stateAfterKill: string;
}

describe.each(dialects())('a server killed during an import (%s)', { timeout: 300_000 }, (dialect) => {
  let server: ServerProcess | undefined;
  const opened: Attempt[] = [];

  afterAll(async () => {
    await server?.stop();
    for (const a of opened) {
      await a.db.close();
      await a.cleanup();
    }
  });

  /** A fresh database and server, an accepted 10,000-row import, and a SIGKILL once it runs. */
  async function importAndKill(): Promise<Attempt> {
    const fresh = await freshDatabaseConfig(dialect);
    expect((await runCli(['migrate'], fresh.env)).code).toBe(0);
    const db = connect(fresh.config);
    const attempt: Attempt = {
      env: fresh.env,
      db,
      cleanup: fresh.cleanup,
      key: '',
      importId: '',
      stateAfterKill: '',
    };
    opened.push(attempt);
    server = await startServerProcess(fresh.env);
    attempt.key = await createKeyWithCli('crash@example.com', fresh.env);
    const api = `${server.url}/api/v3`;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key: attempt.key,
      body: {
        bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 1 }],
      },
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const rows = Array.from({ length: ROWS }, (_, i) => `Payee ${i % 50},${i + 1}.00,INV-${i}`);
    const csv = ['Payee,Amount,Invoice Number', ...rows].join('\n');
    const accepted = await http(`${api}/imports`, {
      method: 'POST',
      key: attempt.key,
      body: { type: 'checks', csv, bankAccountId, createPayees: true },
    });
    expect(accepted.status).toBe(202);
    attempt.importId = accepted.body.data.importId;

    const stateOf = async () =>
      (await db.get<{ state: string }>('SELECT state FROM imports WHERE id = ?', [attempt.importId]))?.state ?? '';
    const until = Date.now() + 60_000;
    let state = await stateOf();
    while (state === 'queued' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 2));
      state = await stateOf();
    }
    await server.stop('SIGKILL');
    server = undefined;
    attempt.stateAfterKill = await stateOf();
    return attempt;
  }

  it('rolls the import back with the process, and the next server does it again, whole', async () => {
    let attempt: Attempt | undefined;
    for (let i = 0; i < ATTEMPTS && attempt === undefined; i++) {
      const made = await importAndKill();
      if (made.stateAfterKill === 'running') attempt = made;
    }
    // Three kills in a row after the commit would mean the runner no longer marks imports running
    // before writing them: a failure of what this test relies on, not bad luck.
    expect(attempt, `no kill landed inside the write in ${ATTEMPTS} attempts`).toBeDefined();
    if (attempt === undefined) return;
    const { db, key, importId, env } = attempt;

    const count = async (sql: string) => Number((await db.get<{ n: number }>(sql))?.n ?? -1);
    expect(await count('SELECT COUNT(*) AS n FROM checks')).toBe(0);
    expect(await count("SELECT COUNT(*) AS n FROM payees WHERE name LIKE 'Payee %'")).toBe(0);

    server = await startServerProcess(env);
    let done = { state: '' };
    for (let i = 0; i < 600 && done.state !== 'succeeded' && done.state !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      done = (await http(`${server.url}/api/v3/imports/${importId}`, { key })).body.data;
    }
    expect(done.state).toBe('succeeded');
    expect(await count('SELECT COUNT(*) AS n FROM checks')).toBe(ROWS);
    expect(await count('SELECT COUNT(DISTINCT invoice_number) AS n FROM checks')).toBe(ROWS);
    expect(await count("SELECT COUNT(*) AS n FROM payees WHERE name LIKE 'Payee %'")).toBe(50);
    // Sum of 1..10000 dollars, in cents, computed apart from the import.
    expect(await count('SELECT SUM(amount_cents) AS n FROM checks')).toBe(((ROWS * (ROWS + 1)) / 2) * 100);
    expect(await count('SELECT MAX(CAST(serial_number AS INTEGER)) AS n FROM checks')).toBe(ROWS);
  });
});
