// What the operator's command line asks of accounts outside any request: an account found by its
// email, whether any API key exists yet (the start-up banner's hint), and a company name set with
// `keys create --company`. The command line reaches the accounts table only through here, as the
// API and the panel reach it through their services.
import type { Account } from '../domain/account.ts';
import type { Db } from '../store/db.ts';
import * as accounts from '../store/accounts.repository.ts';

export function accountByEmail(db: Db, email: string): Promise<Account | undefined> {
  return accounts.findAccountByEmail(db, email);
}

export function anyActiveApiKey(db: Db): Promise<boolean> {
  return accounts.hasActiveApiKey(db);
}

/** The name payees see as the sender; the caller has already checked it (domain/account.ts). */
export function setCompanyName(db: Db, accountId: string, company: string): Promise<void> {
  return accounts.setCompany(db, accountId, company);
}
