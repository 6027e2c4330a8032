import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';
import { eventually } from '../support/until.ts';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/imports/${name}`, import.meta.url), 'utf8');

describe.each(dialects())('CSV imports over the API (%s)', { timeout: 60_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let bankAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('imports@example.com');
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Operating', routingNumber: '021000021', accountNumber: '12345678', startingSerial: 3000 },
      ],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
  });
  afterAll(() => t.close());

  const finished = (id: string) =>
    eventually(
      () => api.get(`/imports/${id}`),
      (r) => r.body.data.state === 'succeeded' || r.body.data.state === 'failed',
    );

  it('imports a QuickBooks vendor list (BOM, CRLF, quoted commas and quotes, blank last line); GET /payees shows them', async () => {
    const res = await api.post('/imports', { type: 'payees', csv: fixture('quickbooks-vendors.csv') });
    expect(res.status).toBe(202);
    expect(res.body.data).toMatchObject({ type: 'payees', state: 'queued', rowsTotal: 3 });
    const done = await finished(res.body.data.importId);
    expect(done.body.data.state).toBe('succeeded');
    expect(done.body.data.rowsDone).toBe(3);
    const ids: string[] = done.body.data.created.payeeIds;
    expect(ids).toHaveLength(3);
    const second = await api.get(`/payees/${ids[1]}`);
    expect(second.body.data).toMatchObject({
      name: "O'Brien & Sons, LLC",
      company: "O'Brien & Sons",
      address1: '22 Dock St',
      city: 'Boston',
      zip: '02110',
    });
    expect((await api.get(`/payees/${ids[0]}`)).body.data.phone).toBe('+14155552671');
    expect((await api.get(`/payees/${ids[2]}`)).body.data.name).toBe('Globex "West"');
  });

  it('a dry run of a QuickBooks check detail lists every row error and writes nothing; with the mapping and a category it imports', async () => {
    const csv = fixture('quickbooks-check-detail.csv');
    const before = (await api.get('/checks')).body.data.meta.total;
    const dry = await api.post('/imports', { type: 'checks', csv, bankAccountId, dryRun: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data.mapping).toEqual(['issueDate', 'serialNumber', 'payee', 'memo', 'category', 'amount']);
    expect(dry.body.data.errors).toEqual([
      { row: 1, line: 2, messages: ['The category "Office Supplies" is not one of your categories.'] },
      { row: 2, line: 3, messages: ['The category "Repairs" is not one of your categories.'] },
    ]);
    const refused = await api.post('/imports', { type: 'checks', csv, bankAccountId });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({
      success: false,
      errorMsg:
        'Nothing was imported: 2 rows have errors. Row 1 (line 2): The category "Office Supplies" is not one of your categories. Row 2 (line 3): The category "Repairs" is not one of your categories.',
    });
    expect((await api.get('/checks')).body.data.meta.total).toBe(before);

    await api.post('/categories', { categories: [{ name: 'Office Supplies', type: 'expense' }] });
    // The user's mapping: the Account column is left out.
    const res = await api.post('/imports', { type: 'checks', csv, bankAccountId, mapping: { Account: '' } });
    expect(res.status).toBe(202);
    const done = await finished(res.body.data.importId);
    expect(done.body.data.state).toBe('succeeded');
    const ids: string[] = done.body.data.created.checkIds;
    expect(ids).toHaveLength(3);
    const first = (await api.get(`/checks/${ids[0]}`)).body.data;
    expect(first).toMatchObject({ serialNumber: '1045', amount: 1234.5, date: '2026-11-02', memo: 'Paper, October' });
    expect(first.payee.name).toBe('Acme Paper Co.');
    expect((await api.get(`/checks/${ids[1]}`)).body.data).toMatchObject({ serialNumber: '1046', amount: 12 });
    // The row without a number got the bank account's next one, above the numbers given.
    expect((await api.get(`/checks/${ids[2]}`)).body.data).toMatchObject({ serialNumber: '3000', amount: 12 });
    expect((await api.get('/checks')).body.data.meta.total).toBe(before + 3);
  });

  it('a Xero statement: unknown payees are an error unless createPayees; negative and ambiguous amounts are refused', async () => {
    const csv = fixture('xero-statement.csv');
    const dry = await api.post('/imports', { type: 'checks', csv, bankAccountId, dryRun: true });
    expect(dry.body.data.mapping).toEqual(['issueDate', 'amount', 'payee', 'memo', 'referenceId', 'serialNumber']);
    expect(dry.body.data.errors).toEqual([
      {
        row: 1,
        line: 2,
        messages: [
          'The payee "New Vendor Ltd" is not one of your payees: add it, import payees first, or choose to create unknown payees.',
        ],
      },
    ]);
    const res = await api.post('/imports', { type: 'checks', csv, bankAccountId, createPayees: true });
    expect(res.status).toBe(202);
    const done = await finished(res.body.data.importId);
    expect(done.body.data.created.createdPayeeIds).toHaveLength(1);
    const check = (await api.get(`/checks/${done.body.data.created.checkIds[0]}`)).body.data;
    expect(check.payee).toEqual({ payeeId: done.body.data.created.createdPayeeIds[0], name: 'New Vendor Ltd' });
    expect(check.referenceId).toBe('XR-1');

    const bad = [
      'Payee,Amount,Date,Check Number',
      'Acme Paper Co.,-12.00,2026-01-01,',
      'Acme Paper Co.,"1.234,50",2026-01-01,',
      'Acme Paper Co.,12.345,2026-02-30,',
      'Acme Paper Co.,(5.00),01/02/26,',
      'Acme Paper Co.,5,2026-01-01,2001',
      'Acme Paper Co.,5,2026-01-01,77',
      'Acme Paper Co.,5,2026-01-01,77',
    ].join('\n');
    const preview = await api.post('/imports', { type: 'checks', csv: bad, bankAccountId, dryRun: true });
    expect(preview.body.data.errors).toEqual([
      {
        row: 1,
        line: 2,
        messages: ['The amount field must be greater than 0 (a negative amount is refused: remove the sign).'],
      },
      {
        row: 2,
        line: 3,
        messages: [
          'The amount field "1.234,50" is ambiguous: write dollars with a dot for cents and commas only between groups of three digits (1,234.50).',
        ],
      },
      {
        // Every error of the row: the day that does not exist and the amount (docs/imports.md).
        row: 3,
        line: 4,
        messages: [
          'The issueDate field "2026-02-30" is not a date: February 2026 has 28 days.',
          'The amount field must have at most 2 decimal places.',
        ],
      },
      {
        row: 4,
        line: 5,
        messages: [
          'The issueDate field "01/02/26" has a two-digit year, which is ambiguous: write the year in full.',
          'The amount field must be greater than 0 (a negative amount is refused: remove the sign).',
        ],
      },
      { row: 5, line: 6, messages: ['The serialNumber has already been taken.'] },
      { row: 7, line: 8, messages: ['The serialNumber field has a duplicate value.'] },
    ]);
  });

  it('refuses files too large or malformed in the spec error shape; another account or environment gets 404', async () => {
    const rows = Array.from({ length: 10_001 }, (_, i) => `Payee ${i}`);
    const many = await api.post('/imports', { type: 'payees', csv: ['Name', ...rows].join('\n'), dryRun: true });
    expect(many.status).toBe(413);
    expect(many.body).toEqual({
      success: false,
      errorMsg: 'The file has more than 10000 rows: split it into files of at most 10000.',
    });
    const huge = await api.post('/imports', { type: 'payees', csv: `Name\n${'x'.repeat(4 * 1024 * 1024)}` });
    expect(huge.status).toBe(413);
    const broken = await api.post('/imports', { type: 'payees', csv: 'Name\n"unclosed\n' });
    expect(broken.status).toBe(422);
    expect(broken.body.errorMsg).toBe(
      'The csv field is not a valid CSV file. Line 2: a quoted field is not closed (a " is missing).',
    );
    const mapping = await api.post('/imports', { type: 'payees', csv: 'Name\nA\n', mapping: { Name: 'colour' } });
    expect(mapping.status).toBe(422);
    expect(mapping.body.errorMsg).toMatch(/names "colour", which is not a payees field/);
    const empty = await api.post('/imports', { type: 'payees', csv: 'Name\r\n\r\n' });
    expect(empty.body).toEqual({
      success: false,
      errorMsg: 'The csv field has no rows: the first line names the columns, the rows follow it.',
    });
    const nul = await api.post('/imports', { type: 'payees', csv: 'Name\nA\u0000\n' });
    expect(nul.status).toBe(422);
    const lineBreak = await api.post('/imports', { type: 'payees', csv: 'Name\n"two\nlines"\n', dryRun: true });
    expect(lineBreak.body.data.errors[0].messages[0]).toMatch(/must not contain control characters/);

    const res = await api.post('/imports', { type: 'payees', csv: 'Name\nMine\n' });
    const id = res.body.data.importId;
    await finished(id);
    const other = await t.client('other@example.com');
    expect((await other.get(`/imports/${id}`)).status).toBe(404);
    const live = await t.client('imports@example.com', { env: 'live' });
    const notFound = await live.get(`/imports/${id}`);
    expect(notFound.status).toBe(404);
    expect(notFound.body).toEqual({ success: false, errorMsg: 'Import not found.' });
    // Another account's bank account is no bank account of this one.
    const theirs = await other.post('/imports', {
      type: 'checks',
      csv: 'Payee,Amount\nMine,5\n',
      bankAccountId,
      createPayees: true,
      dryRun: true,
    });
    expect(theirs.body.data.errors[0].messages).toContain('The selected bankAccountId is invalid.');
  });

  it('a file past 4 MB is refused by its decoded size on the raw body, before the parse; one at 4 MB whose JSON is near 8 MB is read', async () => {
    const max = 4 * 1024 * 1024;
    // Cells of quotes: as JSON every byte of the file is two (\" and \n), the body near 8 MB.
    const row = `"${'""'.repeat(1_000)}"\n`;
    const rows = row.repeat(Math.floor((max - 5) / row.length));
    const atLimit = `Name\n${rows}${'x'.repeat(max - 5 - rows.length)}`;
    expect(Buffer.byteLength(atLimit)).toBe(max);
    const body = (csv: string): string => JSON.stringify({ type: 'payees', csv, dryRun: true });
    expect(body(atLimit).length).toBeGreaterThan(1.9 * max);
    const read = await api.post('/imports', body(atLimit));
    expect(read.status).toBe(200);
    expect(read.body.data.rowsTotal).toBe(rows.length / row.length + 1);
    // One byte more (a two-byte character for a one-byte one), and the body's JSON broken after the
    // file: parsed, it would be a 400 for the JSON; refused first by the file's size, it is a 413.
    const past = body(`${atLimit.slice(0, -1)}é`).replace(/}$/, ',');
    const refused = await api.post('/imports', past);
    expect(refused.status).toBe(413);
    expect(refused.body).toEqual({
      success: false,
      errorMsg: 'The file is larger than 4 MB: split it into smaller files.',
    });
    // The same broken JSON with a file at the limit reaches the parser, which refuses it.
    expect((await api.post('/imports', body(atLimit).replace(/}$/, ','))).status).toBe(400);
  });

  it('an idempotency key replays the same import instead of making a second one', async () => {
    const body = JSON.stringify({ type: 'payees', csv: 'Name\nOnce Only\n' });
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v3/imports',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json', 'idempotency-key': 'imp-1' },
        payload: body,
      });
    const first = await send();
    const second = await send();
    expect(first.statusCode).toBe(202);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(JSON.parse(second.body).data.importId).toBe(JSON.parse(first.body).data.importId);
    await finished(JSON.parse(first.body).data.importId);
    const list = await api.get('/payees?term=Once%20Only');
    expect(list.body.data.meta.total).toBe(1);
  });

  it('the OpenAPI document shows the import routes', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/v3/openapi.json' })).json();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/imports', '/imports/{importId}']));
  });
});
