// The office's home: per bank account what is outstanding and the checks
// written and cleared in each of the last weeks, and the latest imports and positive pay exports.
// Reads only. "Outstanding" is the register's own (check-register.service.ts), weeks are the account's
// calendar weeks (domain/weeks.ts) up to today in its time zone.
import type { BankAccount } from '../domain/bank-account.ts';
import { today } from '../domain/dates.ts';
import type { Principal } from '../domain/owner.ts';
import { type Week, weeksUpTo } from '../domain/weeks.ts';
import * as bankAccountStore from '../store/bank-accounts.repository.ts';
import * as checkWeeks from '../store/checks/weeks.repository.ts';
import type { ImportRecord } from '../domain/import-record.ts';
import type { Outstanding } from '../domain/clearing.ts';
import type { ServiceContext } from './context.ts';
import { listImports } from './imports/records.service.ts';
import { listExports, type PositivePayExport } from './positive-pay.service.ts';
import { outstandingByBankAccount } from './check-register.service.ts';

/** Weeks the home's chart shows, this one included. */
export const HOME_WEEKS = 12;
/** Bank accounts the home shows (newest first, as their list); the register lists them all. */
export const HOME_BANK_ACCOUNTS = 10;
/** Imports and positive pay exports the home lists. */
export const HOME_RECENT = 5;

export interface Tally {
  count: number;
  totalCents: number;
}

export interface WeekActivity {
  week: Week;
  written: Tally;
  cleared: Tally;
}

export interface BankAccountHome {
  bankAccount: BankAccount;
  outstanding: Outstanding;
  /** HOME_WEEKS weeks, oldest first. */
  weeks: WeekActivity[];
}

export interface OfficeHome {
  /** Today in the account's time zone. */
  today: string;
  bankAccounts: BankAccountHome[];
  /** How many bank accounts the owner has (more than shown when over HOME_BANK_ACCOUNTS). */
  bankAccountsTotal: number;
  imports: ImportRecord[];
  exports: (PositivePayExport & { bankAccountName: string | null })[];
}

const NONE: Tally = { count: 0, totalCents: 0 };

export async function officeHome(ctx: ServiceContext, principal: Principal): Promise<OfficeHome> {
  const day = today(principal.timeZone, ctx.now());
  const weeks = weeksUpTo(day, HOME_WEEKS);
  const from = weeks[0]?.start ?? day;
  const to = weeks[weeks.length - 1]?.end ?? day;
  const banks = await outstandingByBankAccount(ctx, principal, { limit: HOME_BANK_ACCOUNTS, offset: 0, term: null });
  const ids = banks.items.map((b) => b.bankAccount.id);
  const written = await checkWeeks.writtenByWeek(ctx.db, ids, from, to);
  const cleared = await checkWeeks.clearedByWeek(ctx.db, ids, from, to);
  const tallies = (found: checkWeeks.WeekTotal[]): Map<string, Tally> =>
    new Map(found.map((w) => [`${w.bankAccountId} ${w.week}`, { count: w.count, totalCents: w.totalCents }]));
  const writtenBy = tallies(written);
  const clearedBy = tallies(cleared);
  const bankAccounts = banks.items.map(({ bankAccount, outstanding }) => ({
    bankAccount,
    outstanding,
    weeks: weeks.map((week, i) => ({
      week,
      written: writtenBy.get(`${bankAccount.id} ${i}`) ?? NONE,
      cleared: clearedBy.get(`${bankAccount.id} ${i}`) ?? NONE,
    })),
  }));
  const imports = await listImports(ctx, principal, HOME_RECENT);
  const exports = await listExports(ctx, principal, { limit: HOME_RECENT, offset: 0, term: null });
  const names = await bankAccountStore.bankAccountNames(ctx.db, principal, [
    ...new Set(exports.items.map((e) => e.bankAccountId)),
  ]);
  return {
    today: day,
    bankAccounts,
    bankAccountsTotal: banks.total,
    imports,
    exports: exports.items.map((e) => ({ ...e, bankAccountName: names.get(e.bankAccountId) ?? null })),
  };
}
