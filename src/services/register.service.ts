// The check register of a bank account: its checks in register order (issue date, then creation)
// with the running total of outstanding checks, and the outstanding count and total on top
// (docs/reconciliation.md). Reads only: nothing here writes.
import type { BankAccount } from '../domain/bank-account.ts';
import type { Check } from '../domain/check.ts';
import { isOutstanding } from '../domain/clearing.ts';
import type { Owner } from '../domain/owner.ts';
import type { Paged } from '../domain/paging.ts';
import * as checks from '../store/checks.repository.ts';
import type { Page } from '../store/owned-queries.ts';
import * as register from '../store/register.repository.ts';
import { getBankAccount, listBankAccounts } from './bank-account.service.ts';
import type { ServiceContext } from './context.ts';

export interface RegisterRow {
  check: Check;
  outstanding: boolean;
  /** Outstanding total through this check, in register order (cents). */
  runningCents: number;
}

export interface RegisterView {
  bankAccount: BankAccount;
  /** Checks in the register (every status). */
  total: number;
  outstanding: register.Outstanding;
  rows: RegisterRow[];
}

export async function registerOf(
  ctx: ServiceContext,
  owner: Owner,
  bankAccountId: string,
  paging: { limit: number; offset: number },
): Promise<RegisterView> {
  const bankAccount = await getBankAccount(ctx, owner, bankAccountId);
  const outstanding = await register.outstandingOf(ctx.db, bankAccount.id);
  const total = await register.registerLength(ctx.db, bankAccount.id);
  const entries = await register.registerPage(ctx.db, bankAccount.id, paging.limit, paging.offset, total);
  // The ids come from the bank account's own index (scoped above); checksInListOrder reads them by
  // primary key. (findChecks' owner filter led SQLite's planner through the owner's whole list:
  // 600 ms for 50 ids among 100,000 checks.)
  const found = new Map(
    (
      await checks.checksInListOrder(
        ctx.db,
        entries.map((e) => e.id),
      )
    ).map((c) => [c.id, c]),
  );
  const rows = entries.flatMap((e) => {
    const check = found.get(e.id);
    return check === undefined ? [] : [{ check, outstanding: isOutstanding(check), runningCents: e.runningCents }];
  });
  return { bankAccount, total, outstanding, rows };
}

/** The owner's bank accounts (a page of them) with each one's outstanding count and total. */
export async function outstandingByBankAccount(
  ctx: ServiceContext,
  owner: Owner,
  page: Page,
): Promise<Paged<{ bankAccount: BankAccount; outstanding: register.Outstanding }>> {
  const accounts = await listBankAccounts(ctx, owner, page);
  const items = [];
  for (const bankAccount of accounts.items)
    items.push({ bankAccount, outstanding: await register.outstandingOf(ctx.db, bankAccount.id) });
  return { total: accounts.total, items };
}
