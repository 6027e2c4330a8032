// The raw-text pass of the JSON body parser (src/http/plugins/json-body.ts): width,
// string and number length are bounded before JSON.parse, at the edges, on both databases. What a
// server process does with the same shapes at 2 MB is test/server/hostile-parsers.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('JSON body shape bounds (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('json-shape@example.com');
  });
  afterAll(() => t.close());

  it('an array or object of 1,000 members reaches validation; 1,001 is a 400; commas inside strings do not count', async () => {
    const items = (n: number) => `{"payees":[${Array(n).fill('{"name":"a,b,c"}').join(',')}]}`;
    const thousand = await api.post('/payees', items(1000));
    expect(thousand.status).toBe(422);
    expect(thousand.body.errorMsg).toBe('The payees field must not have more than 500 items.');
    const more = await api.post('/payees', items(1001));
    expect(more.status).toBe(400);
    expect(more.body).toEqual({
      success: false,
      errorMsg: 'The request body has an array or object with too many members (at most 1000 in one).',
    });
    const keys = (n: number) => `{"payees":[{${Array.from({ length: n }, (_, i) => `"k${i}":1`).join(',')}}]}`;
    expect((await api.post('/payees', keys(1000))).status).toBe(422);
    expect((await api.post('/payees', keys(1001))).status).toBe(400);
    // 3,000 commas in one string are text, not members.
    const commas = await api.post('/payees', { payees: [{ name: ','.repeat(3000) }] });
    expect(commas.status).toBe(422);
    expect(commas.body.errorMsg).toContain('payees.0.name');
  });

  it('a string of 65,536 characters reaches validation (422 naming the field); one longer is a 400; a file field may be longer', async () => {
    const at = await api.post('/payees', { payees: [{ name: 'a'.repeat(65_536) }] });
    expect(at.status).toBe(422);
    expect(at.body.errorMsg).toContain('payees.0.name');
    const over = await api.post('/payees', { payees: [{ name: 'a'.repeat(65_537) }] });
    expect(over.status).toBe(400);
    expect(over.body.errorMsg).toBe('The request body has a string longer than 65,536 characters.');
    // The CSV of POST /imports is a file: 200 KB of it is read as usual.
    const csv = `Name\n${`Acme Paper Co. ${'x'.repeat(20)}\n`.repeat(6_000)}`;
    expect(csv.length).toBeGreaterThan(200_000);
    const dry = await api.post('/imports', { type: 'payees', csv, dryRun: true });
    expect(dry.status, dry.raw.slice(0, 200)).toBe(200);
    expect(dry.body.data.rowsTotal).toBe(6_000);
  });

  it('a number of 100 characters reaches validation; 101 is a 400', async () => {
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'N', routingNumber: '011000015', accountNumber: '123456789' }],
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const amount = (digits: number) =>
      `{"checks":[{"bankAccountId":"${bankAccountId}","payeeId":"x","amount":1${'0'.repeat(digits - 1)}}]}`;
    const hundred = await api.post('/checks', amount(100));
    expect(hundred.status).toBe(422);
    expect(hundred.body.errorMsg).toContain('checks.0.amount');
    const over = await api.post('/checks', amount(101));
    expect(over.status).toBe(400);
    expect(over.body.errorMsg).toBe('The request body has a number longer than 100 characters.');
  });
});
