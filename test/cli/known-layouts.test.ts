// The office's real files on the command line, as exported and without a mapping: one recognised
// export per kind through `checkwriter import` (Xero's bills awaiting payment and a QuickBooks
// Desktop IIF file for checks, QuickBooks Online's vendor contact list for payees) and one bank
// file through `checkwriter reconcile` (BAI2), each giving what the API's tests assert for the same
// file (test/http/imports.exports.test.ts, test/http/bank-files.test.ts), read back through the
// API of a running server on the same database, both engines.
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, startMigratedServer, type MigratedServer } from '../support/processes.ts';

const fixture = (folder: string, name: string): string =>
  fileURLToPath(new URL(`../fixtures/${folder}/${name}`, import.meta.url));

interface CheckExport {
  file: string;
  label: string;
  layout: string;
  /** "serial payee amount [voucher lines]" of every check the file holds, sorted ("-": numbered by the bank account). */
  checks: string[];
}

// The same expectations as test/http/imports.exports.test.ts for these files.
const CHECK_EXPORTS: CheckExport[] = [
  {
    file: 'xero-bills-awaiting-payment.csv',
    label: 'Xero bills export',
    layout: 'xero-bills',
    checks: [
      '- Acme Paper Co. 1234.5 [Copy paper, 40 cases 1000; Stamps 234.5]',
      "- O'Brien & Sons 450 [Dock repairs 450]",
      '- Pam Seitz 2450 [Design review 1500; Site visits 750; Travel 200]',
    ],
  },
  {
    file: 'qbd-checks.iif',
    label: 'QuickBooks Desktop IIF file',
    layout: 'qbd-iif',
    checks: [
      '1045 Acme Paper Co. 1234.5 [Office Supplies 1000; Postage 234.5]',
      "1046 O'Brien & Sons 450 [Repairs 450]",
    ],
  },
];

describe.each(dialects())('known layouts on the command line (%s)', { timeout: 120_000 }, (dialect) => {
  let running: MigratedServer;
  let env: Record<string, string>;
  let api = '';
  let accounts = 0;

  beforeAll(async () => {
    running = await startMigratedServer(dialect);
    ({ env, api } = running);
  });
  afterAll(async () => {
    await running?.close();
  });

  /** An account of its own (no payee met before) with one bank account: its email, key and bank account. */
  async function freshAccount(): Promise<{ email: string; key: string; bankAccountId: string }> {
    accounts += 1;
    const email = `cli-layouts-${accounts}@example.com`;
    const key = await createKeyWithCli(email, env);
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber: `${700_000 + accounts}` }],
      },
    });
    expect(bank.status).toBe(201);
    return { email, key, bankAccountId: bank.body.data.bankAccounts[0].bankAccountId };
  }

  /** The import's record as the API reads it, from the id the command printed. */
  async function importOf(stdout: string, key: string) {
    const id = /\(import (imp_\w+)\)/.exec(stdout)?.[1];
    expect(id, stdout).toBeDefined();
    const read = await http(`${api}/imports/${id}`, { key });
    expect(read.status).toBe(200);
    return read.body.data;
  }

  it.each(CHECK_EXPORTS)('$file: exactly its checks, no mapping, the layout named', async (ex) => {
    const { email, key, bankAccountId } = await freshAccount();
    const res = await runCli(
      [
        'import',
        'checks',
        fixture('imports', ex.file),
        '--email',
        email,
        '--bank-account',
        bankAccountId,
        '--create-payees',
      ],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain(`read as: ${ex.label} (${ex.layout})`);
    expect(res.stdout).toContain(`imported ${ex.checks.length} checks`);
    const record = await importOf(res.stdout, key);
    expect(record.state).toBe('succeeded');
    expect(record.rowsTotal).toBe(ex.checks.length);
    expect((await http(`${api}/checks`, { key })).body.data.meta.total).toBe(ex.checks.length);
    const numbered = !ex.checks[0]?.startsWith('-');
    const made: string[] = [];
    for (const id of record.created.checkIds as string[]) {
      const check = (await http(`${api}/checks/${id}`, { key })).body.data;
      const voucher = await http(`${api}/checks/${id}/voucher`, { key });
      const items = (voucher.status === 200 ? voucher.body.data.voucherItems : []) as {
        description: string;
        total: string;
      }[];
      const lines =
        items.length === 0 ? '' : ` [${items.map((v) => `${v.description} ${Number(v.total)}`).join('; ')}]`;
      made.push(`${numbered ? check.serialNumber : '-'} ${check.payee.name} ${check.amount}${lines}`);
    }
    expect(made.sort()).toEqual([...ex.checks].sort());
  });

  it('qbo-vendor-contact-list.csv: every vendor with its phone and address in fields', async () => {
    const { email, key } = await freshAccount();
    const res = await runCli(
      ['import', 'payees', fixture('imports', 'qbo-vendor-contact-list.csv'), '--email', email],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(res.stderr).toContain('read as: QuickBooks Online "Vendor Contact List" report (qbo-vendor-contact-list)');
    const record = await importOf(res.stdout, key);
    const payees = [];
    for (const id of record.created.payeeIds as string[])
      payees.push((await http(`${api}/payees/${id}`, { key })).body.data);
    expect(payees.find((p) => p.name === 'Acme Paper Co.')).toMatchObject({
      phone: '+14065550142',
      address1: '1 Mill Rd',
      city: 'Springfield',
      state: 'IL',
      zip: '62701',
    });
    expect(payees.find((p) => p.name === 'Pam Seitz')).toMatchObject({
      phone: '+16505550177',
      address1: '12 Oak St',
      city: 'Bayshore',
      zip: '94326',
    });
    expect(payees).toHaveLength(3);
  });

  it('paid-items.bai: clears exactly 363 and 364, refuses the mis-encoded 365, lists the credits apart', async () => {
    const { email, key, bankAccountId } = await freshAccount();
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Acme Supplies' }] } });
    const payeeId = payee.body.data.payees[0].payeeId;
    const made = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [
          ['363', 150],
          ['364', 1250],
          ['365', 89.99],
          ['366', 42],
        ].map(([serialNumber, amount]) => ({ bankAccountId, payeeId, serialNumber, amount, issueDate: '2026-10-01' })),
      },
    });
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: made.body.data.checks.map((c: { checkId: string }) => c.checkId) }),
    });
    expect(printed.status).toBe(200);

    const res = await runCli(
      ['reconcile', fixture('bank-files', 'paid-items.bai'), '--email', email, '--bank-account', bankAccountId],
      env,
    );
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout.split('\n');
    // Each row as "kind: what", without its line number (the API test compares rows, not lines).
    const rows = (prefix: string): string[] =>
      out
        .filter((l) => l.startsWith(`  ${prefix}`))
        .map((l) => l.trim().replace(/\s+line \d+:/, ':'))
        .sort();
    expect(out[0]).toContain('read as: BAI2 file');
    expect(rows('cleared ')).toEqual([
      'cleared: check 363 $150.00 paid 2026-10-31',
      'cleared: check 364 $1,250.00 paid 2026-10-31',
    ]);
    expect(rows('amount_differs')).toEqual(['amount_differs: Check 365 is for $89.99; the bank paid $98.99.']);
    expect(rows('unknown_number')).toEqual([]);
    expect(rows('credit').map((l) => l.replace(/ on \d{4}-\d{2}-\d{2}$/, ''))).toEqual([
      'credit: 366 $42.00',
      'credit: 5501 $18,250.00',
    ]);
    const register = await http(`${api}/bankAccounts/${bankAccountId}/register?perPage=10`, { key });
    expect(
      register.body.data.checks.map(
        (c: { serialNumber: string; clearedDate: string | null }) => `${c.serialNumber} ${c.clearedDate}`,
      ),
    ).toEqual(['363 2026-10-31', '364 2026-10-31', '365 null', '366 null']);
  });
});
