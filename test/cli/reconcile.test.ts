// `checkwriter reconcile FILE` and POST /bankAccounts/{id}/clearedItems take the same bank files
// with the same results: each fixture of test/fixtures/bank-files is sent to the API for one bank
// account and given to the command for a twin (the same checks), against a running server's
// database on both engines; the rows cleared, refused and listed as money in are compared.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BANK_FILES } from '../support/bank-files.ts';
import { dialects } from '../support/databases.ts';
import { createKeyWithCli, http, type MigratedServer, runCli, startMigratedServer } from '../support/processes.ts';

const CHECKS = [
  { serialNumber: '363', amount: '150.00' },
  { serialNumber: '364', amount: '1250.00' },
  { serialNumber: '365', amount: '89.99' },
  { serialNumber: '366', amount: '42.00' },
];

describe.each(dialects())('checkwriter reconcile (%s)', { timeout: 120_000 }, (dialect) => {
  let running: MigratedServer;
  let env: Record<string, string>;
  let api = '';
  let key = '';
  let payeeId = '';
  let accounts = 0;
  const email = 'cli-reconcile@example.com';

  beforeAll(async () => {
    running = await startMigratedServer(dialect);
    ({ env, api } = running);
    key = await createKeyWithCli(email, env);
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Acme Supplies' }] } });
    payeeId = payee.body.data.payees[0].payeeId;
  });
  afterAll(async () => {
    await running?.close();
  });

  async function printedChecks(): Promise<string> {
    accounts += 1;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [{ name: `Ops ${accounts}`, routingNumber: '011000015', accountNumber: `${5000 + accounts}` }],
      },
    });
    const bankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const made = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: { checks: CHECKS.map((c) => ({ ...c, bankAccountId, payeeId, issueDate: '2026-10-01' })) },
    });
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: made.body.data.checks.map((c: { checkId: string }) => c.checkId) }),
    });
    expect(printed.status).toBe(200);
    return bankAccountId;
  }

  /** Which checks of the bank account cleared, and on which day. */
  async function clearedOn(bankAccountId: string): Promise<string[]> {
    const register = await http(`${api}/bankAccounts/${bankAccountId}/register?perPage=50`, { key });
    return register.body.data.checks.map(
      (c: { serialNumber: string; clearedDate: string | null }) => `${c.serialNumber} ${c.clearedDate}`,
    );
  }

  it.each(BANK_FILES)('$name: the same rows cleared, refused and set apart as through the API', async (file) => {
    const path = fileURLToPath(new URL(`../fixtures/bank-files/${file.name}`, import.meta.url));
    const viaApi = await printedChecks();
    const answer = await fetch(`${api}/bankAccounts/${viaApi}/clearedItems`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': file.contentType },
      body: readFileSync(path),
    });
    expect(answer.status).toBe(200);
    const data = (await answer.json()).data;

    const viaCli = await printedChecks();
    const res = await runCli(['reconcile', path, '--email', email, '--bank-account', viaCli], env);
    expect(res.code, res.stderr).toBe(0);
    const out = res.stdout.split('\n');
    const rows = (prefix: string): string[] => out.filter((l) => l.startsWith(`  ${prefix}`)).map((l) => l.trim());

    expect(rows('cleared ')).toEqual(
      data.matched.map(
        (m: { line: number; checkNumber: string; amount: number; clearedDate: string }) =>
          `cleared   line ${m.line}: check ${m.checkNumber} $${m.amount.toLocaleString('en-US', { minimumFractionDigits: 2 })} paid ${m.clearedDate}`,
      ),
    );
    expect(rows('amount_differs').concat(rows('unknown_number'))).toEqual(
      data.mismatched.map(
        (m: { line: number; reason: string; message: string }) => `${m.reason} line ${m.line}: ${m.message}`,
      ),
    );
    expect(rows('credit').length).toBe(data.creditsCount);
    expect(out[0]).toContain(`read as: ${data.layoutName}`);
    expect(await clearedOn(viaCli)).toEqual(await clearedOn(viaApi));
    expect((await clearedOn(viaCli)).filter((c) => !c.endsWith('null'))).toHaveLength(2);
  });

  it('a file that cannot be read is refused with the reason and clears nothing', async () => {
    const bankAccountId = await printedChecks();
    const dir = mkdtempSync(join(tmpdir(), 'cw-reconcile-'));
    const path = join(dir, 'export.csv');
    writeFileSync(path, 'Posted,What\n2026-10-05,Check 363\n');
    const res = await runCli(['reconcile', path, '--email', email, '--bank-account', bankAccountId], env);
    rmSync(dir, { recursive: true, force: true });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('The file has no header line naming an amount column');
    expect((await clearedOn(bankAccountId)).filter((c) => !c.endsWith('null'))).toEqual([]);
  });
});
