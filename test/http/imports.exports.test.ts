// The office's real accounting exports (test/fixtures/imports; the README there says where each
// layout comes from) imported through POST /imports on both databases, as exported: each is
// recognised by its header and makes exactly the checks or payees it holds — no title, section,
// total, subtotal, footer, deposit, bill or repeated line item becomes a check; one check per bill
// with its lines as the voucher — and the same file with one real-world mutation each gives the
// same result.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';
import { MUTATIONS } from '../support/bank-files.ts';
import { eventually } from '../support/until.ts';
import { findCheck } from '../../src/store/checks/checks.repository.ts';
import { findVoucher } from '../../src/store/vouchers.repository.ts';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

interface CheckExport {
  file: string;
  layout: string;
  /** "serial payee amount [voucher lines]" of every check the file holds, sorted. */
  checks: string[];
  mutations: string[];
}

const CSV_MUTATIONS = MUTATIONS.map((m) => m.name);
const TEXT_ONLY = ['a byte-order mark', 'the other line endings'];

const CHECK_EXPORTS: CheckExport[] = [
  {
    file: 'qbo-transaction-detail-by-account.csv',
    layout: 'qbo-transaction-detail-by-account',
    checks: ['1045 Acme Paper Co. 1234.5', "1046 O'Brien & Sons 450", '1047 Pam Seitz 75'],
    mutations: CSV_MUTATIONS,
  },
  {
    file: 'qbo-transaction-list-by-vendor.csv',
    layout: 'qbo-transaction-list-by-vendor',
    checks: ['1045 Acme Paper Co. 1234.5', '1047 Pam Seitz 75', '1048 Pam Seitz 125'],
    mutations: CSV_MUTATIONS,
  },
  {
    file: 'qbo-bill-payment-list.csv',
    layout: 'qbo-bill-payment-list',
    checks: ['1045 Acme Paper Co. 1234.5', "1046 O'Brien & Sons 450", '1049 Pam Seitz 2450'],
    mutations: CSV_MUTATIONS,
  },
  {
    file: 'qbd-check-detail.csv',
    layout: 'qbd-check-detail',
    checks: [
      '1045 Acme Paper Co. 1234.5 [Office Supplies 1000; Postage 234.5]',
      "1046 O'Brien & Sons 450 [Repairs 450]",
    ],
    mutations: CSV_MUTATIONS,
  },
  {
    file: 'qbd-checks.iif',
    layout: 'qbd-iif',
    checks: [
      '1045 Acme Paper Co. 1234.5 [Office Supplies 1000; Postage 234.5]',
      "1046 O'Brien & Sons 450 [Repairs 450]",
    ],
    mutations: TEXT_ONLY,
  },
  {
    file: 'xero-bills-awaiting-payment.csv',
    layout: 'xero-bills',
    checks: [
      '- Acme Paper Co. 1234.5 [Copy paper, 40 cases 1000; Stamps 234.5]',
      "- O'Brien & Sons 450 [Dock repairs 450]",
      '- Pam Seitz 2450 [Design review 1500; Site visits 750; Travel 200]',
    ],
    // No negative amounts to put in parentheses.
    mutations: CSV_MUTATIONS.filter((m) => m !== 'parentheses for negatives'),
  },
  {
    file: 'wave-accounting-transactions.csv',
    layout: 'wave-accounting-transactions',
    checks: ['- Acme Paper Co. 1234.5', "- O'Brien & Sons 450"],
    mutations: CSV_MUTATIONS,
  },
];

describe.each(dialects())('accounting exports as exported (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let clients = 0;
  const emailOf = new Map<Client, string>();

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  /** An account of its own (no payee met before) with one bank account. */
  async function freshAccount(): Promise<{ api: Client; bankAccountId: string }> {
    clients += 1;
    const email = `exports-${clients}@example.com`;
    const api = await t.client(email);
    emailOf.set(api, email);
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }],
    });
    expect(bank.status).toBe(201);
    return { api, bankAccountId: bank.body.data.bankAccounts[0].bankAccountId };
  }

  async function imported(api: Client, body: Record<string, unknown>) {
    const res = await api.post('/imports', body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    const done = await eventually(
      () => api.get(`/imports/${res.body.data.importId}`),
      (r) => r.body.data.state === 'succeeded' || r.body.data.state === 'failed',
    );
    expect(done.body.data.state, JSON.stringify(done.body.data.errors)).toBe('succeeded');
    return done.body.data.created;
  }

  /** Every check the account has, as "serial payee amount [voucher lines]", sorted. */
  async function checksOf(api: Client, ids: string[], serials: boolean): Promise<string[]> {
    const out: string[] = [];
    const owner = await t.principal(emailOf.get(api) ?? '');
    for (const id of ids) {
      const check = (await api.get(`/checks/${id}`)).body.data;
      // The voucher (the stub's lines) is no part of the check's read shape: read from the store.
      const voucherId = (await findCheck(t.database.db, owner, id))?.voucherId ?? null;
      const voucher = voucherId === null ? undefined : await findVoucher(t.database.db, owner, voucherId);
      const items = voucher?.items ?? [];
      const lines =
        items.length === 0 ? '' : ` [${items.map((v) => `${v.description} ${v.totalCents / 100}`).join('; ')}]`;
      out.push(`${serials ? check.serialNumber : '-'} ${check.payee.name} ${check.amount}${lines}`);
    }
    return out.sort();
  }

  for (const ex of CHECK_EXPORTS) {
    for (const mutation of ['as exported', ...ex.mutations]) {
      it(`${ex.file} ${mutation}: exactly its checks, no mapping, no confirmation`, async () => {
        const { api, bankAccountId } = await freshAccount();
        const apply = MUTATIONS.find((m) => m.name === mutation)?.apply ?? ((s: string) => s);
        const csv = apply(fixture(ex.file));
        const dry = await api.post('/imports', {
          type: 'checks',
          csv,
          bankAccountId,
          createPayees: true,
          dryRun: true,
        });
        expect(dry.status, JSON.stringify(dry.body)).toBe(200);
        expect(dry.body.data.layout?.id).toBe(ex.layout);
        expect(dry.body.data.errors).toEqual([]);
        expect(dry.body.data.rowsTotal).toBe(ex.checks.length);
        const created = await imported(api, { type: 'checks', csv, bankAccountId, createPayees: true });
        expect(created.checkIds).toHaveLength(ex.checks.length);
        const all = (await api.get('/checks')).body.data.meta.total;
        expect(all).toBe(ex.checks.length);
        expect(await checksOf(api, created.checkIds, !ex.checks[0]?.startsWith('-'))).toEqual([...ex.checks].sort());
      });
    }
  }

  it('a Xero bill whose repeated total is not the sum of its lines is an error, and nothing is imported', async () => {
    const { api, bankAccountId } = await freshAccount();
    const csv = fixture('xero-bills-awaiting-payment.csv').replace(
      /"2,450\.00",0\.00,0\.00,"2,450\.00"/g,
      '"2,540.00",0.00,0.00,"2,540.00"',
    );
    const res = await api.post('/imports', { type: 'checks', csv, bankAccountId, createPayees: true });
    expect(res.status).toBe(422);
    expect(res.body.errorMsg).toContain(
      'The total of bill "PS-2026-10" (2,540.00) is not the sum of its lines (2,450.00): fix the bill and export it again.',
    );
    expect((await api.get('/checks')).body.data.meta.total).toBe(0);
  });

  it('a register of no known layout: negative payments are refused until moneyOut "negative" says so; then deposits are left out and listed', async () => {
    const { api, bankAccountId } = await freshAccount();
    const csv =
      'Acme Books register\r\nOctober 2026\r\n\r\nDate,Num,Payee,Amount\r\n10/02/2026,1045,Acme Paper Co.,"-1,234.50"\r\n10/05/2026,,Globex Corp,"18,250.00"\r\nTotal,,,"17,015.50"\r\n';
    const plain = await api.post('/imports', { type: 'checks', csv, bankAccountId, createPayees: true, dryRun: true });
    expect(plain.status).toBe(200);
    expect(plain.body.data.headerLine).toBe(4);
    expect(plain.body.data.errors[0].messages[0]).toContain('a negative amount is refused');
    const dry = await api.post('/imports', {
      type: 'checks',
      csv,
      bankAccountId,
      createPayees: true,
      moneyOut: 'negative',
      dryRun: true,
    });
    expect(dry.body.data.layout).toBeNull();
    expect(dry.body.data.errors).toEqual([]);
    expect(dry.body.data.leftOut.map((l: { line: number; why: string }) => `${l.line} ${l.why}`)).toEqual([
      '1 a title line above the header',
      '2 a title line above the header',
      '6 money in (a positive amount: a deposit or a bill), not a check',
      '7 a total row',
    ]);
    const created = await imported(api, {
      type: 'checks',
      csv,
      bankAccountId,
      createPayees: true,
      moneyOut: 'negative',
    });
    expect(await checksOf(api, created.checkIds, true)).toEqual(['1045 Acme Paper Co. 1234.5']);
  });

  for (const [file, mutations] of [
    ['qbo-vendor-contact-list.csv', CSV_MUTATIONS],
    ['xero-contacts.csv', CSV_MUTATIONS],
  ] as const) {
    for (const mutation of ['as exported', ...mutations]) {
      it(`${file} ${mutation}: every vendor with its phone and address in fields`, async () => {
        const { api } = await freshAccount();
        const apply = MUTATIONS.find((m) => m.name === mutation)?.apply ?? ((s: string) => s);
        const created = await imported(api, { type: 'payees', csv: apply(fixture(file)) });
        const payees = [];
        for (const id of created.payeeIds) payees.push((await api.get(`/payees/${id}`)).body.data);
        const acme = payees.find((p) => p.name === 'Acme Paper Co.');
        expect(acme).toMatchObject({
          phone: '+14065550142',
          address1: '1 Mill Rd',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
        });
        const pam = payees.find((p) => p.name === 'Pam Seitz');
        expect(pam).toMatchObject({ phone: '+16505550177', address1: '12 Oak St', city: 'Bayshore', zip: '94326' });
        expect(payees).toHaveLength(3);
      });
    }
  }
});
