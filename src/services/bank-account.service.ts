import type { Owner } from '../domain/owner.ts';
import type { BankAccount } from '../domain/records.ts';
import { newId } from '../domain/ids.ts';
import { isValidRoutingNumber } from '../domain/routing-number.ts';
import { notFound } from '../errors.ts';
import * as resources from '../store/resources.repository.ts';
import type { ServiceContext } from './context.ts';
import { rules } from './validation.ts';

/** Check numbers start here unless the bank account says otherwise (API decisions). */
export const DEFAULT_STARTING_SERIAL = 10001;

export interface BankAccountInput {
  name: string;
  bankName?: string;
  bankAddress?: string;
  routingNumber: string;
  accountNumber: string;
  startingSerial?: number;
}

export async function createBankAccounts(ctx: ServiceContext, owner: Owner, items: readonly BankAccountInput[]): Promise<BankAccount[]> {
  const now = ctx.now();
  const accounts = items.map((item, i): BankAccount => {
    if (!isValidRoutingNumber(item.routingNumber)) throw rules.custom(`bankAccounts.${i}.routingNumber`, 'must be a valid 9-digit ABA routing number');
    return {
      id: newId('bank', now),
      name: item.name,
      bankName: item.bankName ?? '',
      bankAddress: item.bankAddress ?? '',
      routingNumber: item.routingNumber,
      accountNumber: item.accountNumber,
      nextSerial: item.startingSerial ?? DEFAULT_STARTING_SERIAL,
      createdAt: now,
    };
  });
  await ctx.db.transaction(async (tx) => {
    for (const account of accounts) await resources.insertBankAccount(tx, owner, account);
  });
  return accounts;
}

export async function getBankAccount(ctx: ServiceContext, owner: Owner, id: string): Promise<BankAccount> {
  const account = await resources.findBankAccount(ctx.db, owner, id);
  if (account === undefined) throw notFound('Bank account');
  return account;
}

export interface BankAccountChanges {
  name?: string;
  bankName?: string;
  bankAddress?: string;
  nextSerial?: number;
}

export async function updateBankAccount(ctx: ServiceContext, owner: Owner, id: string, changes: BankAccountChanges): Promise<BankAccount> {
  if ((await resources.updateBankAccount(ctx.db, owner, id, changes)) === 0) throw notFound('Bank account');
  return getBankAccount(ctx, owner, id);
}

export async function deleteBankAccount(ctx: ServiceContext, owner: Owner, id: string): Promise<void> {
  if ((await resources.deleteBankAccount(ctx.db, owner, id, ctx.now())) === 0) throw notFound('Bank account');
}

export function listBankAccounts(ctx: ServiceContext, owner: Owner, page: resources.Page): Promise<resources.Paged<BankAccount>> {
  return resources.listBankAccounts(ctx.db, owner, page);
}

/** The account number as the API shows it after creation: last four digits only. */
export function maskAccountNumber(accountNumber: string): string {
  return accountNumber.length <= 4 ? accountNumber : `****${accountNumber.slice(-4)}`;
}
