import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/domain/owner.ts';
import { createChecks } from '../../src/services/checks/write.service.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import type { ImportInput } from '../../src/services/imports/model.ts';
import { startImport } from '../../src/services/imports/preview.service.ts';
import { ImportRunner, importRunner } from '../../src/services/imports/runner.service.ts';
import { transactionJoinedByCalls } from '../../src/store/db.ts';
import { findImport, markRunning } from '../../src/store/imports.repository.ts';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';
import { until } from '../support/until.ts';

const quiet = { error: () => undefined };

// A server that stops in the middle of an import loses only its open transaction: the import is
// still "running" in the table, and the next runner (a server starting) does it again, whole.
describe.each(dialects())('an import interrupted by a stopped process (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let ctx: ServiceContext;
  let principal: Principal;
  let bankAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('resume@example.com');
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 5000 },
      ],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    await api.post('/payees', { payees: [{ name: 'Acme Paper Co.' }] });
    ctx = t.serviceContext();
    principal = await t.principal('resume@example.com');
    // The app's own runner stands for the process that stops: it is gone from here on.
    await importRunner(ctx)?.stop();
  });
  afterAll(() => t.close());

  it('is done again, whole, by the next runner: every row once, none twice', async () => {
    const rows = Array.from({ length: 1200 }, (_, i) => `Acme Paper Co.,${i + 1}.25,2026-11-0${(i % 9) + 1},INV-${i}`);
    const csv = ['Payee,Amount,Date,Invoice Number', ...rows].join('\r\n');
    const record = await startImport(ctx, principal, { kind: 'checks', csv, bankAccountId });
    // The stopped process had begun: marked running, 500 checks written in the import's open transaction...
    await markRunning(ctx.db, record.id, Date.now());
    const input = JSON.parse((await findImport(ctx.db, principal, record.id))?.input ?? '{}') as ImportInput;
    await expect(
      transactionJoinedByCalls(ctx.db, async () => {
        await createChecks(
          ctx,
          principal,
          input.checks.slice(0, 500).map((p) => p.item),
        );
        throw new Error('the process stopped here');
      }),
    ).rejects.toThrow('the process stopped here');
    // ...which never committed: nothing of it is seen.
    expect((await api.get('/checks')).body.data.meta.total).toBe(0);
    expect((await api.get(`/imports/${record.id}`)).body.data).toMatchObject({ state: 'running', rowsDone: 0 });

    const next = new ImportRunner(ctx, quiet, 50);
    next.start();
    await until(async () => (await api.get(`/imports/${record.id}`)).body.data.state === 'succeeded');
    await next.stop();

    const done = (await api.get(`/imports/${record.id}`)).body.data;
    expect(done.rowsDone).toBe(1200);
    expect(new Set(done.created.checkIds).size).toBe(1200);
    const list = await api.get('/checks?perPage=100');
    expect(list.body.data.meta.total).toBe(1200);
    // Each row once, in order: the numbers are the bank account's next 1200, and the amounts the file's.
    const first = (await api.get(`/checks/${done.created.checkIds[0]}`)).body.data;
    const last = (await api.get(`/checks/${done.created.checkIds[1199]}`)).body.data;
    expect(first).toMatchObject({ serialNumber: '5000', amount: 1.25, invoiceNumber: 'INV-0' });
    expect(last).toMatchObject({ serialNumber: '6199', amount: 1200.25, invoiceNumber: 'INV-1199' });
    const totals = await t.database.db.get<{ n: number; cents: number }>(
      'SELECT COUNT(*) AS n, SUM(amount_cents) AS cents FROM checks WHERE account_id = ?',
      [principal.accountId],
    );
    // Sum of (i + 1.25 dollars) for i = 0..1199, in cents, computed apart from the import.
    expect(Number(totals?.n)).toBe(1200);
    expect(Number(totals?.cents)).toBe((1200 * 1201 * 100) / 2 + 1200 * 25);
  });

  it('fails whole, writing nothing, when a row is no longer valid at write time', async () => {
    const before = (await api.get('/checks')).body.data.meta.total;
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Closing', routingNumber: '021000021', accountNumber: '87654321' }],
    });
    const closing = bank.body.data.bankAccounts[0].bankAccountId;
    const csv = 'Payee,Amount,Bank Account\nAcme Paper Co.,5,\nAcme Paper Co.,6,\n';
    const record = await startImport(ctx, principal, { kind: 'checks', csv, bankAccountId: closing });
    expect((await api.delete(`/bankAccounts/${closing}`)).status).toBe(200);
    const runner = new ImportRunner(ctx, quiet, 50);
    runner.start();
    await until(async () => (await api.get(`/imports/${record.id}`)).body.data.state === 'failed');
    await runner.stop();
    const failed = (await api.get(`/imports/${record.id}`)).body.data;
    expect(failed.errors).toEqual([{ row: 1, line: 2, messages: ['The selected bankAccountId is invalid.'] }]);
    expect(failed.created.checkIds).toEqual([]);
    expect((await api.get('/checks')).body.data.meta.total).toBe(before);
  });
});
