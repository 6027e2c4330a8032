import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('checks, happy paths (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('happy@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('creates a check and answers 201 with the create response shape', async () => {
    const res = await api.post('/checks', {
      checks: [{ ...ids, amount: 1234.56, memo: 'Invoice 42', issueDate: '2026-11-20', noSign: 0 }],
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body.success).toBe(true);
    expect(typeof res.body.message).toBe('string');
    const [check] = res.body.data.checks;
    expect(check).toEqual({
      checkId: expect.stringMatching(/^chk_/),
      serialNumber: '10001',
      amount: '1234.56',
      status: 0,
      bankAccount: { bankAccountId: ids.bankAccountId, name: 'Operating' },
      payee: { payeeId: ids.payeeId, name: 'Acme Supplies' },
    });
  });

  it('reads a check back in the read shape with amount in words, status and statements', async () => {
    const created = await api.post('/checks', {
      checks: [
        {
          ...ids,
          amount: '0.5',
          issueDate: '2026-02-28',
          invoiceNumber: 'INV-7',
          accountNumber: 'ACC-1',
          referenceId: 'ref-read-1',
        },
      ],
    });
    const checkId = created.body.data.checks[0].checkId;
    const res = await api.get(`/checks/${checkId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      data: {
        checkId,
        serialNumber: created.body.data.checks[0].serialNumber,
        amount: 0.5,
        amountInWord: 'Zero and 50/100',
        date: '2026-02-28',
        status: 0,
        memo: null,
        accountNumber: 'ACC-1',
        invoiceNumber: 'INV-7',
        referenceId: 'ref-read-1',
        bankAccount: { bankAccountId: ids.bankAccountId, name: 'Operating' },
        payee: { payeeId: ids.payeeId, name: 'Acme Supplies' },
        checkStatus: { status: 0, description: 'New' },
        checkStatements: [
          {
            status: 'created',
            date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
            time: expect.stringMatching(/^(0[1-9]|1[0-2]):[0-5]\d (am|pm)$/),
          },
        ],
        // Our addition to the read shape: the day the bank paid it (docs/reconciliation.md).
        clearedDate: null,
        // And the approval a company's policy asks for: none without a policy (docs/approvals.md).
        approval: {
          status: 'not_required',
          required: 0,
          approvals: [],
          rejectedBy: null,
          rejectedAt: null,
          reason: null,
        },
      },
    });
  });

  it('stores money exactly: numeric strings and numbers give the same cents', async () => {
    const res = await api.post('/checks', {
      checks: [
        { ...ids, amount: '99999999.99' },
        { ...ids, amount: 0.1 },
        { ...ids, amount: 19.9 },
        { ...ids, amount: '1234.50' },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.checks.map((c: { amount: string }) => c.amount)).toEqual([
      '99999999.99',
      '0.10',
      '19.90',
      '1234.50',
    ]);
    const big = await api.get(`/checks/${res.body.data.checks[0].checkId}`);
    expect(big.body.data.amount).toBe(99999999.99);
    expect(big.body.data.amountInWord).toBe(
      'Ninety-Nine Million Nine Hundred Ninety-Nine Thousand Nine Hundred Ninety-Nine and 99/100',
    );
  });

  it('assigns serial numbers from the bank account, above explicit ones', async () => {
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Payroll', routingNumber: '021000021', accountNumber: '55554444', startingSerial: 500 }],
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const res = await api.post('/checks', {
      checks: [
        { bankAccountId, payeeId: ids.payeeId, amount: 1 },
        { bankAccountId, payeeId: ids.payeeId, amount: 1, serialNumber: '700' },
        { bankAccountId, payeeId: ids.payeeId, amount: 1 },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.body.data.checks.map((c: { serialNumber: string }) => c.serialNumber)).toEqual(['701', '700', '702']);
    const next = await api.post('/checks', { checks: [{ bankAccountId, payeeId: ids.payeeId, amount: 1 }] });
    expect(next.body.data.checks[0].serialNumber).toBe('703');
    const account = await api.get(`/bankAccounts/${bankAccountId}`);
    expect(account.body.data.nextSerial).toBe('704');
  });

  it('accepts every flag form, customElements, an inline voucher and blank parts', async () => {
    const res = await api.post('/checks', {
      checks: [
        {
          ...ids,
          amount: 10,
          noSign: true,
          noDate: '1',
          noAmount: 0,
          noPayee: '0',
          categoryId: '',
          voucherId: null,
          customElements: { element1: 'Dept 7', element2: 'PO 99' },
          voucher: {
            voucherNumber: 'V-1',
            date: '2026-11-01',
            memo: 'Parts',
            voucherItems: [{ invoiceNumber: 'A1', description: 'Bolts', quantity: 2, unitCost: '2.50', total: 5 }],
          },
        },
        { bankAccountId: ids.bankAccountId, noPayee: 1, noAmount: true },
      ],
    });
    expect(res.status).toBe(201);
    const [withVoucher, blank] = res.body.data.checks;
    expect(blank.amount).toBe('0.00');
    expect(blank.payee).toEqual({ payeeId: '', name: '' });
    const voucher = await api.get(`/checks/${withVoucher.checkId}/voucher`);
    expect(voucher.status).toBe(200);
    expect(voucher.body.data).toMatchObject({
      voucherNumber: 'V-1',
      date: '2026-11-01',
      memo: 'Parts',
      voucherItems: [{ invoiceNumber: 'A1', description: 'Bolts', quantity: 2, unitCost: '2.50', total: '5.00' }],
    });
    const blankRead = await api.get(`/checks/${blank.checkId}`);
    expect(blankRead.body.data.amountInWord).toBe('');
  });

  it('attaches a voucher after creation and links an existing one by voucherId', async () => {
    const created = await api.post('/checks', { checks: [{ ...ids, amount: 3 }] });
    const checkId = created.body.data.checks[0].checkId;
    const attached = await api.post(`/checks/${checkId}/voucher`, {
      voucherNumber: 'V-2',
      voucherItems: [{ name: 'Service', total: '3.00' }],
    });
    expect(attached.status).toBe(201);
    const voucherId = attached.body.data.voucherId;
    const reuse = await api.post('/checks', { checks: [{ ...ids, amount: 3, voucherId }] });
    expect(reuse.status).toBe(201);
    const read = await api.get(`/checks/${reuse.body.data.checks[0].checkId}/voucher`);
    expect(read.body.data.voucherId).toBe(voucherId);
  });

  it('lists newest first with meta, paging, clamping and filters', async () => {
    const own = await t.client('lister@example.com');
    const basics = await seedBasics(own, { name: 'Zeta Plumbing' });
    const made: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const res = await own.post('/checks', {
        checks: [{ ...basics, amount: 100 + i, memo: i === 3 ? 'Quarterly RENT' : `memo ${i}`, referenceId: `r-${i}` }],
      });
      made.push(res.body.data.checks[0].checkId);
    }
    const first = await own.get('/checks');
    expect(first.status).toBe(200);
    expect(first.body.data.meta).toEqual({ total: 12, currentPage: 1, perPage: 10 });
    expect(first.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([...made].reverse().slice(0, 10));
    const second = await own.get('/checks?perPage=10&page=2');
    expect(second.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([made[1], made[0]]);
    const past = await own.get('/checks?page=9');
    expect(past.body.data).toEqual({ meta: { total: 12, currentPage: 9, perPage: 10 }, checks: [] });
    const clamped = await own.get('/checks?perPage=100000');
    expect(clamped.body.data.meta.perPage).toBe(500);
    const empty = await own.get('/checks?perPage=&page=');
    expect(empty.body.data.meta).toEqual({ total: 12, currentPage: 1, perPage: 10 });

    const byTerm = await own.get('/checks?term=rent');
    expect(byTerm.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([made[3]]);
    const byPayee = await own.get('/checks?term=zeta');
    expect(byPayee.body.data.meta.total).toBe(12);
    const byAmount = await own.get('/checks?term=105');
    expect(byAmount.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([made[5]]);
    const byReference = await own.get('/checks?referenceId=r-7');
    expect(byReference.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([made[7]]);
    const byStatus = await own.get('/checks?status=new&perPage=1');
    expect(byStatus.body.data.meta.total).toBe(12);
    const none = await own.get('/checks?status=void');
    expect(none.body.data.meta.total).toBe(0);
    const wildcard = await own.get('/checks?term=%25');
    expect(wildcard.body.data.meta.total).toBe(0);
  });

  it('a payee rename shows on its checks and in the term filter', async () => {
    const own = await t.client('rename@example.com');
    const basics = await seedBasics(own, { name: 'Old Name LLC' });
    const created = await own.post('/checks', { checks: [{ ...basics, amount: 5 }] });
    const renamed = await own.put(`/payees/${basics.payeeId}`, { name: 'New Name Inc' });
    expect(renamed.status).toBe(200);
    const read = await own.get(`/checks/${created.body.data.checks[0].checkId}`);
    expect(read.body.data.payee.name).toBe('New Name Inc');
    expect((await own.get('/checks?term=new%20name')).body.data.meta.total).toBe(1);
    expect((await own.get('/checks?term=old%20name')).body.data.meta.total).toBe(0);
  });

  it('echoes a request id on every response, keeping a caller-supplied one', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'caller-123' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-request-id']).toBe('caller-123');
    expect(JSON.parse(res.body)).toEqual({ status: 'ok' });
    const other = await api.get('/checks/nope');
    expect(other.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
