// The register pages on both databases: the bank-account list with outstanding totals, a bank
// account's register (figures compared with the API's), marking cleared by hand (all or nothing),
// taking a clearing back, the cleared-items upload and its result page, and the 404s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../src/domain/dates.ts';
import { dialects } from '../support/databases.ts';
import { BASE, clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { checksCount } from '../../src/panel/bank-accounts/check-register.pages.ts';

const PASSWORD = 'correct horse battery';
const TODAY = today('UTC');
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

/** Text of the element with this id on a page. */
function byId(page: string, id: string): string {
  const match = new RegExp(`id="${id}"[^>]*>([^<]*)<`).exec(page);
  if (match?.[1] === undefined) throw new Error(`no #${id} on the page`);
  return match[1];
}

describe.each(dialects())('register pages (%s)', (dialect) => {
  let t: TestApp;
  let v: Visitor;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };
  let checks: { checkId: string; serialNumber: string; amount: number }[];

  async function visitorWithKey(email: string): Promise<{ visitor: Visitor; client: Client }> {
    const visitor = new Visitor(t.app);
    const signed = await visitor.signUp({ company: 'Acme Payables', email, phone: '+14155552671', password: PASSWORD });
    expect(signed.status).toBe(303);
    return { visitor, client: clientFor(t.app, await visitor.createKey('register test')) };
  }

  /** Posts the upload form as a browser does: multipart, the page's CSRF token, the file. */
  async function upload(visitor: Visitor, bankAccountId: string, csv: string, csrf?: string) {
    const checkRegisterPage = await visitor.get(`/panel/bank-accounts/${bankAccountId}/register`);
    const boundary = '----cwtestboundary7MA4YWxkTrZu0gW';
    const part = (name: string, value: string, file = false) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${file ? '; filename="paid.csv"\r\nContent-Type: text/csv' : ''}\r\n\r\n${value}\r\n`;
    const body = `${part('_csrf', csrf ?? csrfOf(checkRegisterPage.body))}${part('env', 'test')}${part('clearedDate', TODAY)}${part('file', csv, true)}--${boundary}--\r\n`;
    // The form's own action, as a browser posts it.
    const action = /<form method="post" action="([^"]+)" enctype="multipart\/form-data"/.exec(
      checkRegisterPage.body,
    )?.[1];
    if (action === undefined && checkRegisterPage.status === 200)
      throw new Error('no upload form on the register page');
    const response = await t.app.inject({
      method: 'POST',
      // (A register another visitor may not open has no form: the upload goes where it would.)
      url: action ?? `/panel/bank-accounts/${bankAccountId}/cleared-items`,
      remoteAddress: visitor.address,
      headers: {
        cookie: [...visitor.cookies].map(([k, value]) => `${k}=${value}`).join('; '),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    return { status: response.statusCode, body: response.body };
  }

  const apiRegister = async (bankAccountId: string) =>
    (await api.get(`/bankAccounts/${bankAccountId}/register?perPage=500`)).body.data;

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://checks.example' });
    ({ visitor: v, client: api } = await visitorWithKey('register-owner@acme.test'));
    ids = await seedBasics(api);
    const amounts = [100, 250.25, 75.5, 1000, 42, 9.99];
    const created = await api.post('/checks', {
      checks: amounts.map((amount, i) => ({ ...ids, amount, issueDate: daysAgo(6 - i) })),
    });
    checks = created.body.data.checks.map((c: { checkId: string; serialNumber: string }, i: number) => ({
      ...c,
      amount: amounts[i],
    }));
    // The first four are printed (issued); the last two stay new.
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: checks.slice(0, 4).map((c) => c.checkId) }),
    });
    expect(printed.statusCode).toBe(200);
  });
  afterAll(() => t.close());

  it('lists bank accounts with outstanding figures under the Register entry, and the register equals the API', async () => {
    const list = await v.get('/panel/register');
    expect(list.status).toBe(200);
    expect(list.body).toContain('<a href="/panel/register" aria-current="page">Register</a>');
    expect(list.body).toContain(`href="/panel/bank-accounts/${ids.bankAccountId}/register"`);
    expect(list.body).toContain('<td class="num">4</td><td class="num">$1,425.75</td>');

    const page = await v.get(`/panel/bank-accounts/${ids.bankAccountId}/register`);
    expect(page.status).toBe(200);
    const fromApi = await apiRegister(ids.bankAccountId);
    expect(fromApi.outstanding).toEqual({ count: 4, total: 1425.75 });
    expect(byId(page.body, 'outstanding-count')).toBe(String(fromApi.outstanding.count));
    expect(byId(page.body, 'outstanding-total')).toBe('$1,425.75');
    // Each row's running total, in the page's order, is the API's.
    const running = [...page.body.matchAll(/<td class="num">(\$[\d,.]+)<\/td><\/tr>/g)].map((m) => m[1]);
    expect(running).toEqual(
      fromApi.checks.map(
        (c: { runningOutstanding: number }) =>
          `$${c.runningOutstanding.toLocaleString('en-US', { minimumFractionDigits: 2 })}`,
      ),
    );
    expect(running).toEqual(['$100.00', '$350.25', '$425.75', '$1,425.75', '$1,425.75', '$1,425.75']);
    // Only outstanding checks can be ticked, and every box has a label.
    expect(
      [
        ...page.body.matchAll(/type="checkbox" name="checkId" value="([^"]+)" aria-label="Mark check \d+ cleared"/g),
      ].map((m) => m[1]),
    ).toEqual(checks.slice(0, 4).map((c) => c.checkId));
  });

  it('marks ticked checks cleared on a date, all or nothing, and takes a clearing back', async () => {
    const [a, b, , , fresh] = checks;
    if (a === undefined || b === undefined || fresh === undefined) throw new Error('checks missing');
    const path = `/panel/bank-accounts/${ids.bankAccountId}/register`;
    // One check that cannot clear spoils the batch: a 422 page with the message, nothing cleared.
    const refused = await v.submit(path, `${path}/clear`, {
      env: 'test',
      checkId: [a.checkId, fresh.checkId],
      clearedDate: daysAgo(1),
      page: '1',
      perPage: '50',
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain(
      `Check ${fresh.serialNumber} cannot be cleared: its status is new: it was never issued.`,
    );
    expect((await api.get(`/checks/${a.checkId}`)).body.data.clearedDate).toBeNull();
    const nothing = await v.submit(path, `${path}/clear`, {
      env: 'test',
      clearedDate: TODAY,
      page: '1',
      perPage: '50',
    });
    expect(nothing.status).toBe(422);
    expect(nothing.body).toContain('Tick the checks the bank paid first.');
    const future = await v.submit(path, `${path}/clear`, {
      env: 'test',
      checkId: a.checkId,
      clearedDate: '2999-01-01',
    });
    expect(future.status).toBe(422);
    expect(future.body).toContain('must not be after today');
    // Issue 22: a clearing dated before the check itself (the year 1900; the day before its date).
    for (const [clearedDate, message] of [
      ['1900-01-01', 'The cleared date field must not be before 2000-01-01.'],
      [daysAgo(7), `The cleared date field must not be before the check&#39;s issue date (${daysAgo(6)}).`],
    ] as [string, string][]) {
      const early = await v.submit(path, `${path}/clear`, { env: 'test', checkId: a.checkId, clearedDate });
      expect(early.status).toBe(422);
      expect(early.body).toContain(message);
      expect(early.body).toContain('aria-invalid="true" aria-describedby="clear-problem"');
    }
    expect((await api.get(`/checks/${a.checkId}`)).body.data.clearedDate).toBeNull();

    const cleared = await v.submit(path, `${path}/clear`, {
      env: 'test',
      checkId: [a.checkId, b.checkId],
      clearedDate: daysAgo(1),
      page: '1',
      perPage: '50',
    });
    expect(cleared.status).toBe(303);
    expect(cleared.location).toBe(`${path}?page=1&perPage=50&notice=checks-cleared`);
    for (const c of [a, b]) {
      const data = (await api.get(`/checks/${c.checkId}`)).body.data;
      expect(data.clearedDate).toBe(daysAgo(1));
      expect(data.status).toBe(1);
    }
    const after = await v.get(cleared.location);
    expect(after.body).toContain('The ticked checks are marked cleared.');
    expect(byId(after.body, 'outstanding-total')).toBe('$1,075.50');
    expect((await apiRegister(ids.bankAccountId)).outstanding).toEqual({ count: 2, total: 1075.5 });

    const undone = await v.submit(path, `${path}/unclear`, {
      env: 'test',
      uncheckId: b.checkId,
      page: '1',
      perPage: '50',
    });
    expect(undone.status).toBe(303);
    expect((await api.get(`/checks/${b.checkId}`)).body.data.clearedDate).toBeNull();
    expect((await apiRegister(ids.bankAccountId)).outstanding).toEqual({ count: 3, total: 1325.75 });
  });

  it('reconciles an uploaded cleared-items file and lists matched and mismatched rows; a bad file changes nothing', async () => {
    const [a, b, c, d, fresh] = checks;
    if (a === undefined || b === undefined || c === undefined || d === undefined || fresh === undefined)
      throw new Error('checks missing');
    const before = await apiRegister(ids.bankAccountId);
    const bad = await upload(
      v,
      ids.bankAccountId,
      `Check Number,Amount\n${c.serialNumber},75.50\n${d.serialNumber},lots\n`,
    );
    expect(bad.status).toBe(422);
    expect(bad.body).toContain(`Line 3: the amount &quot;lots&quot; of check ${d.serialNumber} is not an amount.`);
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="file-problem"');
    expect(await apiRegister(ids.bankAccountId)).toEqual(before);
    const big = await upload(v, ids.bankAccountId, `Check Number,Amount\n${'1,1.00\n'.repeat(200_000)}`);
    expect(big.status).toBe(422);
    expect(big.body).toContain('The file is larger than 1 MB');
    const forged = await upload(v, ids.bankAccountId, `Check Number,Amount\n${c.serialNumber},75.50\n`, 'x'.repeat(40));
    expect(forged.status).toBe(403);
    expect(await apiRegister(ids.bankAccountId)).toEqual(before);

    const csv = [
      'Check #,Posted Date,Amount',
      // Banks pad their numbers with zeros; the result shows the office's own numbers.
      `000${c.serialNumber},${daysAgo(2)},75.50`,
      `${b.serialNumber},${daysAgo(2)},250.00`,
      `${a.serialNumber},${daysAgo(2)},100.00`,
      `${fresh.serialNumber},${daysAgo(2)},42.00`,
      `00424242,${daysAgo(2)},5.00`,
    ].join('\n');
    const result = await upload(v, ids.bankAccountId, csv);
    expect(result.status).toBe(200);
    expect(byId(result.body, 'cleared-count')).toBe('1 ($75.50)');
    expect(byId(result.body, 'mismatched-count')).toBe('4');
    expect([...result.body.matchAll(/<tr data-reason="([a-z_]+)">/g)].map((m) => m[1])).toEqual([
      'amount_differs',
      'already_cleared',
      'not_issued',
      'unknown_number',
    ]);
    expect(result.body).toContain(`Check ${b.serialNumber} is for $250.25; the bank paid $250.00.`);
    expect(result.body).toContain(`">${c.serialNumber}</a></td><td class="num">$75.50</td>`);
    expect(result.body).toContain('<td>424242</td>');
    expect(result.body).not.toContain(`000${c.serialNumber}`);
    const after = await apiRegister(ids.bankAccountId);
    expect(after.outstanding).toEqual({ count: 2, total: 1250.25 });
    expect(byId(result.body, 'outstanding-total')).toBe('2 checks, $1,250.25');
    // The same words for one check ("1 checks" before).
    expect([checksCount(0), checksCount(1), checksCount(2)]).toEqual(['0 checks', '1 check', '2 checks']);
    expect((await api.get(`/checks/${c.checkId}`)).body.data.clearedDate).toBe(daysAgo(2));
    expect((await api.get(`/checks/${b.checkId}`)).body.data.clearedDate).toBeNull();
  });

  it('a file of 600 rows that clear nothing shows 500 of them and says how many more; `a` and 200 KB of quotes is refused naming line 1', async () => {
    const before = await apiRegister(ids.bankAccountId);
    const rows = Array.from({ length: 600 }, (_, i) => `${900_000 + i},1.00`);
    const many = await upload(v, ids.bankAccountId, `Check Number,Amount\n${rows.join('\n')}\n`);
    expect(many.status).toBe(200);
    expect(byId(many.body, 'mismatched-count')).toBe('600');
    expect((many.body.match(/<tr data-reason="unknown_number">/g) ?? []).length).toBe(500);
    expect(many.body).toContain('The first 500 rows are shown; 100 more rows were not cleared.');
    const storm = await upload(v, ids.bankAccountId, `a${'"'.repeat(200 * 1024)}`);
    expect(storm.status).toBe(422);
    expect(storm.body).toContain('Line 1: a line is longer than 16,384 characters.');
    expect(await apiRegister(ids.bankAccountId)).toEqual(before);
  });

  it("answers 404 for another account's and the other environment's bank accounts and checks", async () => {
    const { visitor: stranger } = await visitorWithKey('stranger@acme.test');
    const path = `/panel/bank-accounts/${ids.bankAccountId}/register`;
    expect((await stranger.get(path)).status).toBe(404);
    expect((await v.get(`${path}?env=live`)).status).toBe(404);
    expect((await v.get('/panel/bank-accounts/nope/register')).status).toBe(404);
    const [, , , d] = checks;
    if (d === undefined) throw new Error('checks missing');
    const strangerPost = await stranger.submit('/panel/register', `${path}/clear`, { env: 'test', checkId: d.checkId });
    expect(strangerPost.status).toBe(404);
    expect((await upload(stranger, ids.bankAccountId, 'x')).status).toBe(404);
    // A check of another bank account is not on this register.
    const other = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Second', routingNumber: '011000015', accountNumber: '1234000' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
    const otherPath = `/panel/bank-accounts/${other}/register`;
    expect((await v.submit(otherPath, `${otherPath}/clear`, { env: 'test', checkId: d.checkId })).status).toBe(404);
    expect((await v.submit(otherPath, `${otherPath}/unclear`, { env: 'test', uncheckId: d.checkId })).status).toBe(404);
    expect((await api.get(`/checks/${d.checkId}`)).body.data.clearedDate).toBeNull();
  });
});
