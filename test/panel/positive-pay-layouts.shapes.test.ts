// The shapes banks' issue-file sheets take, typed into the custom-layout form and exported over the
// API (`format: 'bank'`) on both databases: a delimited file with a line of column names (the
// shape of the delimited samples in banks' format guides: code, account, check number,
// MM/DD/YYYY, dollars with a point, payee), a fixed-width file with a header and a trailer
// (record count and total), Bank of America's shape as Storis' help page describes it (a bank id
// and the file's date in the header, an `1EOF` trailer with the count, the sum of the check
// numbers and the total) and a detail with the payee over two fields and voids dated the day the
// file is written. No bank's own layout is claimed here: the expected bytes are built by hand from
// the field lines typed in, not with the writer.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positivePayCommand } from '../../src/cli/positive-pay.ts';
import { BASE, type Client, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
/** MM/DD/YYYY and YYYYMMDD of an ISO day, by hand. */
const slashed = (iso: string): string => `${iso.slice(5, 7)}/${iso.slice(8, 10)}/${iso.slice(0, 4)}`;
const compact = (iso: string): string => iso.replaceAll('-', '');

const DELIMITED = {
  name: 'Delimited with column names',
  record: 'comma',
  issueCode: 'I',
  voidCode: 'V',
  header: [
    'literal:"Type"',
    'literal:"Account"',
    'literal:"Check Number"',
    'literal:"Issue Date"',
    'literal:"Amount"',
    'literal:"Payee"',
  ].join('; '),
  detail: ['code', 'accountNumber', 'checkNumber', 'issueDate:MM/DD/YYYY', 'amount:decimal', 'payee'].join('; '),
  trailer: '',
};

const FIXED = {
  name: 'Fixed width with header and trailer',
  record: 'fixed',
  issueCode: '320',
  voidCode: '370',
  header: ['literal:"*03" 3', 'routingNumber 9', 'accountNumber 15', 'literal:"0" 1'].join('; '),
  detail: [
    'checkNumber 10',
    'issueDate:YYYYMMDD 8',
    'accountNumber 10',
    'code 3',
    'amount:cents 10',
    'filler 2',
    'payee 20',
  ].join('; '),
  trailer: ['literal:"&" 1', 'filler 2', 'recordCount 5', 'filler 1', 'totalAmount:cents 10'].join('; '),
};

/** Bank of America per Storis: no issue/void code, so both codes are empty. */
const BANK_OF_AMERICA = {
  name: 'Bank of America (per Storis)',
  record: 'fixed',
  issueCode: '',
  voidCode: '',
  header: ['literal:"DRS35500" 8', 'accountNumber 10', 'fileDate:YYYYMMDD 8'].join('; '),
  detail: ['checkNumber 10', 'amount:cents 10', 'accountNumber 10', 'issueDate:MMDDYY 6', 'filler 1', 'payee 43'].join(
    '; ',
  ),
  trailer: [
    'literal:"1EOF" 4',
    'filler 1',
    'recordCount 5',
    'filler 20',
    'checkNumberTotal 10',
    'totalAmount:cents 10',
  ].join('; '),
};

const TWO_PAYEE_LINES = {
  name: 'Two payee lines, voids dated the day sent',
  record: 'fixed',
  issueCode: 'I',
  voidCode: 'V',
  header: '',
  detail: [
    'code 1',
    'accountNumber 10',
    'checkNumber 6',
    'amount:cents 8',
    'issueOrFileDate:MMDDYYYY 8',
    'payeeLine1 10',
    'payeeLine2 10',
  ].join('; '),
  trailer: '',
};

describe.each(dialects())('custom positive pay layouts of the common shapes (%s)', (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let bankAccountId = '';
  const email = 'office@pp-shapes.test';
  const from = isoDay(Date.now() - 10 * DAY);
  const to = isoDay(Date.now());
  const day701 = isoDay(Date.now() - 3 * DAY);
  const day702 = isoDay(Date.now() - 1 * DAY);

  /** Types the layout into the form, chooses it on the bank account, and answers the API's export. */
  async function exportIn(form: Record<string, string>, range = { from, to }, client?: Client) {
    const saved = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', form);
    expect(saved.status, saved.body).toBe(303);
    const row = await t.database.db.get<{ id: string }>('SELECT id FROM positive_pay_layouts WHERE name = ?', [
      form.name ?? '',
    ]);
    const layoutId = row?.id ?? '';
    const chose = await visitor.submit(
      `/panel/bank-accounts/${bankAccountId}`,
      `/panel/bank-accounts/${bankAccountId}/positive-pay-layout`,
      { env: 'test', positivePayLayout: layoutId },
    );
    expect(chose.status).toBe(303);
    const answer = await (client ?? api).post('/positive-pay-exports', { bankAccountId, ...range, format: 'bank' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data.positivePayExport.format).toBe(layoutId);
    return answer.body.data;
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    visitor = new Visitor(t.app);
    const signedIn = await visitor.signUp({ company: 'Shapes Co', email, phone: '+14155552673', password: PASSWORD });
    expect(signedIn.status).toBe(303);
    api = await t.client(email);
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber: '9610123456' }],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const payees = await api.post('/payees', { payees: [{ name: 'Mary Moore' }, { name: 'Smart, James & Co' }] });
    const [mary, james] = payees.body.data.payees.map((p: { payeeId: string }) => p.payeeId);
    const created = await api.post('/checks', {
      checks: [
        { bankAccountId, payeeId: mary, serialNumber: '701', issueDate: day701, amount: '264.20' },
        { bankAccountId, payeeId: james, serialNumber: '702', issueDate: day702, amount: '1056.24' },
      ],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
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

  it('a delimited layout with a line of column names: the names, then one line a record, payees quoted where they must be', async () => {
    const data = await exportIn(DELIMITED);
    expect(data.file.contentType).toBe('text/csv; charset=utf-8');
    expect(data.file.content).toBe(
      [
        'Type,Account,Check Number,Issue Date,Amount,Payee',
        `I,9610123456,701,${slashed(day701)},264.20,Mary Moore`,
        `I,9610123456,702,${slashed(day702)},1056.24,"Smart, James & Co"`,
        `V,9610123456,702,${slashed(day702)},1056.24,"Smart, James & Co"`,
        '',
      ].join('\r\n'),
    );
  });

  it('a fixed-width layout with a header (literal, routing, account) and a trailer (count, total)', async () => {
    const data = await exportIn(FIXED);
    expect(data.file.contentType).toBe('text/plain; charset=us-ascii');
    const detail = (serial: string, day: string, code: string, cents: string, payee: string): string =>
      `${serial.padStart(10, '0')}${compact(day)}9610123456${code}${cents.padStart(10, '0')}  ${payee.padEnd(20, ' ')}`;
    expect(data.file.content).toBe(
      [
        `*03011000015${'9610123456'.padStart(15, '0')}0`,
        detail('701', day701, '320', '26420', 'MARY MOORE'),
        detail('702', day702, '320', '105624', 'SMART, JAMES & CO'),
        detail('702', day702, '370', '105624', 'SMART, JAMES & CO'),
        // 3 records; 264.20 + 1,056.24 + 1,056.24 in cents.
        '&  00003 0000237668',
        '',
      ].join('\r\n'),
    );
    expect(data.positivePayExport).toMatchObject({ issuedCount: 2, voidCount: 1 });
  });

  /**
   * Runs `body` with the company in a zone whose date is not UTC's right now (+14 h late in the
   * UTC day, -11 h early), through a new key (a key's caller is cached with its zone); the range
   * reaches two days past UTC's today so the void, dated in that zone, is in it.
   */
  async function inFarZone(
    body: (zoned: Client, fileDay: string, range: { from: string; to: string }) => Promise<void>,
  ) {
    const timeZone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const fileDay = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    expect(fileDay).not.toBe(isoDay(Date.now()));
    const before = await t.database.db.get<{ zone: string }>('SELECT time_zone AS zone FROM accounts WHERE email = ?', [
      email,
    ]);
    await t.database.db.run('UPDATE accounts SET time_zone = ? WHERE email = ?', [timeZone, email]);
    try {
      await body(await t.client(email), fileDay, { from, to: isoDay(Date.now() + 2 * DAY) });
    } finally {
      await t.database.db.run('UPDATE accounts SET time_zone = ? WHERE email = ?', [before?.zone ?? 'UTC', email]);
    }
  }

  it("Bank of America's shape: a bank id and the file's date in the company's zone, an 1EOF trailer with the count, the check-number sum and the total; the panel's download and the command line's the same bytes", async () => {
    await inFarZone(async (zoned, fileDay, range) => {
      const data = await exportIn(BANK_OF_AMERICA, range, zoned);
      const mmddyy = (iso: string): string => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(2, 4)}`;
      const detail = (serial: string, cents: string, day: string, payee: string): string =>
        `${serial.padStart(10, '0')}${cents.padStart(10, '0')}9610123456${mmddyy(day)} ${payee.padEnd(43, ' ')}`;
      const expected = [
        `DRS355009610123456${compact(fileDay)}`,
        detail('701', '26420', day701, 'MARY MOORE'),
        detail('702', '105624', day702, 'SMART, JAMES & CO'),
        detail('702', '105624', day702, 'SMART, JAMES & CO'),
        // 3 records; 701 + 702 + 702 = 2105; 264.20 + 1,056.24 + 1,056.24 in cents.
        `1EOF 00003${' '.repeat(20)}00000021050000237668`,
        '',
      ].join('\r\n');
      expect(data.file.content).toBe(expected);
      // The panel's download: the same layout, the same day, the same bytes.
      const panel = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
        env: 'test',
        bankAccountId,
        ...range,
        format: 'bank',
      });
      expect(panel.status, panel.body).toBe(200);
      expect(panel.body).toBe(expected);
      // The command line's export (`--format bank`), the account's zone read as the CLI reads it.
      const dir = mkdtempSync(join(tmpdir(), 'cw-pp-shapes-'));
      try {
        const out = join(dir, 'bofa.txt');
        const session = { db: t.database.db, context: async () => t.serviceContext() };
        const args = ['--email', email, '--bank-account', bankAccountId, '--from', range.from, '--to', range.to];
        expect(await positivePayCommand(session, 'export', [...args, '--format', 'bank', '--out', out])).toBe(0);
        expect(readFileSync(out, 'utf8')).toBe(expected);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
      // The layout's sample on the layouts page: the sample check (account 123456789, check 1001,
      // 2026-01-15, $1,234.56, Sample Payee Inc) in a file written on the sample's day, 2026-01-20.
      const listed = await visitor.get('/panel/positive-pay/layouts');
      expect(listed.body).toContain(
        [
          '<pre class="sample">DRS35500012345678920260120',
          `000000100100001234560123456789011526 ${'SAMPLE PAYEE INC'.padEnd(43, ' ')}`,
          `1EOF 00001${' '.repeat(20)}00000010010000123456`,
          '</pre>',
        ].join('\r\n'),
      );
    });
  });

  it('the payee over two fields, broken at a space, and a void dated the day the file is written', async () => {
    await inFarZone(async (zoned, fileDay, range) => {
      const data = await exportIn(TWO_PAYEE_LINES, range, zoned);
      const mmddyyyy = (iso: string): string => `${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(0, 4)}`;
      expect(data.file.content).toBe(
        [
          `I961012345600070100026420${mmddyyyy(day701)}MARY MOORE${' '.repeat(10)}`,
          // "Smart, James & Co": the last space within 10 characters is after "Smart,".
          `I961012345600070200105624${mmddyyyy(day702)}SMART,    JAMES & CO`,
          `V961012345600070200105624${mmddyyyy(fileDay)}SMART,    JAMES & CO`,
          '',
        ].join('\r\n'),
      );
    });
  });

  it('the new sources misplaced or incomplete: a 422 naming each field under its record, nothing stored', async () => {
    const stored = async (): Promise<number> =>
      Number((await t.database.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM positive_pay_layouts'))?.n);
    const before = await stored();
    const unread = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', {
      ...TWO_PAYEE_LINES,
      name: 'Misplaced',
      header: 'literal:"H" 1; fileDate 8',
    });
    expect(unread.status).toBe(422);
    expect(unread.body).toContain(
      '<ul class="problem" id="header-error"><li>Field 2: fileDate needs a format, one of fileDate:YYYY-MM-DD,',
    );
    const misplaced = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', {
      ...TWO_PAYEE_LINES,
      name: 'Misplaced',
      header: 'literal:"H" 1; issueOrFileDate:MMDDYY 6',
      detail:
        'code 1; accountNumber 10; checkNumber 6; amount:cents 8; issueDate:MMDDYY 6; payeeLine2 10; checkNumberTotal 10',
    });
    expect(misplaced.status).toBe(422);
    expect(misplaced.body).toContain(
      '<ul class="problem" id="detail-error"><li>Field 6: payeeLine2 needs a payeeLine1 field before it in the record.</li><li>Field 7: record counts and totals belong in a header or trailer.</li></ul>',
    );
    expect(misplaced.body).toContain(
      '<ul class="problem" id="header-error"><li>Field 2: check values belong in the detail record.</li></ul>',
    );
    expect(await stored()).toBe(before);
  });

  it("a layout too narrow for this account's number is a 422 naming the field, and records nothing", async () => {
    // A sheet typed with an 8-digit account field, for a 10-digit account: refused, never cut.
    const narrow = {
      ...FIXED,
      name: 'Too narrow',
      header: '',
      trailer: '',
      detail: FIXED.detail.replace('accountNumber 10', 'accountNumber 8'),
    };
    const saved = await visitor.submit('/panel/positive-pay/layouts', '/panel/positive-pay/layouts', narrow);
    expect(saved.status).toBe(303);
    const row = await t.database.db.get<{ id: string }>('SELECT id FROM positive_pay_layouts WHERE name = ?', [
      'Too narrow',
    ]);
    const chose = await visitor.submit(
      `/panel/bank-accounts/${bankAccountId}`,
      `/panel/bank-accounts/${bankAccountId}/positive-pay-layout`,
      { env: 'test', positivePayLayout: row?.id ?? '' },
    );
    expect(chose.status).toBe(303);
    const exports = async (): Promise<number> =>
      Number((await t.database.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM positive_pay_exports'))?.n);
    const before = await exports();
    const answer = await api.post('/positive-pay-exports', { bankAccountId, from, to, format: 'bank' });
    expect(answer.status, JSON.stringify(answer.body)).toBe(422);
    expect(answer.body.errorMsg).toContain('The format field');
    expect(answer.body.errorMsg).toContain('the account number does not fit 8 digits');
    expect(answer.body.errorMsg).toContain('"Too narrow"');
    // The panel's download says the same under the layout select, with the form kept.
    const panel = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from,
      to,
      format: 'bank',
    });
    expect(panel.status).toBe(422);
    expect(panel.body).toContain('the account number does not fit 8 digits');
    expect(panel.body).toContain('id="format-error"');
    expect(await exports()).toBe(before);
  });
});
