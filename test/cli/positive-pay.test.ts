// `checkwriter positive-pay export` against a running server's database: the file on stdout or in
// --out, read back from the documented layouts; the export recorded and visible through the API.
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { readPositivePayCsv, readPositivePayFixed } from '../support/positive-pay-reader.ts';
import { createKeyWithCli, http, type MigratedServer, runCli, startMigratedServer } from '../support/processes.ts';

const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe.each(dialects())('checkwriter positive-pay export (%s)', { timeout: 90_000 }, (dialect) => {
  let running: MigratedServer;
  let env: Record<string, string>;
  let api = '';
  let key = '';
  let bankAccountId = '';
  let dir = '';
  const email = 'cli-pp@example.com';
  const from = isoDay(Date.now() - 7 * DAY);
  const to = isoDay(Date.now());

  beforeAll(async () => {
    running = await startMigratedServer(dialect);
    ({ env, api } = running);
    key = await createKeyWithCli(email, env);
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Ops', routingNumber: '011000015', accountNumber: '20304050' }] },
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Rent LLC' }] } });
    const payeeId = payee.body.data.payees[0].payeeId;
    const made = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [
          { bankAccountId, payeeId, serialNumber: '7001', issueDate: isoDay(Date.now() - DAY), amount: '1500.00' },
          { bankAccountId, payeeId, serialNumber: '7002', issueDate: to, amount: '0.99' },
          { bankAccountId, payeeId, serialNumber: '7003', issueDate: to, amount: '3' },
        ],
      },
    });
    const [first, second] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: [first, second] }),
    });
    expect(printed.status).toBe(200);
    expect((await http(`${api}/checks/${second}/void`, { method: 'POST', key })).status).toBe(200);
    dir = mkdtempSync(join(tmpdir(), 'cw-pp-'));
  });
  afterAll(async () => {
    await running.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const args = (...extra: string[]) => [
    'positive-pay',
    'export',
    '--email',
    email,
    '--bank-account',
    bankAccountId,
    '--from',
    from,
    '--to',
    to,
    ...extra,
  ];

  it('writes the CSV to stdout and the summary to stderr, and records the export', async () => {
    const res = await runCli(args(), env);
    expect(res.code, res.stderr).toBe(0);
    const read = readPositivePayCsv(res.stdout);
    expect(read.map((r) => `${r.kind} ${r.checkNumber} ${r.amountCents} ${r.accountNumber} ${r.payee}`)).toEqual([
      'I 7001 150000 20304050 Rent LLC',
      'I 7002 99 20304050 Rent LLC',
      'V 7002 99 20304050 Rent LLC',
    ]);
    expect(res.stderr).toMatch(/^export ppx_[0-9A-Z]+: 2 issued \(\$1,500\.99\), 1 voided \(\$0\.99\),/m);
    const listed = await http(`${api}/positive-pay-exports`, { key });
    expect(listed.body.data.positivePayExports[0]).toMatchObject({
      bankAccountId,
      from,
      to,
      format: 'csv',
      issuedCount: 2,
      issuedTotalCents: 150099,
      voidCount: 1,
      voidTotalCents: 99,
      createdBy: { via: 'cli', id: email },
    });
  });

  it('--format fixed --out FILE writes the fixed-width file, readable by its owner only', async () => {
    const out = join(dir, 'issue.txt');
    const res = await runCli(args('--format', 'fixed', '--out', out), env);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain(`written to ${out}`);
    expect(statSync(out).mode & 0o777).toBe(0o600);
    const read = readPositivePayFixed(readFileSync(out, 'utf8'));
    expect(read.map((r) => `${r.kind} ${r.checkNumber} ${r.amountCents} ${r.issueDate} ${r.payee}`)).toEqual([
      `I 7001 150000 ${isoDay(Date.now() - DAY)} RENT LLC`,
      `I 7002 99 ${to} RENT LLC`,
      `V 7002 99 ${to} RENT LLC`,
    ]);
    expect((await http(`${api}/positive-pay-exports`, { key })).body.data.meta.total).toBe(2);
  });

  it('refusals exit 2 with the reason and record nothing', async () => {
    const cases: [string[], string][] = [
      [
        ['positive-pay', 'export', '--email', email, '--bank-account', bankAccountId, '--from', to, '--to', from],
        'The to field must be a date after or equal to from.',
      ],
      [args('--env', 'live'), 'Bank account not found.'],
      [
        ['positive-pay', 'export', '--email', email, '--bank-account', 'bank_none', '--from', from, '--to', to],
        'Bank account not found.',
      ],
      [args('--format', 'xml'), '--format must be csv, fixed or bank'],
      // `bank` reads the layout chosen on the bank account in the panel: none is chosen here.
      [args('--format', 'bank'), 'no positive pay layout chosen'],
      [args('--colour'), "Unknown option '--colour'"],
      // An --out that cannot be written is refused before the export is recorded.
      [args('--out', dir), `cannot write --out ${dir}: it is a folder, not a file`],
      [
        args('--out', join(dir, 'no-such-folder', 'pp.csv')),
        `the folder ${join(dir, 'no-such-folder')} does not exist`,
      ],
      [
        [
          'positive-pay',
          'export',
          '--email',
          'nobody@example.com',
          '--bank-account',
          bankAccountId,
          '--from',
          from,
          '--to',
          to,
        ],
        'no account with email',
      ],
    ];
    for (const [argv, message] of cases) {
      const res = await runCli(argv, env);
      expect(res.code, argv.join(' ')).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toContain(message);
    }
    expect((await http(`${api}/positive-pay-exports`, { key })).body.data.meta.total).toBe(2);
  });
});
