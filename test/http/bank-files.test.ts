// The bank files of test/fixtures/bank-files (laid out as the real downloads; where each layout
// comes from is in the README beside them), reconciled through POST /bankAccounts/{id}/clearedItems
// on both databases: each clears exactly the checks paid (363 and 364), refuses the amount the
// bank mis-encoded (365: written for $89.99, paid as $98.99), lists the money in apart (deposit
// slip 5501, and a $42.00 credit carrying check 366's number, which stays outstanding) — and the
// same file with one real-world mutation each gives the same result.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, replyOf, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { BANK_FILES, MUTATIONS, type BankFile } from '../support/bank-files.ts';

const ISSUED = '2026-10-01';
const CHECKS = [
  { serialNumber: '363', amount: 150 },
  { serialNumber: '364', amount: 1250 },
  { serialNumber: '365', amount: 89.99 },
  { serialNumber: '366', amount: 42 },
];

describe.each(dialects())('bank files as banks send them (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let payeeId: string;
  let accounts = 0;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('bank-files@example.com');
    const payee = await api.post('/payees', { payees: [{ name: 'Acme Supplies' }] });
    payeeId = payee.body.data.payees[0].payeeId;
  });
  afterAll(() => t.close());

  /** A bank account of its own with checks 363–366 printed: what every file is matched against. */
  async function printedChecks(): Promise<{ bankAccountId: string; ids: Map<string, string> }> {
    accounts += 1;
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [
        {
          name: `Operating ${accounts}`,
          bankName: 'First Test Bank',
          routingNumber: '011000015',
          accountNumber: `${100_000 + accounts}`,
        },
      ],
    });
    expect(bank.status).toBe(201);
    const bankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const created = await api.post('/checks', {
      checks: CHECKS.map((c) => ({ ...c, bankAccountId, payeeId, issueDate: ISSUED })),
    });
    expect(created.status).toBe(201);
    const ids = new Map<string, string>(
      created.body.data.checks.map((c: { serialNumber: string; checkId: string }) => [c.serialNumber, c.checkId]),
    );
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [...ids.values()] }),
    });
    expect(printed.statusCode).toBe(200);
    return { bankAccountId, ids };
  }

  async function reconcile(file: BankFile, text: string) {
    const { bankAccountId, ids } = await printedChecks();
    const reply = replyOf(
      await t.app.inject({
        method: 'POST',
        url: `${BASE}/bankAccounts/${bankAccountId}/clearedItems`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': file.contentType },
        payload: text,
      }),
    );
    expect(reply.status, reply.raw).toBe(200);
    const cleared: Record<string, string | null> = {};
    for (const [serial, id] of ids) cleared[serial] = (await api.get(`/checks/${id}`)).body.data.clearedDate;
    const data = reply.body.data;
    return {
      layout: data.layout,
      // In check number order: banks list newest first or oldest first.
      matched: data.matched
        .map((m: { checkNumber: string; amount: number; clearedDate: string }) => [
          m.checkNumber,
          m.amount,
          m.clearedDate,
        ])
        .sort((a: string[], b: string[]) => Number(a[0]) - Number(b[0])),
      mismatched: data.mismatched.map((m: { checkNumber: string; reason: string; message: string }) => [
        m.checkNumber,
        m.reason,
        m.message,
      ]),
      credits: data.credits.map((c: { checkNumber: string; amount: number }) => `${c.checkNumber} ${c.amount}`).sort(),
      cleared,
    };
  }

  describe.each(BANK_FILES)('$name', (file) => {
    const original = readFileSync(new URL(`../fixtures/bank-files/${file.name}`, import.meta.url), 'utf8');
    let expected: Awaited<ReturnType<typeof reconcile>>;

    it('clears exactly the checks paid, refuses the mis-encoded amount, lists credits apart', async () => {
      expected = await reconcile(file, original);
      expect(expected.layout).toBe(file.layout);
      expect(expected.matched).toEqual([
        ['363', 150, file.paid['363']],
        ['364', 1250, file.paid['364']],
      ]);
      expect(expected.mismatched).toEqual([
        ['365', 'amount_differs', 'Check 365 is for $89.99; the bank paid $98.99.'],
      ]);
      expect(expected.credits).toEqual(file.credits);
      expect(expected.cleared).toEqual({
        '363': file.paid['363'],
        '364': file.paid['364'],
        '365': null,
        '366': null,
      });
    });

    it.each(MUTATIONS.filter((m) => file.mutations.includes(m.name)))(
      'gives the same result with $name',
      async (mutation) => {
        const mutated = mutation.apply(original);
        expect(mutated).not.toBe(original);
        expect(await reconcile(file, mutated)).toEqual(expected);
      },
    );
  });
});
