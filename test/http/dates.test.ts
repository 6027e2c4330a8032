// Dates that make sense. Every date a client sends — a cleared date (by hand and
// in the bank's file), a check's issue date (create, edit, import), a voucher's date, a positive
// pay range — is a real day in a sane range, and a cleared date is neither before the check's own
// date nor after today in the account's time zone. Each refusal is a 422 naming the field and
// changes nothing (the check read back).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addYears, today } from '../../src/domain/dates.ts';
import { dialects } from '../support/databases.ts';
import { BASE, replyOf, seedBasics, startTestApp, type Client, type Reply, type TestApp } from '../support/app.ts';

const TODAY = today('UTC');
const daysFrom = (day: string, n: number): string =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
const daysAgo = (n: number): string => daysFrom(TODAY, -n);
const LATEST = addYears(TODAY, 1);

describe.each(dialects())('dates that make sense (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  const print = async (client: Client, checkIds: string[]): Promise<void> => {
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds }),
    });
    expect(printed.statusCode).toBe(200);
  };
  /** A printed (issued) check dated `issueDate`, with its serial number. */
  const issued = async (
    client: Client,
    on: { bankAccountId: string; payeeId: string },
    issueDate: string,
    amount = 50,
  ): Promise<{ checkId: string; serialNumber: string }> => {
    const created = await client.post('/checks', { checks: [{ ...on, amount, issueDate }] });
    expect(created.status, created.raw).toBe(201);
    const check = created.body.data.checks[0];
    await print(client, [check.checkId]);
    return check;
  };
  const upload = async (client: Client, bankAccountId: string, csv: string, query = ''): Promise<Reply> =>
    replyOf(
      await t.app.inject({
        method: 'POST',
        url: `${BASE}/bankAccounts/${bankAccountId}/clearedItems${query}`,
        headers: { authorization: `Bearer ${client.key}`, 'content-type': 'text/csv' },
        payload: csv,
      }),
    );
  const refused = (reply: Reply, message: string): void => {
    expect(reply.status, reply.raw).toBe(422);
    expect(reply.body).toEqual({ success: false, errorMsg: message });
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('dates@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('POST /checks/{id}/clear: not before 2000, not before the check’s date, not after today', async () => {
    const check = await issued(api, ids, TODAY);
    for (const [clearedDate, message] of [
      ['1900-01-01', 'The clearedDate field must not be before 2000-01-01.'],
      ['0001-01-01', 'The clearedDate field must be a valid date: the year 1 is before 1900.'],
      [daysAgo(1), `The clearedDate field must not be before the check's issue date (${TODAY}).`],
      [daysFrom(TODAY, 1), `The clearedDate field must not be after today (${TODAY}).`],
      ['9999-12-31', `The clearedDate field must not be after today (${TODAY}).`],
    ] as [string, string][]) {
      refused(await api.post(`/checks/${check.checkId}/clear`, { clearedDate }), message);
    }
    const untouched = (await api.get(`/checks/${check.checkId}`)).body.data;
    expect(untouched.clearedDate).toBeNull();
    expect(untouched.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'printed']);
    // The check's own date is the earliest day it clears.
    const cleared = await api.post(`/checks/${check.checkId}/clear`, { clearedDate: TODAY });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.clearedDate).toBe(TODAY);

    const older = await issued(api, ids, daysAgo(10));
    const ok = await api.post(`/checks/${older.checkId}/clear`, { clearedDate: daysAgo(10) });
    expect(ok.body.data.clearedDate).toBe(daysAgo(10));
  });

  it('"today" is the account’s own day: a zone a day ahead of UTC may clear on its today', async () => {
    // A zone whose date differs from UTC's right now (+14 h late in the UTC day, -11 h early).
    const ahead = new Date().getUTCHours() >= 10;
    const timeZone = ahead ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
    const localDay = new Intl.DateTimeFormat('en-CA', { timeZone }).format(new Date());
    expect(localDay).not.toBe(TODAY);
    const zoned = await t.client('dates-zone@example.com');
    await t.database.db.run('UPDATE accounts SET time_zone = ? WHERE email = ?', [timeZone, 'dates-zone@example.com']);
    const on = await seedBasics(zoned);
    const check = await issued(zoned, on, daysAgo(5));
    if (ahead) {
      // Tomorrow in UTC is today in Kiritimati: accepted there, as UTC would refuse it.
      const cleared = await zoned.post(`/checks/${check.checkId}/clear`, { clearedDate: localDay });
      expect(cleared.status, cleared.raw).toBe(200);
      expect(cleared.body.data.clearedDate).toBe(localDay);
    } else {
      // Today in UTC is still tomorrow in Pago Pago: refused there.
      refused(
        await zoned.post(`/checks/${check.checkId}/clear`, { clearedDate: TODAY }),
        `The clearedDate field must not be after today (${localDay}).`,
      );
      expect((await zoned.post(`/checks/${check.checkId}/clear`, {})).body.data.clearedDate).toBe(localDay);
    }
  });

  it('the cleared-items file: a row paid before the check’s date is a mismatch that clears nothing; a bad fallback date is a 422', async () => {
    const early = await issued(api, ids, daysAgo(3), 11);
    const ancient = await issued(api, ids, daysAgo(3), 12);
    const good = await issued(api, ids, daysAgo(3), 13);
    const csv = [
      'Check Number,Amount,Paid Date',
      `${early.serialNumber},11.00,${daysAgo(5)}`,
      `${ancient.serialNumber},12.00,1900-01-01`,
      `${good.serialNumber},13.00,${daysAgo(1)}`,
    ].join('\n');
    const result = await upload(api, ids.bankAccountId, csv);
    expect(result.status, result.raw).toBe(200);
    expect(result.body.data.matched.map((m: { checkNumber: string }) => m.checkNumber)).toEqual([good.serialNumber]);
    expect(
      result.body.data.mismatched.map((m: { checkNumber: string; reason: string; message: string }) => [
        m.checkNumber,
        m.reason,
        m.message,
      ]),
    ).toEqual([
      [
        early.serialNumber,
        'date_before_issue',
        `Check ${early.serialNumber} is dated ${daysAgo(3)}; the row says it was paid on ${daysAgo(5)}, before that.`,
      ],
      [
        ancient.serialNumber,
        'date_before_issue',
        `Check ${ancient.serialNumber} is dated ${daysAgo(3)}; the row says it was paid on 1900-01-01, before that.`,
      ],
    ]);
    expect((await api.get(`/checks/${early.checkId}`)).body.data.clearedDate).toBeNull();
    expect((await api.get(`/checks/${ancient.checkId}`)).body.data.clearedDate).toBeNull();

    // The date for rows without one, given in the query: the same rule as a clearing by hand.
    const noDates = `Check Number,Amount\n${early.serialNumber},11.00\n`;
    refused(
      await upload(api, ids.bankAccountId, noDates, '?clearedDate=1900-01-01'),
      'The clearedDate field must not be before 2000-01-01.',
    );
    refused(
      await upload(api, ids.bankAccountId, noDates, '?clearedDate=9999-12-31'),
      `The clearedDate field must not be after today (${TODAY}).`,
    );
    const before = await upload(api, ids.bankAccountId, noDates, `?clearedDate=${daysAgo(4)}`);
    expect(before.body.data.mismatched[0].reason).toBe('date_before_issue');
    expect((await api.get(`/checks/${early.checkId}`)).body.data.clearedDate).toBeNull();
  });

  it('a check’s issue date: from 2000-01-01 to a year after today, on create, edit, voucher and import', async () => {
    for (const [issueDate, message] of [
      ['1900-01-01', 'The checks.0.issueDate field must not be before 2000-01-01.'],
      ['1999-12-31', 'The checks.0.issueDate field must not be before 2000-01-01.'],
      [daysFrom(LATEST, 1), `The checks.0.issueDate field must not be after ${LATEST}.`],
      ['9999-12-31', `The checks.0.issueDate field must not be after ${LATEST}.`],
    ] as [string, string][]) {
      refused(await api.post('/checks', { checks: [{ ...ids, amount: 5, issueDate }] }), message);
    }
    const total = (await api.get('/checks?perPage=1')).body.data.meta.total;
    for (const issueDate of ['2000-01-01', LATEST]) {
      const created = await api.post('/checks', { checks: [{ ...ids, amount: 5, issueDate }] });
      expect(created.status, created.raw).toBe(201);
      expect((await api.get(`/checks/${created.body.data.checks[0].checkId}`)).body.data.date).toBe(issueDate);
    }
    expect((await api.get('/checks?perPage=1')).body.data.meta.total).toBe(total + 2);

    const draft = (await api.post('/checks', { checks: [{ ...ids, amount: 5 }] })).body.data.checks[0];
    refused(
      await api.put(`/checks/${draft.checkId}`, { issueDate: '9999-12-31' }),
      `The issueDate field must not be after ${LATEST}.`,
    );
    refused(
      await api.put(`/checks/${draft.checkId}`, { issueDate: '1900-01-01' }),
      'The issueDate field must not be before 2000-01-01.',
    );
    expect((await api.get(`/checks/${draft.checkId}`)).body.data.date).toBe(TODAY);

    refused(
      await api.post(`/checks/${draft.checkId}/voucher`, { date: '1900-01-01' }),
      'The voucher.date field must not be before 2000-01-01.',
    );
    refused(
      await api.post('/checks', { checks: [{ ...ids, amount: 5, voucher: { date: '9999-12-31' } }] }),
      `The checks.0.voucher.date field must not be after ${LATEST}.`,
    );

    // An import's rows meet the same rule (a preview lists them all; nothing is written).
    const csv = [
      'Payee,Amount,Date',
      'Acme Supplies,5,1900-01-01',
      'Acme Supplies,5,12/31/9999',
      'Acme Supplies,5,2000-01-01',
    ];
    const preview = await api.post('/imports', {
      type: 'checks',
      csv: csv.join('\n'),
      bankAccountId: ids.bankAccountId,
      dryRun: true,
    });
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body.data.errors).toEqual([
      { row: 1, line: 2, messages: ['The issueDate field must not be before 2000-01-01.'] },
      { row: 2, line: 3, messages: [`The issueDate field must not be after ${LATEST}.`] },
    ]);
    expect((await api.get('/checks?perPage=1')).body.data.meta.total).toBe(total + 3);
  });

  it('US dates: MM/DD/YYYY is taken wherever the API takes a date (as a public Java client sends it); a two-digit year is not; a day that does not exist is explained, not called a format', async () => {
    const [year, month, day] = TODAY.split('-');
    const us = `${month}/${day}/${year}`;
    // The check's date, the voucher's date, written the US way, read as the spec's.
    const created = await api.post('/checks', {
      checks: [{ ...ids, amount: '12.00', issueDate: us, voucher: { date: us, voucherItems: [{ total: '12.00' }] } }],
    });
    expect(created.status, created.raw).toBe(201);
    const check = (await api.get(`/checks/${created.body.data.checks[0].checkId}`)).body.data;
    expect(check.date).toBe(TODAY);
    const voucher = (await api.get(`/checks/${check.checkId}/voucher`)).body.data;
    expect(voucher.date).toBe(TODAY);
    // One digit for month or day is how people write it too.
    const short = await api.post('/checks', { checks: [{ ...ids, amount: '1.00', issueDate: '1/2/2026' }] });
    expect(short.status, short.raw).toBe(201);
    expect((await api.get(`/checks/${short.body.data.checks[0].checkId}`)).body.data.date).toBe('2026-01-02');
    // Which century is 01/02/22? Refused as a format, and nothing is written.
    const total = (await api.get('/checks?perPage=1')).body.data.meta.total;
    refused(
      await api.post('/checks', { checks: [{ ...ids, amount: '1.00', issueDate: '01/02/22' }] }),
      'The checks.0.issueDate field must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time).',
    );
    refused(
      await api.post('/checks', { checks: [{ ...ids, amount: '1.00', issueDate: '02/30/2026' }] }),
      'The checks.0.issueDate field must be a valid date: February 2026 has 28 days.',
    );
    refused(
      await api.post('/checks', { checks: [{ ...ids, amount: '1.00', issueDate: '2026-13-01' }] }),
      'The checks.0.issueDate field must be a valid date: there is no month 13.',
    );
    expect((await api.get('/checks?perPage=1')).body.data.meta.total).toBe(total);
    // Positive pay's range and the register's cleared date take both forms and explain a bad day.
    const range = await api.post('/positive-pay-exports', {
      bankAccountId: ids.bankAccountId,
      from: us,
      to: us,
      format: 'csv',
    });
    expect(range.status, range.raw).toBe(201);
    refused(
      await api.post('/positive-pay-exports', {
        bankAccountId: ids.bankAccountId,
        from: '02/30/2026',
        to: us,
        format: 'csv',
      }),
      'The from field must be a valid date: February 2026 has 28 days.',
    );
    const printed = await issued(api, ids, TODAY);
    refused(
      await api.post(`/checks/${printed.checkId}/clear`, { clearedDate: '02/30/2026' }),
      'The clearedDate field must be a valid date: February 2026 has 28 days.',
    );
    const cleared = await api.post(`/checks/${printed.checkId}/clear`, { clearedDate: us });
    expect(cleared.status, cleared.raw).toBe(200);
    expect(cleared.body.data.clearedDate).toBe(TODAY);
    // A row of the bank's file whose date does not exist says why, quoting the cell.
    const other = await issued(api, ids, TODAY);
    const file = await upload(
      api,
      ids.bankAccountId,
      `Check Number,Amount,Date\n${other.serialNumber},50.00,02/30/2026\n`,
    );
    expect(file.status, file.raw).toBe(422);
    expect(file.body.errorMsg).toContain(
      `the date "02/30/2026" of check ${other.serialNumber} is not a date (February 2026 has 28 days).`,
    );
  });

  it('positive pay ranges: both ends where a check’s date can be, from ≤ to, at most 366 days', async () => {
    const exportOf = (from: string, to: string) =>
      api.post('/positive-pay-exports', { bankAccountId: ids.bankAccountId, from, to, format: 'csv' });
    const exportsBefore = (await api.get('/positive-pay-exports')).body.data.meta.total;
    refused(await exportOf('1900-01-01', '1900-12-31'), 'The from field must not be before 2000-01-01.');
    refused(await exportOf(TODAY, '9999-12-31'), `The to field must not be after ${LATEST}.`);
    refused(await exportOf('2026-02-30', TODAY), 'The from field must be a valid date: February 2026 has 28 days.');
    refused(await exportOf(TODAY, daysAgo(1)), 'The to field must be a date after or equal to from.');
    refused(
      await exportOf(daysAgo(366), TODAY),
      'The to field must be at most 365 days after from (a range of at most 366 days).',
    );
    expect((await api.get('/positive-pay-exports')).body.data.meta.total).toBe(exportsBefore);
    expect((await exportOf('2000-01-01', '2000-12-31')).status).toBe(201);
    expect((await exportOf(daysAgo(365), TODAY)).status).toBe(201);
  });
});
