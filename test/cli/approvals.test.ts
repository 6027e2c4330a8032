// `checkwriter approvals set` on both databases: sets the company's rule (and a bank account's own),
// recorded in the audit trail as set by the owner named; refuses a person who may not set it and
// bad flags, changing nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approvalsCommand } from '../../src/cli/approvals.ts';
import type { CommandSession } from '../../src/cli/command-context.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { addPerson } from '../support/people.ts';

describe.each(dialects())('checkwriter approvals set (%s)', { timeout: 90_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let session: CommandSession;
  let accountId: string;
  let bankAccountId: string;
  const email = `cli-approvals-${dialect}@example.com`;
  const lines: string[] = [];
  const run = (...args: string[]) => {
    const [sub, ...rest] = args;
    return approvalsCommand(session, sub, rest, (line) => lines.push(line));
  };
  const rules = () =>
    t.database.db.all<{ bank_account_id: string; threshold_cents: number; approvers: number }>(
      'SELECT bank_account_id, threshold_cents, approvers FROM approval_policies WHERE account_id = ? ORDER BY bank_account_id',
      [accountId],
    );

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client(email);
    bankAccountId = (await seedBasics(api)).bankAccountId;
    session = { db: t.database.db, context: async () => t.serviceContext() };
    accountId = (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
  });
  afterAll(async () => {
    await t?.close();
  });

  it("sets the company's rule and a bank account's own, each in the audit trail", async () => {
    expect(await run('set', '--email', email, '--threshold', '1000', '--approvers', '2')).toBe(0);
    expect(lines.at(-1)).toBe('checks of $1,000.00 or more on every bank account now need 2 approvals');
    expect(
      await run('set', '--email', email, '--threshold', '0', '--approvers', '1', '--bank-account', bankAccountId),
    ).toBe(0);
    expect((await rules()).map((r) => [r.bank_account_id, Number(r.threshold_cents), Number(r.approvers)])).toEqual([
      ['', 100_000, 2],
      [bankAccountId, 0, 1],
    ]);
    const trail = await t.database.db.all<{ action: string; actor_kind: string }>(
      "SELECT action, actor_kind FROM audit_events WHERE account_id = ? AND action = 'approvals.policy'",
      [accountId],
    );
    expect(trail).toEqual([
      { action: 'approvals.policy', actor_kind: 'person' },
      { action: 'approvals.policy', actor_kind: 'person' },
    ]);
    // The bank account's own rule holds every check on it, however small.
    const made = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId: null, noPayee: true, amount: '1.00' }],
    });
    expect((await api.get(`/checks/${made.body.data.checks[0].checkId}`)).body.data.approval).toMatchObject({
      status: 'pending',
      required: 1,
    });
    expect(
      await run('set', '--email', email, '--threshold', '0', '--approvers', '0', '--bank-account', bankAccountId),
    ).toBe(0);
    expect((await rules()).length).toBe(1);
  });

  it('refuses bad flags and a person who may not set the policy, changing nothing', async () => {
    const before = await rules();
    await expect(run('set', '--email', email, '--threshold', 'lots', '--approvers', '1')).rejects.toThrow(
      /--threshold/,
    );
    await expect(run('set', '--email', email, '--threshold', '10', '--approvers', '3')).rejects.toThrow(/--approvers/);
    // A forgotten --approvers is not 0 (which removes the rule), nor is 1.0 taken for 1.
    await expect(run('set', '--email', email, '--threshold', '10')).rejects.toThrow(/--approvers .* is required/);
    await expect(run('set', '--email', email, '--threshold', '10', '--approvers', '1.0')).rejects.toThrow(
      /--approvers .* got "1.0"/,
    );
    await expect(run('set', '--threshold', '10', '--approvers', '1')).rejects.toThrow(/--email is required/);
    await expect(
      run('set', '--email', email, '--threshold', '10', '--approvers', '1', '--bank-account', 'bnk_nope'),
    ).rejects.toThrow(/bankAccountId is invalid/);
    await addPerson(t, accountId, { email: `clerk-cli-${dialect}@example.com`, name: 'Clerk', role: 'accountant' });
    await expect(
      run('set', '--email', `clerk-cli-${dialect}@example.com`, '--threshold', '1', '--approvers', '1'),
    ).rejects.toThrow(/no account|not an owner or admin/);
    await expect(run('list')).rejects.toThrow(/unknown approvals command/);
    expect(await rules()).toEqual(before);
  });
});
