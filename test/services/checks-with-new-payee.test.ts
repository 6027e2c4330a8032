// The panel's check form saves a new payee with its check in one transaction: when the check (or
// the edit) is refused after the payee was made, neither is kept. Real databases, both dialects.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../../src/domain/owner.ts';
import { AppError } from '../../src/errors.ts';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import * as bankAccountService from '../../src/services/bank-account.service.ts';
import { editCheckWithNewPayee, writeCheckWithNewPayee } from '../../src/services/checks/with-new-payee.service.ts';
import { getCheck } from '../../src/services/checks/write.service.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { systemActor } from '../../src/domain/actor.ts';

describe.each(dialects())('a check with a new payee in one transaction on %s', (dialect) => {
  let t: TestApp;
  let principal: Principal;
  let bankAccountId: string;

  const ctx = (): ServiceContext => ({
    db: t.database.db,
    config: t.config,
    now: Date.now,
    secret: t.keys.secret,
    vault: t.keys.vault,
    heavyWork: t.heavyWork,
  });
  const payeeNames = async (): Promise<string[]> =>
    (
      await t.database.db.all<{ name: string }>('SELECT name FROM payees WHERE account_id = ? ORDER BY name', [
        principal.accountId,
      ])
    ).map((row) => row.name);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const { account } = await ensureAccount(t.database.db, {
      email: 'np@example.com',
      verified: true,
      phone: '+14155552671',
    });
    principal = { accountId: account.id, env: 'test', keyId: 'k', timeZone: 'UTC', actor: systemActor('test') };
    const [bank] = await bankAccountService.createBankAccounts(ctx(), principal, [
      { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' },
    ]);
    bankAccountId = bank?.id ?? '';
  });
  afterAll(() => t.close());

  it('keeps no payee when the check is refused, and pays the new payee when it is written', async () => {
    const refused = await writeCheckWithNewPayee(
      ctx(),
      principal,
      { name: 'Orphan Payee' },
      {
        bankAccountId: 'no-such-bank-account',
        payeeId: null,
        amount: '10.00',
      },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(await payeeNames()).toEqual([]);

    const [created] = await writeCheckWithNewPayee(
      ctx(),
      principal,
      { name: 'Harbor Plumbing' },
      {
        bankAccountId,
        payeeId: null,
        amount: '10.00',
      },
    );
    const check = await getCheck(ctx(), principal, created?.checkId ?? '');
    expect(check.payeeName).toBe('Harbor Plumbing');
    expect(await payeeNames()).toEqual(['Harbor Plumbing']);
  });

  it('keeps no payee when the edit is refused', async () => {
    const refused = await editCheckWithNewPayee(
      ctx(),
      principal,
      'no-such-check',
      { name: 'Late Payee' },
      { payeeId: null, categoryId: null, memo: '', invoiceNumber: '' },
      null,
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(await payeeNames()).not.toContain('Late Payee');
  });
});
