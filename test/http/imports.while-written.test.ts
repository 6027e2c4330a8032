// A large import is written in one transaction by the background runner, and the server goes on
// answering meanwhile: the runner gives the event loop back between its chunks (on SQLite every
// statement is synchronous, so without that a 10,000-row import held the loop for seconds), and no
// reader sees part of it — GET /checks counts none of its checks, then all of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importRunner, runImport } from '../../src/services/imports/runner.service.ts';
import { dialects } from '../support/databases.ts';
import { type Client, startTestApp, type TestApp } from '../support/app.ts';

const ROWS = 2_000;
const NEW_PAYEES = 300;

function checkDetailCsv(names: readonly string[], rows: number): string {
  const lines = ['Date,Num,Name,Memo,Amount'];
  for (let i = 0; i < rows; i++) {
    const cents = ((i * 7919) % 500_000) + 100;
    lines.push(
      `11/${String((i % 28) + 1).padStart(2, '0')}/2026,,"${names[i % names.length]}",Rent,${(cents / 100).toFixed(2)}`,
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.each(dialects())('a large import while the server answers (%s)', { timeout: 180_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('while-written@example.com');
    // The test runs the import itself, to watch it: the app's runner must not take it first.
    await importRunner(t.serviceContext())?.stop();
  });
  afterAll(() => t.close());

  it('gives the event loop back between chunks, and readers see none of the import, then all of it', async () => {
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '44556677' }],
    });
    expect(bank.status).toBe(201);
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const known = Array.from({ length: 50 }, (_, i) => `Vendor ${i}`);
    expect((await api.post('/payees', { payees: known.map((name) => ({ name })) })).status).toBe(201);
    const fresh = Array.from({ length: NEW_PAYEES }, (_, i) => `New Vendor ${i}`);
    const accepted = await api.post('/imports', {
      type: 'checks',
      csv: checkDetailCsv([...known, ...fresh], ROWS),
      bankAccountId,
      createPayees: true,
    });
    expect(accepted.status, accepted.raw).toBe(202);

    // A timer stands for every other request's work: it can only fire when the loop is free.
    let turns = 0;
    const timer = setInterval(() => {
      turns += 1;
    }, 1);
    const totals: number[] = [];
    let running = true;
    const run = runImport(t.serviceContext(), accepted.body.data.importId).finally(() => {
      running = false;
    });
    while (running) {
      const listed = await api.get('/checks?perPage=1');
      expect(listed.status).toBe(200);
      totals.push(listed.body.data.meta.total);
      // The test client's requests never touch a socket: a loop of them is promise callbacks only
      // and would starve the event loop's I/O, where a SQLite write's sync of its log completes
      // (store/sqlite-wal-sync.ts). A real client's next request arrives through the loop too.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const ended = await run;
    clearInterval(timer);

    expect(ended?.state).toBe('succeeded');
    // 2,300 rows in chunks of 50 are 46 chunks, each followed by a turn of the loop; the timer
    // fired in most of them. Written without yielding, SQLite's import let it fire once or not at all.
    expect(turns).toBeGreaterThanOrEqual(20);
    // Every read saw none of the import or all of it, never a part.
    expect(totals.length).toBeGreaterThan(0);
    for (const total of totals) expect([0, ROWS]).toContain(total);
    expect((await api.get('/checks?perPage=1')).body.data.meta.total).toBe(ROWS);
    const payees = await api.get('/payees?perPage=1');
    expect(payees.body.data.meta.total).toBe(known.length + NEW_PAYEES);
  });
});
