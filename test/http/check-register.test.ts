// Clearing, the cleared-items file and the register over HTTP (docs/reconciliation.md), on both
// databases. The register's running totals are checked against a sum computed here from
// GET /checks alone; the reconciliation against the checks' state read back one by one.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../src/domain/dates.ts';
import { checkRegisterAnchors, checkRegisterPage } from '../../src/store/check-register.repository.ts';
import { seedChecks } from '../../bench/seed.ts';
import { dialects } from '../support/databases.ts';
import { BASE, replyOf, seedBasics, startTestApp, type Client, type Reply, type TestApp } from '../support/app.ts';
import { testWorker } from '../support/worker.ts';

interface WireCheck {
  checkId: string;
  serialNumber: string;
  amount: number;
  date: string;
  status: number;
  clearedDate: string | null;
  bankAccount: { bankAccountId: string };
  checkStatements: { status: string }[];
}

const TODAY = today('UTC');
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe.each(dialects())('register and reconciliation (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  // Written a month ago: a check clears on or after its date, and the tests clear on days past.
  const newCheck = async (extra: Record<string, unknown> = {}): Promise<WireCheck> => {
    const created = await api.post('/checks', { checks: [{ ...ids, amount: 50, issueDate: daysAgo(30), ...extra }] });
    expect(created.status).toBe(201);
    return (await api.get(`/checks/${created.body.data.checks[0].checkId}`)).body.data;
  };
  const print = async (client: Client, checkIds: string[]): Promise<void> => {
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${client.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds }),
    });
    expect(printed.statusCode).toBe(200);
  };
  const issued = async (extra: Record<string, unknown> = {}): Promise<WireCheck> => {
    const check = await newCheck(extra);
    await print(api, [check.checkId]);
    return (await api.get(`/checks/${check.checkId}`)).body.data;
  };
  const read = async (id: string): Promise<WireCheck> => (await api.get(`/checks/${id}`)).body.data;
  const upload = async (
    client: Client,
    bankAccountId: string,
    body: string,
    contentType = 'text/csv',
    query = '',
  ): Promise<Reply> =>
    replyOf(
      await t.app.inject({
        method: 'POST',
        url: `${BASE}/bankAccounts/${bankAccountId}/clearedItems${query}`,
        headers: { authorization: `Bearer ${client.key}`, 'content-type': contentType },
        payload: body,
      }),
    );

  beforeAll(async () => {
    // The webhook receiver of the last test listens on loopback.
    // (and its worker needs an SMTP address, though it sends no mail).
    t = await startTestApp(dialect, { WEBHOOKS_ALLOW_PRIVATE: 'true', SMTP_URL: 'smtp://127.0.0.1:9' });
    api = await t.client('register@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('clears an issued check with a date and a statement, keeping its status; refuses twice, new, void, bad and future dates; un-clears', async () => {
    const check = await issued();
    const cleared = await api.post(`/checks/${check.checkId}/clear`, { clearedDate: daysAgo(1) });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.clearedDate).toBe(daysAgo(1));
    expect(cleared.body.data.checkStatus).toEqual({ status: 1, description: 'Printed' });
    expect(cleared.body.data.checkStatements.map((s: { status: string }) => s.status)).toEqual([
      'created',
      'printed',
      'cleared',
    ]);
    // The list shows the same addition.
    const listed = (await api.get('/checks?perPage=500')).body.data.checks.find(
      (c: WireCheck) => c.checkId === check.checkId,
    );
    expect(listed.clearedDate).toBe(daysAgo(1));

    const twice = await api.post(`/checks/${check.checkId}/clear`, { clearedDate: TODAY });
    expect(twice.status).toBe(422);
    expect(twice.body).toEqual({
      success: false,
      errorMsg: `The check cannot be cleared: it already cleared on ${daysAgo(1)}.`,
    });
    // Voiding a paid check is refused and changes nothing.
    const voided = await api.post(`/checks/${check.checkId}/void`);
    expect(voided.status).toBe(422);
    expect(voided.body.errorMsg).toBe(
      `The check cannot be voided: it cleared on ${daysAgo(1)}. Un-clear it first if that was a mistake.`,
    );
    expect((await read(check.checkId)).status).toBe(1);

    const fresh = await newCheck();
    const notIssued = await api.post(`/checks/${fresh.checkId}/clear`, {});
    expect(notIssued.status).toBe(422);
    expect(notIssued.body.errorMsg).toBe('The check cannot be cleared: its status is new: it was never issued.');
    const gone = await issued();
    expect((await api.post(`/checks/${gone.checkId}/void`)).status).toBe(200);
    expect((await api.post(`/checks/${gone.checkId}/clear`)).body.errorMsg).toBe(
      'The check cannot be cleared: its status is void.',
    );

    const other = await issued();
    for (const [date, message] of [
      ['2026-02-30', 'The clearedDate field must be a valid date: February 2026 has 28 days.'],
      [
        'yesterday',
        'The clearedDate field must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time).',
      ],
      ['2999-01-01', `The clearedDate field must not be after today (${TODAY}).`],
    ]) {
      const refused = await api.post(`/checks/${other.checkId}/clear`, { clearedDate: date });
      expect(refused.status).toBe(422);
      expect(refused.body.errorMsg).toBe(message);
    }
    expect((await api.post(`/checks/${other.checkId}/clear`, { when: TODAY })).status).toBe(422);
    expect((await read(other.checkId)).clearedDate).toBeNull();
    // No body: today.
    const noBody = await api.post(`/checks/${other.checkId}/clear`);
    expect(noBody.status).toBe(200);
    expect(noBody.body.data.clearedDate).toBe(TODAY);

    const undone = await api.post(`/checks/${check.checkId}/unclear`);
    expect(undone.status).toBe(200);
    expect(undone.body.data.clearedDate).toBeNull();
    expect(undone.body.data.checkStatements.map((s: { status: string }) => s.status)).toEqual([
      'created',
      'printed',
      'cleared',
      'uncleared',
    ]);
    expect((await api.post(`/checks/${check.checkId}/unclear`)).body).toEqual({
      success: false,
      errorMsg: 'The check cannot be un-cleared: it has not cleared.',
    });
    // Once un-cleared it may be voided again.
    expect((await api.post(`/checks/${check.checkId}/void`)).status).toBe(200);
  });

  it('a clearing and a void racing each other never both win', async () => {
    for (let i = 0; i < 6; i += 1) {
      const check = await issued();
      const [clear, voided] = await Promise.all([
        api.post(`/checks/${check.checkId}/clear`, {}),
        api.post(`/checks/${check.checkId}/void`),
      ]);
      expect([clear.status, voided.status].sort()).toEqual([200, 422]);
      const after = await read(check.checkId);
      expect(after.status === 5 && after.clearedDate !== null).toBe(false);
      expect(after.status === 5).toBe(voided.status === 200);
      expect(after.clearedDate !== null).toBe(clear.status === 200);
    }
  });

  it("answers 404 for another account's and the other environment's checks and bank accounts, changing nothing", async () => {
    const check = await issued();
    const stranger = await t.client('stranger@example.com');
    const live = await t.client('register@example.com', { env: 'live' });
    for (const client of [stranger, live]) {
      const clear = await client.post(`/checks/${check.checkId}/clear`, {});
      expect(clear.status).toBe(404);
      expect(clear.body).toEqual({ success: false, errorMsg: 'Check not found.' });
      expect((await client.post(`/checks/${check.checkId}/unclear`)).status).toBe(404);
      const register = await client.get(`/bankAccounts/${ids.bankAccountId}/register`);
      expect(register.status).toBe(404);
      expect(register.body).toEqual({ success: false, errorMsg: 'Bank account not found.' });
      const file = await upload(client, ids.bankAccountId, `Check Number,Amount\n${check.serialNumber},50.00\n`);
      expect(file.status).toBe(404);
      expect(file.body).toEqual({ success: false, errorMsg: 'Bank account not found.' });
    }
    expect((await read(check.checkId)).clearedDate).toBeNull();
    expect((await api.get('/bankAccounts/nope/register')).status).toBe(404);
  });

  it('reconciles a cleared-items file: matches on number AND amount clear with their dates; every kind of mismatch is listed and changes nothing', async () => {
    const bank = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Payroll', routingNumber: '011000015', accountNumber: '99887766', startingSerial: 500 }],
      })
    ).body.data.bankAccounts[0].bankAccountId as string;
    const on = { bankAccountId: bank };
    const a = await issued({ ...on, amount: 125.5 });
    const b = await issued({ ...on, amount: 1234.56 });
    const differs = await issued({ ...on, amount: 80 });
    const voided = await issued({ ...on, amount: 60 });
    expect((await api.post(`/checks/${voided.checkId}/void`)).status).toBe(200);
    const already = await issued({ ...on, amount: 70 });
    expect((await api.post(`/checks/${already.checkId}/clear`, { clearedDate: daysAgo(10) })).status).toBe(200);
    const fresh = await newCheck({ ...on, amount: 90 });
    // The same number on the first bank account is not this account's check.
    const elsewhere = await issued({ amount: 33 });

    const file = [
      'Account,****7766',
      '',
      'Serial Number,Paid Date,Paid Amount,Description',
      `${a.serialNumber},${daysAgo(2).slice(5, 7)}/${daysAgo(2).slice(8)}/${daysAgo(2).slice(0, 4)},$125.50,CHECK`,
      `000${b.serialNumber},${daysAgo(3)},"1,234.56",CHECK`,
      `${differs.serialNumber},${daysAgo(3)},80.01,CHECK`,
      `${voided.serialNumber},${daysAgo(3)},60.00,CHECK`,
      `${already.serialNumber},${daysAgo(3)},70.00,CHECK`,
      `${fresh.serialNumber},${daysAgo(3)},90.00,CHECK`,
      `99999,${daysAgo(3)},10.00,CHECK`,
      `${a.serialNumber},${daysAgo(1)},125.50,CHECK`,
      `,${daysAgo(3)},500.00,DEPOSIT`,
      `${elsewhere.serialNumber === a.serialNumber ? '1' : elsewhere.serialNumber},${daysAgo(3)},33.00,CHECK`,
      '',
    ].join('\r\n');
    const before = new Map<string, WireCheck>();
    for (const c of [differs, voided, already, fresh, elsewhere]) before.set(c.checkId, await read(c.checkId));

    const result = await upload(api, bank, file);
    expect(result.status).toBe(200);
    expect(result.body.message).toBe('2 checks cleared; 7 rows do not match.');
    expect(result.body.data.columns).toEqual({
      checkNumber: 'Serial Number',
      amount: 'Paid Amount',
      date: 'Paid Date',
    });
    expect(result.body.data.skippedLines).toBe(1);
    expect(result.body.data.cleared).toEqual({ count: 2, total: 1360.06 });
    expect(result.body.data.matched).toEqual([
      { line: 4, checkNumber: a.serialNumber, amount: 125.5, clearedDate: daysAgo(2), checkId: a.checkId },
      { line: 5, checkNumber: `000${b.serialNumber}`, amount: 1234.56, clearedDate: daysAgo(3), checkId: b.checkId },
    ]);
    const reasons = result.body.data.mismatched.map((m: { line: number; reason: string; checkId: string | null }) => [
      m.line,
      m.reason,
      m.checkId,
    ]);
    expect(reasons).toEqual([
      [6, 'amount_differs', differs.checkId],
      [7, 'void', voided.checkId],
      [8, 'already_cleared', already.checkId],
      [9, 'not_issued', fresh.checkId],
      [10, 'unknown_number', null],
      [11, 'duplicate_line', a.checkId],
      [13, 'unknown_number', null],
    ]);
    const byLine = new Map(result.body.data.mismatched.map((m: { line: number }) => [m.line, m]));
    expect(byLine.get(6)).toMatchObject({
      amount: 80.01,
      checkAmount: 80,
      message: `Check ${differs.serialNumber} is for $80.00; the bank paid $80.01.`,
    });
    expect(byLine.get(8)).toMatchObject({ checkClearedDate: daysAgo(10), checkStatus: 1 });

    // What the file says cleared did, with the row's date and a statement; nothing else moved.
    expect(await read(a.checkId)).toMatchObject({ clearedDate: daysAgo(2), status: 1 });
    expect((await read(a.checkId)).checkStatements.map((s) => s.status)).toEqual(['created', 'printed', 'cleared']);
    expect((await read(b.checkId)).clearedDate).toBe(daysAgo(3));
    for (const [id, was] of before) expect(await read(id)).toEqual(was);

    // The same file again: everything that matched is now "already cleared", nothing changes.
    const again = await upload(api, bank, file);
    expect(again.status).toBe(200);
    expect(again.body.data.matched).toEqual([]);
    expect(again.body.data.mismatched.filter((m: { reason: string }) => m.reason === 'already_cleared')).toHaveLength(
      3,
    );
  });

  it('a cleared-items upload retried with its Idempotency-Key answers the first result again and clears nothing twice', async () => {
    const check = await issued({ amount: 64 });
    const send = (body: string) =>
      t.app.inject({
        method: 'POST',
        url: `${BASE}/bankAccounts/${ids.bankAccountId}/clearedItems`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'text/csv', 'idempotency-key': 'paid-items-1' },
        payload: body,
      });
    const file = `Check Number,Amount\n${check.serialNumber},64.00\n`;
    const first = await send(file);
    expect(first.statusCode).toBe(200);
    expect(JSON.parse(first.body).data.cleared.count).toBe(1);
    const again = await send(file);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect((await read(check.checkId)).checkStatements.filter((s) => s.status === 'cleared')).toHaveLength(1);
    const other = await send(`${file}1,1.00\n`);
    expect(other.statusCode).toBe(422);
    expect(JSON.parse(other.body).errorMsg).toBe('This Idempotency-Key was already used with a different request.');
  });

  it('a file that cannot be read is a 4xx in the error shape and clears nothing, not even its good rows', async () => {
    const good = await issued({ amount: 42 });
    const refusals: [string, string, number, string][] = [
      [
        'text/csv',
        'Date,Description,Amount\n2026-01-01,x,1.00\n',
        422,
        'The file lists no checks paid: no row has a check number in the "Description" column',
      ],
      [
        'text/csv',
        `Check Number,Amount\n${good.serialNumber},42.00\n77,abc\n`,
        422,
        'Line 3: the amount "abc" of check 77 is not an amount.',
      ],
      [
        'text/csv',
        `Check Number,Amount,Date\n${good.serialNumber},42.00,2026-13-01\n`,
        422,
        'Line 2: the date "2026-13-01"',
      ],
      ['text/csv', `Check Number,Amount,Date\n${good.serialNumber},42.00,2999-01-01\n`, 422, 'after today'],
      ['text/csv', `Check Number,Amount\n"${good.serialNumber},42.00\n`, 422, 'a quoted field is not closed'],
      ['text/csv', 'Check Number,Amount\n,\n', 422, 'The file lists no checks'],
      ['text/csv', '   ', 422, 'The cleared-items file is empty.'],
      ['application/json', JSON.stringify({ csv: 'Check Number,Amount' }), 400, 'Content-Type text/csv'],
      ['application/pdf', 'Check Number,Amount\n1,1\n', 400, ''],
    ];
    for (const [type, body, status, message] of refusals) {
      const res = await upload(api, ids.bankAccountId, body, type);
      expect(res.status, `${type} ${body}`).toBe(status);
      expect(res.body.success).toBe(false);
      expect(res.body.errorMsg).toContain(message);
    }
    const badQuery = await upload(
      api,
      ids.bankAccountId,
      `Check Number,Amount\n${good.serialNumber},42\n`,
      'text/csv',
      '?clearedDate=soon',
    );
    expect(badQuery.status).toBe(422);
    const huge = await upload(api, ids.bankAccountId, `Check Number,Amount\n${'1,1.00\n'.repeat(200_000)}`);
    expect(huge.status).toBe(413);
    expect(huge.body.success).toBe(false);
    const many = await upload(api, ids.bankAccountId, `Check Number,Amount\n${'1,1.00\n'.repeat(10_001)}`);
    expect(many.status).toBe(422);
    expect(many.body.errorMsg).toBe('The file has more than 10,000 rows: split it.');
    expect((await read(good.checkId)).clearedDate).toBeNull();
    // A file without a date column takes ?clearedDate=.
    const dated = await upload(
      api,
      ids.bankAccountId,
      `Check #,Amount\n${good.serialNumber},42\n`,
      'text/csv',
      `?clearedDate=${daysAgo(4)}`,
    );
    expect(dated.status).toBe(200);
    expect((await read(good.checkId)).clearedDate).toBe(daysAgo(4));
  });

  it('the register pages every check with running outstanding totals equal to a sum computed from GET /checks', async () => {
    const bank = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Totals', routingNumber: '011000015', accountNumber: '55554444', startingSerial: 9000 }],
      })
    ).body.data.bankAccounts[0].bankAccountId as string;
    // 23 checks on 6 different dates, written out of date order, in every state the register shows.
    const made: string[] = [];
    for (let i = 0; i < 23; i += 1) {
      const created = await api.post('/checks', {
        checks: [
          { ...ids, bankAccountId: bank, amount: ((i * 3701) % 90_000) / 100 + 1, issueDate: daysAgo((i * 7) % 6) },
        ],
      });
      made.push(created.body.data.checks[0].checkId);
    }
    await print(
      api,
      made.filter((_, i) => i % 5 !== 0),
    );
    for (const [i, id] of made.entries()) {
      if (i % 5 === 0) continue;
      if (i % 4 === 1) expect((await api.post(`/checks/${id}/clear`, { clearedDate: daysAgo(0) })).status).toBe(200);
      else if (i % 7 === 3) expect((await api.post(`/checks/${id}/void`)).status).toBe(200);
    }
    const changes = async () =>
      Number((await t.database.db.get<{ n: number }>('SELECT SUM(n) AS n FROM check_changes'))?.n);
    const changedBefore = await changes();

    // Independent: every check from GET /checks (newest first), this bank account's, in register order.
    const all: WireCheck[] = [];
    for (let page = 1; ; page += 1) {
      const got = (await api.get(`/checks?perPage=100&page=${page}`)).body.data.checks as WireCheck[];
      all.push(...got);
      if (got.length < 100) break;
    }
    const mine = all
      .map((c, newestFirst) => ({ c, created: -newestFirst }))
      .filter(({ c }) => c.bankAccount.bankAccountId === bank)
      .sort((x, y) => (x.c.date === y.c.date ? x.created - y.created : x.c.date < y.c.date ? -1 : 1))
      .map(({ c }) => c);
    expect(mine).toHaveLength(23);
    const outstandingCents = (c: WireCheck) =>
      [1, 2, 3, 4].includes(c.status) && c.clearedDate === null ? Math.round(c.amount * 100) : 0;
    let running = 0;
    const expected = mine.map((c) => {
      running += outstandingCents(c);
      return { checkId: c.checkId, runningOutstanding: running / 100, outstanding: outstandingCents(c) > 0 };
    });
    const outstandingCount = mine.filter((c) => outstandingCents(c) > 0).length;
    expect(outstandingCount).toBeGreaterThan(3);

    // Pages of 4: the first half is summed from the start, the second from the end.
    const rows: { checkId: string; runningOutstanding: number; outstanding: boolean }[] = [];
    for (let page = 1; page <= 7; page += 1) {
      const reg = await api.get(`/bankAccounts/${bank}/register?perPage=4&page=${page}`);
      expect(reg.status).toBe(200);
      expect(reg.body.data.meta).toEqual({ total: 23, currentPage: page, perPage: 4 });
      expect(reg.body.data.bankAccount).toEqual({ bankAccountId: bank, name: 'Totals' });
      expect(reg.body.data.outstanding).toEqual({ count: outstandingCount, total: running / 100 });
      rows.push(
        ...reg.body.data.checks.map((r: { checkId: string; runningOutstanding: number; outstanding: boolean }) => ({
          checkId: r.checkId,
          runningOutstanding: r.runningOutstanding,
          outstanding: r.outstanding,
        })),
      );
    }
    expect(rows).toEqual(expected);
    const one = (await api.get(`/bankAccounts/${bank}/register?perPage=500`)).body.data.checks;
    const byId = new Map(mine.map((c) => [c.checkId, c]));
    for (const row of one) {
      const c = byId.get(row.checkId);
      expect(row).toMatchObject({
        serialNumber: c?.serialNumber,
        date: c?.date,
        amount: c?.amount,
        status: c?.status,
        clearedDate: c?.clearedDate,
      });
    }
    expect((await api.get(`/bankAccounts/${bank}/register?page=99`)).body.data.checks).toEqual([]);
    // Long registers page from anchors (every 1,000th check): the same rows and totals as without.
    const db = t.database.db;
    const anchors = await checkRegisterAnchors(db, bank, 5);
    expect(anchors.map((a) => a.id)).toEqual(expected.filter((_, i) => i % 5 === 0).map((e) => e.checkId));
    for (let offset = 0; offset < 23; offset += 3) {
      const anchor = anchors[Math.floor(offset / 5)];
      if (anchor === undefined) throw new Error('anchor missing');
      const anchored = await checkRegisterPage(db, bank, 4, offset, 23, { key: anchor, skip: offset % 5 });
      expect(anchored).toEqual(await checkRegisterPage(db, bank, 4, offset, 23));
      expect(anchored.map((e) => e.id)).toEqual(expected.slice(offset, offset + 4).map((e) => e.checkId));
    }
    // Reading the register changed nothing.
    expect(await changes()).toBe(changedBefore);
  });

  it('a register of 12,000 checks pages from its anchors, and after a change from the nearer end, with the totals of GET /checks', async () => {
    const bank = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Long', routingNumber: '011000015', accountNumber: '77776666' }],
      })
    ).body.data.bankAccounts[0].bankAccountId as string;
    const account = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'register@example.com',
    ]);
    // Written straight to the store (the benchmark's seeder): 12,000 checks over the API would take minutes.
    await seedChecks(
      t.database.db,
      {
        owner: { accountId: account?.id ?? '', env: 'test' },
        bankAccountId: bank,
        payees: [{ id: ids.payeeId, name: 'Acme Supplies' }],
      },
      null,
      12_000,
      {},
      () => undefined,
    );
    const expectedRegister = async () => {
      const all: WireCheck[] = [];
      for (let page = 1; ; page += 1) {
        const got = (await api.get(`/checks?perPage=500&page=${page}`)).body.data.checks as WireCheck[];
        all.push(...got);
        if (got.length < 500) break;
      }
      const mine = all
        .map((c, newestFirst) => ({ c, created: -newestFirst }))
        .filter(({ c }) => c.bankAccount.bankAccountId === bank)
        .sort((x, y) => (x.c.date === y.c.date ? x.created - y.created : x.c.date < y.c.date ? -1 : 1))
        .map(({ c }) => c);
      let running = 0;
      return mine.map((c) => {
        running += [1, 2, 3, 4].includes(c.status) && c.clearedDate === null ? Math.round(c.amount * 100) : 0;
        return `${c.checkId} ${running}`;
      });
    };
    const registerRows = async () => {
      const rows: string[] = [];
      for (let page = 1; page <= 24; page += 1) {
        const got = (await api.get(`/bankAccounts/${bank}/register?perPage=500&page=${page}`)).body.data;
        expect(got.meta.total).toBe(12_000);
        rows.push(
          ...got.checks.map(
            (r: { checkId: string; runningOutstanding: number }) =>
              `${r.checkId} ${Math.round(r.runningOutstanding * 100)}`,
          ),
        );
      }
      return rows;
    };
    const before = await expectedRegister();
    expect(before).toHaveLength(12_000);
    expect(await registerRows()).toEqual(before);
    // A clearing in the middle moves every later running total; the anchors were just counted, so
    // these pages are read from the nearer end until the next count.
    let cleared = '';
    for (const line of before.slice(6_000)) {
      const id = line.split(' ')[0] ?? '';
      if ((await api.post(`/checks/${id}/clear`, {})).status === 200) {
        cleared = id;
        break;
      }
    }
    expect(cleared).not.toBe('');
    const after = await expectedRegister();
    expect(after).not.toEqual(before);
    expect(await registerRows()).toEqual(after);
  }, 120_000);

  it('check.cleared and check.uncleared reach a webhook endpoint through the outbox', async () => {
    const posts: { type: string; data: Record<string, unknown> }[] = [];
    const server: Server = createServer((request, response) => {
      let body = '';
      request.on('data', (c: Buffer) => {
        body += c.toString('utf8');
      });
      request.on('end', () => {
        posts.push((JSON.parse(body) as { event: { type: string; data: Record<string, unknown> } }).event);
        response.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const { worker, close } = testWorker(t);
    try {
      const hooked = await t.client('hooked@example.com');
      const bank = await seedBasics(hooked);
      const endpoint = await hooked.post('/webhooks', {
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
        events: ['check.cleared', 'check.uncleared'],
      });
      expect(endpoint.status).toBe(201);
      const created = await hooked.post('/checks', {
        checks: [
          { ...bank, amount: 10, issueDate: daysAgo(30) },
          { ...bank, amount: 20, issueDate: daysAgo(30) },
        ],
      });
      const [first, second] = created.body.data.checks as { checkId: string; serialNumber: string }[];
      if (first === undefined || second === undefined) throw new Error('two checks expected');
      await print(hooked, [first.checkId, second.checkId]);
      expect((await hooked.post(`/checks/${first.checkId}/clear`, { clearedDate: daysAgo(1) })).status).toBe(200);
      expect((await hooked.post(`/checks/${first.checkId}/unclear`)).status).toBe(200);
      const file = await upload(
        hooked,
        bank.bankAccountId,
        `Check Number,Amount,Posted Date\n${second.serialNumber},20.00,${daysAgo(2)}\n`,
      );
      expect(file.body.data.cleared.count).toBe(1);
      for (let i = 0; i < 200 && posts.length < 3; i += 1) {
        await worker.drain();
        await new Promise((r) => setTimeout(r, 10));
      }
      await worker.drain();
      // The worker sends deliveries in parallel: their order is not the events' order.
      const seen = posts.map((p) => [p.type, p.data.checkId, p.data.clearedDate, p.data.status]);
      expect(seen.sort((x, y) => String(x).localeCompare(String(y)))).toEqual(
        [
          ['check.cleared', first.checkId, daysAgo(1), 1],
          ['check.cleared', second.checkId, daysAgo(2), 1],
          ['check.uncleared', first.checkId, null, 1],
        ].sort((x, y) => String(x).localeCompare(String(y))),
      );
    } finally {
      close();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });
});
