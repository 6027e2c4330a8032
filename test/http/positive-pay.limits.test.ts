// A positive pay export's cost is bounded: past 20,000 records the request is refused (422) and
// nothing is recorded. The checks are written straight into the tables (20,001 of them through the
// API would take minutes); each has the `printed` statement that makes it issued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const COUNT = 20_001;
const DAY = '2026-03-02';

describe.each(dialects())('positive pay export limits (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('pp-limits@example.com');
    ids = await seedBasics(api);
    const owner = await t.database.db.get<{ account_id: string }>('SELECT account_id FROM bank_accounts WHERE id = ?', [
      ids.bankAccountId,
    ]);
    const accountId = owner?.account_id ?? '';
    for (let first = 0; first < COUNT; first += 1000) {
      const last = Math.min(COUNT, first + 1000);
      await t.database.db.transaction(async (tx) => {
        const checks: (string | number)[] = [];
        const statements: (string | number)[] = [];
        for (let i = first; i < last; i += 1) {
          const id = `chk_limit${String(i).padStart(6, '0')}`;
          checks.push(
            id,
            accountId,
            'test',
            ids.bankAccountId,
            ids.payeeId,
            String(500000 + i),
            DAY,
            100,
            1,
            Date.now(),
          );
          statements.push(id, Date.now());
        }
        await tx.run(
          `INSERT INTO checks (id, account_id, env, bank_account_id, payee_id, serial_number, issue_date, amount_cents, status, created_at)
           VALUES ${Array.from({ length: last - first }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
          checks,
        );
        await tx.run(
          `INSERT INTO check_statements (check_id, status, created_at)
           VALUES ${Array.from({ length: last - first }, () => "(?, 'printed', ?)").join(', ')}`,
          statements,
        );
      });
    }
  });
  afterAll(() => t.close());

  it('more than 20,000 records is a 422 that records nothing', async () => {
    const res = await api.post('/positive-pay-exports', {
      ...{ bankAccountId: ids.bankAccountId },
      from: DAY,
      to: DAY,
      format: 'csv',
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      errorMsg: 'The range holds more than 20000 checks for one file; export a shorter range (the to field).',
    });
    expect((await api.get('/positive-pay-exports')).body.data.meta.total).toBe(0);
    // The day before holds none of them: answered at once.
    const before = await api.post('/positive-pay-exports', {
      bankAccountId: ids.bankAccountId,
      from: '2026-03-01',
      to: '2026-03-01',
      format: 'csv',
    });
    expect(before.status).toBe(201);
    expect(before.body.data.positivePayExport.checkCount).toBe(0);
  });
});
