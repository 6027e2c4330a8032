// Custom positive pay layouts end to end: defined in the panel from a spec sheet (a bad one refused
// with each problem at its field, nothing stored), chosen on a bank account, and the export in
// `format: 'bank'` (panel and API) written in it. The expected bytes are built here by hand from
// the layout's field table, not with the writer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, type Client, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** MMDDYY of an ISO day, by hand. */
const mmddyy = (iso: string): string => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(2, 4)}`;

const GOOD = {
  name: 'First Example Bank ARP',
  record: 'fixed',
  issueCode: 'I',
  voidCode: 'V',
  header: '',
  detail: [
    'code 1',
    'accountNumber 12',
    'checkNumber 8',
    'amount:cents 10',
    'issueDate:MMDDYY 6',
    'payee 12',
    'literal:"X" 1',
  ].join('; '),
  trailer: 'literal:"T" 1; recordCount 5; totalAmount:cents 12',
};

describe.each(dialects())('positive pay layouts (%s)', (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let bankAccountId = '';
  let layoutId = '';
  const email = 'office@pp-layouts.test';
  const from = isoDay(Date.now() - 10 * DAY);
  const to = isoDay(Date.now());
  const day501 = isoDay(Date.now() - 2 * DAY);
  const day502 = isoDay(Date.now() - 1 * DAY);

  const count = async (sql: string): Promise<number> =>
    Number((await t.database.db.get<{ n: number | string }>(sql))?.n);
  const storedLayouts = (): Promise<number> => count('SELECT COUNT(*) AS n FROM positive_pay_layouts');
  const chosen = async (): Promise<string | null> =>
    (
      await t.database.db.get<{ l: string | null }>('SELECT positive_pay_layout AS l FROM bank_accounts WHERE id = ?', [
        bankAccountId,
      ])
    )?.l ?? null;

  /** The file the layout's field table gives for the three records, built by hand. */
  const expectedFile = (): string => {
    const line = (code: string, serial: string, cents: string, day: string): string =>
      `${code}000044556677${serial.padStart(8, '0')}${cents.padStart(10, '0')}${mmddyy(day)}PAPER SUPPLYX\r\n`;
    return [
      line('I', '501', '4510', day501),
      line('I', '502', '1200', day502),
      line('V', '502', '1200', day502),
      // 3 records, 45.10 + 12.00 + 12.00 in cents.
      'T00003000000006910\r\n',
    ].join('');
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    visitor = new Visitor(t.app);
    const signedIn = await visitor.signUp({ company: 'Layout Co', email, phone: '+14155552671', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    api = await t.client(email);
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber: '44556677' }],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await api.post('/payees', { payees: [{ name: 'Paper Supply', email: 'ap@paper.test' }] });
    const payeeId = payee.body.data.payees[0].payeeId;
    const created = await api.post('/checks', {
      checks: [
        { bankAccountId, payeeId, serialNumber: '501', issueDate: day501, amount: '45.10' },
        { bankAccountId, payeeId, serialNumber: '502', issueDate: day502, amount: '12' },
      ],
    });
    const ids = created.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const print = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: ids }),
    });
    expect(print.statusCode).toBe(200);
    expect((await api.post(`/checks/${ids[1]}/void`)).status).toBe(200);
  });
  afterAll(() => t.close());

  it('a layout with problems is refused (422) with each problem under its field, and nothing is stored', async () => {
    const page = await visitor.get('/panel/positive-pay/layouts');
    expect(page.status).toBe(200);
    for (const id of ['name', 'record', 'issueCode', 'voidCode', 'header', 'detail', 'trailer'])
      expect(page.body).toContain(`<label for="${id}">`);
    const before = await storedLayouts();
    const bad = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', {
      ...GOOD,
      voidCode: 'I',
      // No width on line 2, a total in a check record on line 5, and no check number at all.
      detail: 'code 1; accountNumber; amount:cents 10; issueDate:YYYYMMDD 8; recordCount 3',
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="detail-error"');
    expect(bad.body).toContain('<li>Field 2: every field of a fixed-width record needs a width.</li>');
    expect(bad.body).toContain('<li>Field 5: record counts and totals belong in a header or trailer.</li>');
    expect(bad.body).toContain('<li>The record needs a checkNumber field.</li>');
    expect(bad.body).toContain('id="issueCode-error"><li>Issue and void codes must differ.</li>');
    // What was typed stays in the form.
    expect(bad.body).toContain('value="First Example Bank ARP"');
    const unreadable = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', {
      ...GOOD,
      record: 'xml',
      detail: 'code 1; amount 10; bogus 3',
    });
    expect(unreadable.status).toBe(422);
    expect(unreadable.body).toContain('id="record-error"');
    expect(unreadable.body).toContain('<li>Field 2: amount needs a format: amount:cents or amount:decimal.</li>');
    expect(unreadable.body).toContain('is not a field source');
    expect(await storedLayouts()).toBe(before);
  });

  it('a good layout is stored and shows a sample record written in it', async () => {
    const saved = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', GOOD);
    expect(saved.status).toBe(303);
    expect(saved.headers.location).toBe('/panel/positive-pay/layouts?notice=layout-added');
    const row = await t.database.db.get<{ id: string; name: string }>('SELECT id, name FROM positive_pay_layouts');
    expect(row?.name).toBe('First Example Bank ARP');
    layoutId = row?.id ?? '';
    const page = await visitor.get('/panel/positive-pay/layouts');
    // The sample check (account 123456789, check 1001, 2026-01-15, $1,234.56, Sample Payee Inc).
    expect(page.body).toContain(
      '<pre class="sample">I000123456789000010010000123456011526SAMPLE PAYEEX\r\nT00001000000123456\r\n</pre>',
    );
  });

  it('chosen on the bank account, the bank format writes it byte for byte (panel and API)', async () => {
    const page = await visitor.get(`/panel/bank-accounts/${bankAccountId}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<option value="${layoutId}">First Example Bank ARP (custom)</option>`);
    // Without a choice, `bank` is refused at its field and nothing is recorded.
    const exports = (): Promise<number> => count('SELECT COUNT(*) AS n FROM positive_pay_exports');
    const before = await exports();
    const none = await api.post('/positive-pay-exports', { bankAccountId, from, to, format: 'bank' });
    expect(none.status).toBe(422);
    expect(JSON.stringify(none.body)).toContain('no positive pay layout chosen');
    expect(await exports()).toBe(before);

    const choose = await visitor.submit(
      `/panel/bank-accounts/${bankAccountId}`,
      `/panel/bank-accounts/${bankAccountId}/positive-pay-layout`,
      {
        env: 'test',
        positivePayLayout: layoutId,
      },
    );
    expect(choose.status).toBe(303);
    expect(await chosen()).toBe(layoutId);
    expect((await visitor.get(`/panel/bank-accounts/${bankAccountId}`)).body).toContain(
      `<option value="${layoutId}" selected>`,
    );

    const panel = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from,
      to,
      format: 'bank',
    });
    expect(panel.status).toBe(200);
    expect(panel.headers['content-type']).toBe('text/plain; charset=us-ascii');
    expect(panel.body).toBe(expectedFile());

    const viaApi = await api.post('/positive-pay-exports', { bankAccountId, from, to, format: 'bank' });
    expect(viaApi.status).toBe(201);
    expect(viaApi.body.data.file.content).toBe(expectedFile());
    expect(viaApi.body.data.positivePayExport.format).toBe(layoutId);
    // `csv` stays our CSV whatever the bank account chose.
    const csv = await api.post('/positive-pay-exports', { bankAccountId, from, to, format: 'csv' });
    expect(csv.body.data.file.content.startsWith('account_number,check_number,')).toBe(true);
    expect(csv.body.data.positivePayExport.format).toBe('csv');
    // The past exports name the custom layout.
    expect((await visitor.get('/panel/positive-pay')).body).toContain('<td>First Example Bank ARP</td>');
  });

  it('another company’s layout or a made-up name cannot be chosen; deleting a layout clears the choice', async () => {
    const other = new Visitor(t.app);
    await other.signUp({
      company: 'Other Co',
      email: 'other@pp-layouts.test',
      phone: '+14155552672',
      password: PASSWORD,
    });
    const theirs = await other.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', {
      ...GOOD,
      name: 'Theirs',
    });
    expect(theirs.status).toBe(303);
    const theirId = (
      await t.database.db.get<{ id: string }>("SELECT id FROM positive_pay_layouts WHERE name = 'Theirs'")
    )?.id;
    // …nor is a form without the field read as '' ("None chosen"), which cleared the choice.
    for (const choice of [theirId ?? '', 'made-up', undefined]) {
      const refused = await visitor.submit(
        `/panel/bank-accounts/${bankAccountId}`,
        `/panel/bank-accounts/${bankAccountId}/positive-pay-layout`,
        choice === undefined ? { env: 'test' } : { env: 'test', positivePayLayout: choice },
      );
      expect(refused.status).toBe(422);
      expect(refused.body).toContain('Choose one of the layouts offered.');
      expect(await chosen()).toBe(layoutId);
    }
    // Their layout is not listed here, nor can it be deleted from here.
    expect((await visitor.get('/panel/positive-pay/layouts')).body).not.toContain('Theirs');
    const notOurs = await visitor.submit(
      '/panel/positive-pay/layouts',
      `/panel/positive-pay/layouts/${theirId}/delete`,
      {
        env: 'test',
      },
    );
    expect(notOurs.status).toBe(404);
    const deleted = await visitor.submit(
      '/panel/positive-pay/layouts',
      `/panel/positive-pay/layouts/${layoutId}/delete`,
      {
        env: 'test',
      },
    );
    expect(deleted.status).toBe(303);
    expect(await chosen()).toBeNull();
    expect(await storedLayouts()).toBe(1);
  });
});
