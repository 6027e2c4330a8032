// Positive pay exports over the API: the file read back by a reader written from the doc, its
// counts and totals against what GET /checks reports, the records, and the refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, type Client, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { type ReadRecord, readPositivePayCsv, readPositivePayFixed } from '../support/positive-pay-reader.ts';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

interface CheckRead {
  checkId: string;
  serialNumber: string;
  amount: number;
  date: string;
  bankAccount: { bankAccountId: string };
  payee: { name: string };
  checkStatements: { status: string; date: string }[];
}

/** Every check of the account, through the list endpoint as a client reads it. */
async function allChecks(api: Client): Promise<CheckRead[]> {
  const out: CheckRead[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api.get(`/checks?perPage=500&page=${page}`);
    expect(res.status).toBe(200);
    out.push(...res.body.data.checks);
    if (out.length >= res.body.data.meta.total) return out;
  }
}

const ISSUE = ['printed', 'mailed', 'emailed', 'eprinted'];
const cents = (amount: number): number => Math.round(amount * 100);

describe.each(dialects())('positive pay exports over the API (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let other: Client;
  let live: Client;
  let bank1 = '';
  let bank2 = '';
  let otherBank = '';
  let payeeId = '';
  const today = isoDay(Date.now());
  const from = isoDay(Date.now() - 30 * DAY);
  const dayOffset = (days: number): string => isoDay(Date.now() + days * DAY);

  const newCheck = async (bankAccountId: string, serialNumber: string, issueDate: string, amount: string) => {
    const res = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId, serialNumber, issueDate, amount }],
    });
    expect(res.status).toBe(201);
    return res.body.data.checks[0].checkId as string;
  };
  const print = async (id: string) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [id] }),
    });
    expect(res.statusCode).toBe(200);
  };
  const voidIt = async (id: string) => expect((await api.post(`/checks/${id}/void`)).status).toBe(200);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('pp@example.com');
    live = await t.client('pp@example.com', { env: 'live' });
    other = await t.client('pp-other@example.com');
    const banks = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Operating', routingNumber: '011000015', accountNumber: '9876543210123' },
        { name: 'Payroll', routingNumber: '011000015', accountNumber: '5555000011' },
      ],
    });
    expect(banks.status).toBe(201);
    [bank1, bank2] = banks.body.data.bankAccounts.map((b: { bankAccountId: string }) => b.bankAccountId);
    // A payee name that needs CSV quoting and has letters outside ASCII.
    const payee = await api.post('/payees', {
      payees: [{ name: 'Café "Noël", Ltd', email: 'ap@noel.test', phone: '+1 415 555 2671' }],
    });
    payeeId = payee.body.data.payees[0].payeeId;
    const otherBanks = await other.post('/bankAccounts', {
      bankAccounts: [{ name: 'Theirs', routingNumber: '011000015', accountNumber: '1111222233' }],
    });
    otherBank = otherBanks.body.data.bankAccounts[0].bankAccountId;

    // Issued in the range: printed; emailed; printed and voided today (an I and a V).
    await print(await newCheck(bank1, '1001', dayOffset(-10), '1234.56'));
    const emailed = await newCheck(bank1, '1002', dayOffset(-5), '20.05');
    expect((await api.post('/emailchecks', { emailChecks: [{ checkId: emailed }] })).status).toBe(200);
    const printedThenVoided = await newCheck(bank1, '1004', dayOffset(-2), '300');
    await print(printedThenVoided);
    await voidIt(printedThenVoided);
    // Issued before the range, voided today: a V only.
    const oldVoid = await newCheck(bank1, '999', dayOffset(-60), '77.70');
    await print(oldVoid);
    await voidIt(oldVoid);
    // Not in the file: a draft, a draft voided (never issued), printed before the range, dated after it.
    await newCheck(bank1, '1003', dayOffset(-3), '5');
    await voidIt(await newCheck(bank1, '1005', dayOffset(-20), '6'));
    await print(await newCheck(bank1, '1006', dayOffset(-40), '7'));
    await print(await newCheck(bank1, '1007', dayOffset(5), '8'));
    // Another bank account of the same account, printed in the range.
    await print(await newCheck(bank2, '1001', dayOffset(-10), '999.99'));
  });
  afterAll(() => t.close());

  const exportOf = (body: Record<string, unknown>, client: Client = api) => client.post('/positive-pay-exports', body);

  /** What GET /checks says the file must hold: issued and voids of bank1 in the range. */
  async function expectedFromTheApi(to: string): Promise<ReadRecord[]> {
    const checks = (await allChecks(api)).filter((c) => c.bankAccount.bankAccountId === bank1);
    const out: ReadRecord[] = [];
    for (const c of checks) {
      const statuses = c.checkStatements.map((s) => s.status);
      const base = {
        accountNumber: '9876543210123',
        checkNumber: c.serialNumber,
        issueDate: c.date,
        amountCents: cents(c.amount),
        payee: c.payee.name,
      };
      if (statuses.some((s) => ISSUE.includes(s)) && c.date >= from && c.date <= to) out.push({ kind: 'I', ...base });
      const voided = c.checkStatements.findIndex((s) => s.status === 'void');
      const voidDay = c.checkStatements[voided]?.date ?? '';
      if (voided > 0 && statuses.slice(0, voided).some((s) => ISSUE.includes(s)) && voidDay >= from && voidDay <= to)
        out.push({ kind: 'V', ...base });
    }
    return out;
  }

  const key = (r: ReadRecord) => `${r.kind} ${r.checkNumber}`;
  const sorted = (records: ReadRecord[]) => [...records].sort((a, b) => key(a).localeCompare(key(b)));

  it('the CSV holds the issued and voided checks of the bank account, as GET /checks reports them', async () => {
    const res = await exportOf({ bankAccountId: bank1, from, to: today, format: 'csv' });
    expect(res.status).toBe(201);
    const { positivePayExport: record, file } = res.body.data;
    expect(file.contentType).toBe('text/csv; charset=utf-8');
    expect(file.name).toBe(`positive-pay-${bank1}-${from}-${today}.csv`);
    const read = readPositivePayCsv(file.content);
    // Which checks: the facts set up above, independent of any rule in the code.
    expect(read.map(key).sort()).toEqual(['I 1001', 'I 1002', 'I 1004', 'V 1004', 'V 999']);
    expect(sorted(read)).toEqual(sorted(await expectedFromTheApi(today)));
    // The full account number (the bank needs it), never the masked one; the payee as written.
    expect(new Set(read.map((r) => r.accountNumber))).toEqual(new Set(['9876543210123']));
    expect(read[0]?.payee).toBe('Café "Noël", Ltd');
    // Issued records first, by date; voids after.
    expect(read.map((r) => r.kind)).toEqual(['I', 'I', 'I', 'V', 'V']);
    expect(read.filter((r) => r.kind === 'I').map((r) => r.issueDate)).toEqual([
      dayOffset(-10),
      dayOffset(-5),
      dayOffset(-2),
    ]);

    const issued = read.filter((r) => r.kind === 'I');
    const voids = read.filter((r) => r.kind === 'V');
    expect(record).toMatchObject({
      bankAccountId: bank1,
      from,
      to: today,
      format: 'csv',
      checkCount: 5,
      issuedCount: issued.length,
      issuedTotalCents: issued.reduce((s, r) => s + r.amountCents, 0),
      voidCount: voids.length,
      voidTotalCents: voids.reduce((s, r) => s + r.amountCents, 0),
      fileBytes: Buffer.byteLength(file.content, 'utf8'),
      createdBy: { via: 'api' },
    });
    expect(record.issuedTotalCents).toBe(123456 + 2005 + 30000);
    expect(record.voidTotalCents).toBe(30000 + 7770);
    expect(record.createdBy.id).toMatch(/^key_/);
    const { createHash } = await import('node:crypto');
    expect(record.fileSha256).toBe(createHash('sha256').update(file.content, 'utf8').digest('hex'));
  });

  it('the fixed-width file holds the same records at the documented positions', async () => {
    const res = await exportOf({ bankAccountId: bank1, from, to: today, format: 'fixed' });
    expect(res.status).toBe(201);
    const { positivePayExport: record, file } = res.body.data;
    expect(file.name.endsWith('.txt')).toBe(true);
    const read = readPositivePayFixed(file.content);
    const expected = (await expectedFromTheApi(today)).map((r) => ({
      ...r,
      // The 15-character Additional Data field: upper-case ASCII, cut to its width.
      payee: 'CAFE "NOEL", LT',
    }));
    expect(sorted(read)).toEqual(sorted(expected));
    expect(record.issuedCount).toBe(3);
    expect(record.voidCount).toBe(2);
    expect(read.filter((r) => r.kind === 'I').reduce((s, r) => s + r.amountCents, 0)).toBe(record.issuedTotalCents);
    expect(read.filter((r) => r.kind === 'V').reduce((s, r) => s + r.amountCents, 0)).toBe(record.voidTotalCents);
  });

  it('a range that ends before today leaves out today’s voids; an empty range gives a header-only CSV', async () => {
    const res = await exportOf({ bankAccountId: bank1, from, to: dayOffset(-1), format: 'csv' });
    expect(res.status).toBe(201);
    const read = readPositivePayCsv(res.body.data.file.content);
    expect(read.map(key).sort()).toEqual(['I 1001', 'I 1002', 'I 1004']);
    expect(sorted(read)).toEqual(sorted(await expectedFromTheApi(dayOffset(-1))));
    const empty = await exportOf({ bankAccountId: bank2, from: '2020-01-01', to: '2020-01-31', format: 'csv' });
    expect(empty.status).toBe(201);
    expect(empty.body.data.file.content).toBe(
      'account_number,check_number,issue_date,amount,payee_name,void_indicator\r\n',
    );
    expect(empty.body.data.positivePayExport).toMatchObject({ checkCount: 0, issuedTotalCents: 0, voidTotalCents: 0 });
    const emptyFixed = await exportOf({ bankAccountId: bank2, from: '2020-01-01', to: '2020-01-31', format: 'fixed' });
    expect(emptyFixed.body.data.file.content).toBe('');
  });

  it('every export is recorded; the list and the reads return it and change nothing', async () => {
    const made = await exportOf({ bankAccountId: bank2, from, to: today, format: 'fixed' });
    expect(made.status).toBe(201);
    const id = made.body.data.positivePayExport.positivePayExportId;
    const listed = await api.get('/positive-pay-exports?perPage=2');
    expect(listed.status).toBe(200);
    const total = listed.body.data.meta.total;
    expect(listed.body.data.meta).toMatchObject({ currentPage: 1, perPage: 2 });
    expect(listed.body.data.positivePayExports[0]).toEqual(made.body.data.positivePayExport);
    // Other bank account's export: only its own check.
    expect(made.body.data.positivePayExport).toMatchObject({ issuedCount: 1, issuedTotalCents: 99999, voidCount: 0 });
    const one = await api.get(`/positive-pay-exports/${id}`);
    expect(one.status).toBe(200);
    expect(one.body.data).toEqual(made.body.data.positivePayExport);
    for (let i = 0; i < 3; i += 1) {
      await api.get(`/positive-pay-exports/${id}`);
      await api.get('/positive-pay-exports');
    }
    expect((await api.get('/positive-pay-exports')).body.data.meta.total).toBe(total);
    const rows = await t.database.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM positive_pay_exports');
    expect(Number(rows?.n)).toBe(total);
    // A refused export records nothing.
    expect((await exportOf({ bankAccountId: bank1, from: today, to: from, format: 'csv' })).status).toBe(422);
    expect((await api.get('/positive-pay-exports')).body.data.meta.total).toBe(total);
  });

  it('other accounts’ and other environments’ ids are 404s', async () => {
    const made = await exportOf({ bankAccountId: bank1, from, to: today, format: 'csv' });
    const id = made.body.data.positivePayExport.positivePayExportId;
    for (const [client, bankAccountId] of [
      [other, bank1],
      [live, bank1],
      [api, otherBank],
      [api, 'bank_nothing'],
    ] as const) {
      const res = await exportOf({ bankAccountId, from, to: today, format: 'csv' }, client);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, errorMsg: 'Bank account not found.' });
    }
    for (const client of [other, live]) {
      const res = await client.get(`/positive-pay-exports/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ success: false, errorMsg: 'Positive pay export not found.' });
      expect((await client.get('/positive-pay-exports')).body.data.meta.total).toBe(0);
    }
    expect((await api.get('/positive-pay-exports/ppx_unknown')).status).toBe(404);
  });

  it('bad dates, ranges and formats are 422s naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [
        { from: '2026-02-30', to: today, format: 'csv' },
        'The from field must be a valid date: February 2026 has 28 days.',
      ],
      [{ from: '26-01-01', to: today, format: 'csv' }, 'from'],
      [{ from, to: 'tomorrow', format: 'csv' }, 'to'],
      [{ from: today, to: from, format: 'csv' }, 'The to field must be a date after or equal to from.'],
      [
        { from: '2025-01-01', to: '2026-01-02', format: 'csv' },
        'The to field must be at most 365 days after from (a range of at most 366 days).',
      ],
      [{ from, to: today, format: 'xml' }, 'format'],
      [{ from, to: today }, 'The format field is required.'],
      [{ from, to: today, format: 'csv', extra: 1 }, 'extra'],
    ];
    for (const [body, message] of cases) {
      const res = await exportOf({ bankAccountId: bank1, ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.errorMsg).toContain(message);
    }
    // A leap year's 366 days are allowed.
    expect((await exportOf({ bankAccountId: bank1, from: '2024-01-01', to: '2024-12-31', format: 'csv' })).status).toBe(
      201,
    );
  });

  it('a void counts on its date in the account’s time zone, as checkStatements show it', async () => {
    const utcDay = today;
    // A zone where the local date differs from UTC's right now: +14 h late in the UTC day, -11 h early.
    const timeZone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const localDay = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    expect(localDay).not.toBe(utcDay);
    const zoned = await t.client('pp-zone@example.com');
    await t.database.db.run('UPDATE accounts SET time_zone = ? WHERE email = ?', [timeZone, 'pp-zone@example.com']);
    const bank = await zoned.post('/bankAccounts', {
      bankAccounts: [{ name: 'Zoned', routingNumber: '011000015', accountNumber: '24242424' }],
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await zoned.post('/payees', { payees: [{ name: 'Far Away' }] });
    const made = await zoned.post('/checks', {
      checks: [{ bankAccountId, payeeId: payee.body.data.payees[0].payeeId, issueDate: dayOffset(-3), amount: '10' }],
    });
    const checkId = made.body.data.checks[0].checkId;
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${zoned.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [checkId] }),
    });
    expect(printed.statusCode).toBe(200);
    expect((await zoned.post(`/checks/${checkId}/void`)).status).toBe(200);
    const statements = (await zoned.get(`/checks/${checkId}`)).body.data.checkStatements;
    expect(statements.at(-1)).toMatchObject({ status: 'void', date: localDay });
    const kinds = async (day: string) =>
      readPositivePayCsv(
        (await zoned.post('/positive-pay-exports', { bankAccountId, from: day, to: day, format: 'csv' })).body.data.file
          .content,
      ).map((r) => r.kind);
    expect(await kinds(localDay)).toEqual(['V']);
    expect(await kinds(utcDay)).toEqual([]);
  });

  it('an Idempotency-Key replays the same export and file, recorded once', async () => {
    const before = (await api.get('/positive-pay-exports')).body.data.meta.total;
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `${BASE}/positive-pay-exports`,
        headers: {
          authorization: `Bearer ${api.key}`,
          'content-type': 'application/json',
          'idempotency-key': 'pp-once',
        },
        payload: JSON.stringify({ bankAccountId: bank1, from, to: today, format: 'fixed' }),
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body).toBe(first.body);
    expect((await api.get('/positive-pay-exports')).body.data.meta.total).toBe(before + 1);
  });

  it('is in the OpenAPI document with its schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${BASE}/openapi.json` });
    expect(res.statusCode).toBe(200);
    const doc = JSON.parse(res.body);
    const post = doc.paths['/positive-pay-exports'].post;
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '401', '404', '422']));
    expect(post.requestBody.content['application/json'].schema.required).toEqual([
      'bankAccountId',
      'from',
      'to',
      'format',
    ]);
    expect(doc.paths['/positive-pay-exports'].get.responses['200']).toBeDefined();
    expect(doc.paths['/positive-pay-exports/{positivePayExportId}'].get.responses['404']).toBeDefined();
  });
});
