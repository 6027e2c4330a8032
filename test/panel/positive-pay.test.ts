// The positive pay page: the form downloads the file (read back from the documented layout), the
// export is recorded and listed, refusals show next to their field and record nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, type Client, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { readPositivePayCsv, readPositivePayFixed } from '../support/positive-pay-reader.ts';

const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe.each(dialects())('positive pay page (%s)', (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let bankAccountId = '';
  let otherBank = '';
  const email = 'office@pp-panel.test';
  const from = isoDay(Date.now() - 10 * DAY);
  const to = isoDay(Date.now());

  const recorded = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number | string }>('SELECT COUNT(*) AS n FROM positive_pay_exports'))?.n);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    visitor = new Visitor(t.app);
    const signedIn = await visitor.signUp({ company: 'Office Co', email, phone: '+14155552671', password: PASSWORD });
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
        { bankAccountId, payeeId, serialNumber: '501', issueDate: isoDay(Date.now() - 2 * DAY), amount: '45.10' },
        { bankAccountId, payeeId, serialNumber: '502', issueDate: isoDay(Date.now() - 1 * DAY), amount: '12' },
        { bankAccountId, payeeId, serialNumber: '503', issueDate: to, amount: '9.99' },
      ],
    });
    const [printed, voided] = created.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const print = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [printed, voided] }),
    });
    expect(print.statusCode).toBe(200);
    expect((await api.post(`/checks/${voided}/void`)).status).toBe(200);
    const other = await t.client('someone-else@pp-panel.test');
    otherBank = (
      await other.post('/bankAccounts', {
        bankAccounts: [{ name: 'Theirs', routingNumber: '011000015', accountNumber: '99990000' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
  });
  afterAll(() => t.close());

  it('shows the form with a label for every control, in the navigation, without inline script or style', async () => {
    const res = await visitor.get('/panel/positive-pay');
    expect(res.status).toBe(200);
    expect(res.body).toContain('<a href="/panel/positive-pay" aria-current="page">Positive pay</a>');
    expect(res.body).toContain(`<option value="${bankAccountId}"`);
    expect(res.body).toContain('****');
    expect(res.body).not.toContain('44556677');
    for (const id of ['bankAccountId', 'from', 'to', 'format']) {
      expect(res.body).toContain(`id="${id}"`);
      expect(res.body).toContain(`<label for="${id}">`);
    }
    expect(res.body).not.toMatch(/<script(?![^>]*\bsrc=)/);
    expect(res.body).not.toMatch(/\sstyle=/);
    expect(res.body).toContain('No exports yet.');
  });

  it('a POST downloads the file, records the export, and the page lists it', async () => {
    const before = await recorded();
    const res = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from,
      to,
      format: 'csv',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="positive-pay-${bankAccountId}-${from}-${to}.csv"`,
    );
    const read = readPositivePayCsv(res.body);
    expect(read.map((r) => `${r.kind} ${r.checkNumber} ${r.amountCents} ${r.accountNumber}`)).toEqual([
      `I 501 4510 44556677`,
      `I 502 1200 44556677`,
      `V 502 1200 44556677`,
    ]);
    expect(await recorded()).toBe(before + 1);
    // The API sees the panel's export, with who made it.
    const listed = await api.get('/positive-pay-exports');
    expect(listed.body.data.positivePayExports[0]).toMatchObject({
      bankAccountId,
      from,
      to,
      format: 'csv',
      checkCount: 3,
      issuedTotalCents: 5710,
      voidTotalCents: 1200,
      createdBy: { via: 'panel', id: email },
    });
    const pageAfter = await visitor.get('/panel/positive-pay');
    expect(pageAfter.body).toContain(`${email} (panel)`);
    expect(pageAfter.body).toContain(`${from} – ${to}`);
    expect(pageAfter.body).toContain('$57.10');
    expect(pageAfter.body).toContain('$12.00');
  });

  it('the fixed-width layout downloads too', async () => {
    const res = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from,
      to,
      format: 'fixed',
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-disposition']).toContain('.txt"');
    expect(readPositivePayFixed(res.body).map((r) => `${r.kind} ${r.checkNumber} ${r.payee}`)).toEqual([
      'I 501 PAPER SUPPLY',
      'I 502 PAPER SUPPLY',
      'V 502 PAPER SUPPLY',
    ]);
  });

  it('a bad range is shown next to its field, another account’s bank account is refused; neither is recorded', async () => {
    const before = await recorded();
    const bad = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from: to,
      to: from,
      format: 'csv',
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="to-error"');
    expect(bad.body).toContain(
      '<p class="problem" id="to-error">The to field must be a date after or equal to from.</p>',
    );
    // What was typed stays in the form.
    expect(bad.body).toContain(`value="${from}"`);
    // A date no check can carry: the year 1900.
    const ancient = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId,
      from: '1900-01-01',
      to,
      format: 'csv',
    });
    expect(ancient.status).toBe(422);
    expect(ancient.body).toContain(
      '<p class="problem" id="from-error">The from field must not be before 2000-01-01.</p>',
    );
    const theirs = await visitor.submit('/panel/positive-pay', '/panel/positive-pay', {
      env: 'test',
      bankAccountId: otherBank,
      from,
      to,
      format: 'csv',
    });
    expect(theirs.status).toBe(422);
    expect(theirs.body).toContain('id="bankAccountId-error">Choose one of your bank accounts.</p>');
    const live = await visitor.submit('/panel/positive-pay?env=live', '/panel/positive-pay', {
      env: 'live',
      bankAccountId,
      from,
      to,
      format: 'csv',
    });
    expect(live.status).toBe(422);
    const page = await visitor.get('/panel/positive-pay');
    const noCsrf = await visitor.post('/panel/positive-pay', { env: 'test', bankAccountId, from, to, format: 'csv' });
    expect(noCsrf.status).toBe(403);
    const wrongFormat = await visitor.post('/panel/positive-pay', {
      _csrf: csrfOf(page.body),
      env: 'test',
      bankAccountId,
      from,
      to,
      format: 'pdf',
    });
    expect(wrongFormat.status).toBe(422);
    expect(wrongFormat.body).toContain('id="format-error"');
    expect(await recorded()).toBe(before);
  });

  it('opening the page changes nothing, and live shows live data only', async () => {
    const before = await recorded();
    await visitor.get('/panel/positive-pay');
    await visitor.get('/panel/positive-pay?page=2');
    expect(await recorded()).toBe(before);
    const live = await visitor.get('/panel/positive-pay?env=live');
    expect(live.status).toBe(200);
    expect(live.body).not.toContain(bankAccountId);
    expect(live.body).toContain('Add a bank account first');
  });
});
