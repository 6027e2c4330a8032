import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';
const fixture = (name: string): string => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

/** A multipart/form-data body as a browser sends a file form. */
function multipart(
  fields: Record<string, string>,
  file: { name: string; text: string },
): { body: Buffer; type: string } {
  const boundary = '----cwTestBoundary7MA4YWxkTrZu0gW';
  const parts = Object.entries(fields).map(
    ([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`,
  );
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: text/csv\r\n\r\n${file.text}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join('')}--${boundary}--\r\n`),
    type: `multipart/form-data; boundary=${boundary}`,
  };
}

describe.each(dialects())('panel imports (%s)', { timeout: 60_000 }, (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;

  const upload = async (v: Visitor, kind: string, name: string, text: string, env = 'test') => {
    const form = await v.get(`/panel/imports${env === 'live' ? '?env=live' : ''}`);
    const { body, type } = multipart({ _csrf: csrfOf(form.body), kind, env }, { name, text });
    return t.app.inject({
      method: 'POST',
      url: '/panel/imports/upload',
      remoteAddress: v.address,
      headers: { cookie: [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; '), 'content-type': type },
      payload: body,
    });
  };

  const waitForEnd = async (path: string) => {
    for (let i = 0; i < 200; i++) {
      const shown = await visitor.get(path);
      if (!shown.body.includes('http-equiv="refresh"')) return shown;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('the import did not end');
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://checks.example' });
    visitor = new Visitor(t.app);
    const signed = await visitor.signUp({
      company: 'Office Co',
      email: 'office@panel.test',
      phone: '+14155552671',
      password: PASSWORD,
    });
    expect(signed.status).toBe(303);
    const { key } = await t.keys.create(
      (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', ['office@panel.test']))?.id ??
        '',
      'test',
      'k',
    );
    api = clientFor(t.app, key);
  });
  afterAll(() => t.close());

  it('upload → preview (selects guessed by header, every row error) → fix the mapping → import → result page with links', async () => {
    const payees = await upload(visitor, 'payees', 'vendors.csv', fixture('quickbooks-vendors.csv'));
    expect(payees.statusCode).toBe(303);
    const payeePreview = await visitor.get(payees.headers.location as string);
    expect(payeePreview.body).toContain('No errors: all 3 rows can be imported.');
    const payeeId = /\/panel\/imports\/(imp_\w+)/.exec(payees.headers.location as string)?.[1] ?? '';
    const startedPayees = await visitor.post(`/panel/imports/${payeeId}/start`, {
      _csrf: csrfOf(payeePreview.body),
      'col.0': 'name',
      'col.1': 'company',
      'col.2': 'email',
      'col.3': 'phone',
      'col.4': 'address1',
      'col.5': 'city',
      'col.6': 'state',
      'col.7': 'zip',
    });
    expect(startedPayees.status).toBe(303);
    const payeesDone = await waitForEnd(startedPayees.location);
    expect(payeesDone.body).toContain('Created 3 payees.');
    // The trail says who started the import from the panel and who it was written as: the owner.
    const trail = (await visitor.get(`/panel/audit?objectId=${payeeId}`)).body;
    for (const action of ['import.start', 'import.complete'])
      expect(trail).toMatch(
        new RegExp(`<td>office@panel.test <span class="hint">\\(owner\\)</span></td>\\s*<td>${action}</td>`),
      );
    expect((await api.get('/payees')).body.data.meta.total).toBe(3);

    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }],
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const res = await upload(visitor, 'checks', 'check-detail.csv', fixture('quickbooks-check-detail.csv'));
    const path = res.headers.location as string;
    const preview = await visitor.get(path);
    expect(preview.status).toBe(200);
    // A select per column, each guessed from the QuickBooks header.
    for (const [i, field] of ['issueDate', 'serialNumber', 'payee', 'memo', 'category', 'amount'].entries())
      expect(preview.body).toMatch(
        new RegExp(`<select id="col-${i}" name="col.${i}">[\\s\\S]*?<option value="${field}" selected>`),
      );
    // The account's one bank account is used from the first preview on: no row says it lacks one.
    expect(preview.body).toMatch(new RegExp(`<option value="${bankAccountId}" selected>Operating`));
    expect(preview.body).toContain('2 of 3 rows have errors');
    // The file's own words: its column header and the cell, never the API's field name.
    expect(preview.body).toContain('Column “Account”: &quot;Office Supplies&quot; is not one of your categories.');
    expect(preview.body).not.toContain('bankAccountId field');
    expect(preview.body).toMatch(/<button type="submit" disabled>Import 3 rows<\/button>/);
    // The column menus and the sample table speak the office's words too.
    expect(preview.body).toContain('<option value="serialNumber" selected>Check number</option>');
    expect(preview.body).toContain('<th scope="col">Num</th>');
    expect(preview.body).toContain(`<label for="col-0">Column “Date”</label>`);

    const id = /imp_\w+/.exec(path)?.[0] ?? '';
    const choices = {
      _csrf: csrfOf(preview.body),
      'col.0': 'issueDate',
      'col.1': 'serialNumber',
      'col.2': 'payee',
      'col.3': 'memo',
      'col.4': '',
      'col.5': 'amount',
      bankAccountId,
      dateOrder: 'mdy',
    };
    // Starting with errors left is refused with the preview again, and nothing is written.
    const refused = await visitor.post(`/panel/imports/${id}/start`, { ...choices, 'col.4': 'category' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('Column “Account”: &quot;Repairs&quot; is not one of your categories.');
    const updated = await visitor.post(`/panel/imports/${id}/preview`, choices);
    expect(updated.body).toContain('No errors: all 3 rows can be imported.');
    expect((await api.get('/checks')).body.data.meta.total).toBe(0);
    // A start without the date order (or with another word) is refused: not read as month/day/year.
    const { dateOrder: _order, ...withoutOrder } = choices;
    for (const form of [withoutOrder, { ...choices, dateOrder: 'DMY' }]) {
      const unsent = await visitor.post(`/panel/imports/${id}/start`, form);
      expect(unsent.status).toBe(422);
      expect(unsent.body).toContain('Choose how the file writes dates: month/day/year or day/month/year.');
    }
    expect((await api.get('/checks')).body.data.meta.total).toBe(0);
    const started = await visitor.post(`/panel/imports/${id}/start`, choices);
    expect(started.status).toBe(303);
    const done = await waitForEnd(started.location);
    expect(done.body).toContain('Created 3 checks.');
    const list = await api.get('/checks');
    expect(list.body.data.meta.total).toBe(3);
    for (const check of list.body.data.checks) expect(done.body).toContain(`href="/panel/checks/${check.checkId}"`);
    // The list of imports names both files; the nav has the new entry.
    const index = await visitor.get('/panel/imports');
    expect(index.body).toContain('check-detail.csv');
    expect(index.body).toContain('<a href="/panel/imports" aria-current="page">Import</a>');
    // A second start of the same import changes nothing.
    const again = await visitor.post(`/panel/imports/${id}/start`, choices);
    expect(again.status).toBe(303);
    expect((await api.get('/checks')).body.data.meta.total).toBe(3);
  });

  it("with several bank accounts it asks for one before any row error; then every error of every row, in the file's words", async () => {
    const banks = (await api.get('/bankAccounts')).body.data.bankAccounts as { bankAccountId: string }[];
    expect(banks.length).toBeGreaterThan(0);
    await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Payroll', routingNumber: '021000021', accountNumber: '87654321' }],
    });
    const csv = [
      'Date,Name,Amount',
      '02/30/2026,Acme Paper Co.,"1,23.45"',
      '02/01/2026,,5.00',
      '13/01/2026,Acme Paper Co.,7.00',
    ].join('\r\n');
    const res = await upload(visitor, 'checks', 'several.csv', csv);
    const path = res.headers.location as string;
    const first = await visitor.get(path);
    expect(first.body).toContain('Choose the bank account of these checks above and press Update preview');
    expect(first.body).not.toContain('rows have errors');
    expect(first.body).toMatch(/<button type="submit" disabled>Import 3 rows<\/button>/);
    expect(first.body).toContain('<option value="">— choose a bank account —</option>');

    const id = /imp_\w+/.exec(path)?.[0] ?? '';
    const chosen = await visitor.post(`/panel/imports/${id}/preview`, {
      _csrf: csrfOf(first.body),
      bankAccountId: banks[0]?.bankAccountId ?? '',
      dateOrder: 'mdy',
    });
    expect(chosen.body).toContain('3 of 3 rows have errors');
    const row = (n: number): string =>
      (new RegExp(`<tr><td>${n}</td><td>${n + 1}</td><td>([^<]*)</td></tr>`).exec(chosen.body)?.[1] ?? '').replace(
        /&quot;/g,
        '"',
      );
    // Row 1: the day that does not exist and the amount, both, quoted as the file writes them.
    expect(row(1)).toContain('Column “Date”, "02/30/2026", is not a date: February 2026 has 28 days.');
    expect(row(1)).toContain('Column “Amount”, "1,23.45", is ambiguous');
    expect(row(2)).toBe('Column “Name” is empty: it is required.');
    expect(row(3)).toContain(
      'Column “Date”, "13/01/2026", is not a date: there is no month 13; if the day comes first, choose day/month/year.',
    );
    for (const n of [1, 2, 3]) expect(row(n)).not.toMatch(/\b[a-z]+[A-Z]\w*/);

    // Day-first files are quoted in their own order.
    const dmy = await visitor.post(`/panel/imports/${id}/preview`, {
      _csrf: csrfOf(first.body),
      bankAccountId: banks[0]?.bankAccountId ?? '',
      dateOrder: 'dmy',
    });
    expect(dmy.body.replace(/&quot;/g, '"')).toContain(
      'Column “Date”, "02/30/2026", is not a date: there is no month 30',
    );
  });

  it('a known export previews as what it is: "Looks like a Xero bills export", nothing to map, its other lines listed with why; a register of no known layout offers the money-out confirmation', async () => {
    const bills = await upload(visitor, 'checks', 'bills.csv', fixture('xero-bills-awaiting-payment.csv'));
    expect(bills.statusCode).toBe(303);
    const preview = await visitor.get(bills.headers.location as string);
    expect(preview.body).toContain('Looks like a Xero bills export');
    expect(preview.body).toContain('Lines left out');
    expect(preview.body).toContain('another line of bill &quot;PS-2026-10&quot; (on its check&#39;s stub)');
    expect(preview.body).not.toContain('name="moneyOut"');
    const register = await upload(
      visitor,
      'checks',
      'register.csv',
      'Acme Books register\r\n\r\nDate,Num,Payee,Amount\r\n10/02/2026,1045,Acme,"-1,234.50"\r\n',
    );
    const registerPreview = await visitor.get(register.headers.location as string);
    expect(registerPreview.body).toContain('name="moneyOut"');
    expect(registerPreview.body).toContain('The header is line 3');
  });

  it('a refused file is no dead end: its page shows the lines read, what the import expects, and the upload form to try again', async () => {
    const refused = await upload(visitor, 'payees', 'broken.csv', 'Name,Email\n"open,a@b.test\n');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('a quoted field is not closed');
    expect(refused.body).toContain('<table id="lines-read">');
    expect(refused.body).toContain('<td>2</td><td>&quot;open,a@b.test</td>');
    expect(refused.body).toContain('What the import expects');
    expect(refused.body).toContain('Xero bills export (checks)');
    expect(refused.body).toContain('action="/panel/imports/upload"');
  });

  it('another account and the other environment get 404; no CSRF token, 403; a file past the limit, 413', async () => {
    const res = await upload(visitor, 'payees', 'p.csv', 'Name\nSolo\n');
    const path = res.headers.location as string;
    const stranger = new Visitor(t.app);
    await stranger.signUp({ company: 'Other', email: 'other@panel.test', phone: '+14155552672', password: PASSWORD });
    expect((await stranger.get(path)).status).toBe(404);
    expect((await visitor.get(`${path}?env=live`)).status).toBe(404);
    const id = /imp_\w+/.exec(path)?.[0] ?? '';
    const page = await stranger.get('/panel/imports');
    expect((await stranger.post(`/panel/imports/${id}/start`, { _csrf: csrfOf(page.body) })).status).toBe(404);
    expect((await visitor.post(`/panel/imports/${id}/start`, {})).status).toBe(403);
    const big = await upload(visitor, 'payees', 'big.csv', `Name\n${'x'.repeat(4 * 1024 * 1024 + 10)}\n`);
    expect(big.statusCode).toBe(413);
    expect(big.body).toContain('larger than 4 MB');
  });
});
