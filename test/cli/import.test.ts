import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { createKeyWithCli, http, runCli, startMigratedServer, type MigratedServer } from '../support/processes.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/imports/${name}`, import.meta.url));

// `checkwriter import` as a user runs it, next to a running server that then serves what it made.
describe.each(dialects())('checkwriter import (%s)', { timeout: 120_000 }, (dialect) => {
  let running: MigratedServer;
  let env: Record<string, string>;
  let key: string;
  let api: string;
  const dir = mkdtempSync(join(tmpdir(), 'cw-import-'));

  beforeAll(async () => {
    running = await startMigratedServer(dialect);
    ({ env, api } = running);
    key = await createKeyWithCli('office@example.com', env);
  });
  afterAll(async () => {
    await running.close();
    // The files written for the commands go with the test: nothing is left in the temporary directory.
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports payees with plain progress lines (stderr is no terminal), then checks by payee name', async () => {
    const payees = await runCli(
      ['import', 'payees', fixture('quickbooks-vendors.csv'), '--email', 'office@example.com'],
      env,
    );
    expect(payees.stderr).toContain('imported 3/3 rows\n');
    expect(payees.stdout).toMatch(/^imported 3 payees \(import imp_\w+\)\n$/);
    expect(payees.code).toBe(0);
    const listed = await http(`${api}/payees`, { key });
    expect(listed.body.data.payees.map((p: { name: string }) => p.name).sort()).toEqual([
      'Acme Paper Co.',
      'Globex "West"',
      "O'Brien & Sons, LLC",
    ]);

    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }] },
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const checks = await runCli(
      [
        'import',
        'checks',
        fixture('quickbooks-check-detail.csv'),
        '--email',
        'office@example.com',
        '--bank-account',
        bankAccountId,
        '--map',
        'Account=',
      ],
      env,
    );
    expect(checks.stdout).toContain('imported 3 checks');
    expect(checks.code).toBe(0);
    const list = await http(`${api}/checks`, { key });
    expect(list.body.data.meta.total).toBe(3);
    expect(
      list.body.data.checks.map((c: { amount: number }) => c.amount).sort((a: number, b: number) => a - b),
    ).toEqual([12, 12, 1234.5]);
  });

  it('a file with errors is refused whole: every row error printed, exit code 1, nothing written', async () => {
    const file = join(dir, 'bad.csv');
    writeFileSync(file, 'Payee,Amount,Check Number\nAcme Paper Co.,abc,\nNobody,5,\nAcme Paper Co.,5,x1\n');
    const res = await runCli(['import', 'checks', file, '--email', 'office@example.com', '--env', 'test'], env);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('was not imported: 3 rows have errors.');
    expect(res.stderr).toContain('row 1 (line 2): The bankAccountId field is required.');
    expect(res.stderr).toContain('row 2 (line 3): The payee "Nobody" is not one of your payees');
    expect(res.stderr).toContain('row 3 (line 4):');
    expect(res.stderr).toContain('The serialNumber field must contain digits only (at most 15).');
    expect((await http(`${api}/checks`, { key })).body.data.meta.total).toBe(3);
    const missing = await runCli(['import', 'payees', join(dir, 'none.csv'), '--email', 'office@example.com'], env);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('cannot read');
  });
});
