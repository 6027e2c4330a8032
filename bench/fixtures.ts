// What every scenario needs before it can measure: an account with a test key (made straight in
// the store, as `checkwriter keys create` does), then a bank account and payees created over
// HTTP like a client would (test/support/app.ts seedBasics does the same through inject).
import type { Owner } from '../src/domain/owner.ts';
import { loadConfig } from '../src/config.ts';
import { ApiKeys, ensureAccount } from '../src/services/api-key.service.ts';
import type { Db } from '../src/store/db.ts';
import type { HttpClient } from './http-client.ts';

export interface BenchAccount {
  owner: Owner;
  key: string;
}

export interface Basics {
  bankAccountId: string;
  payees: { id: string; name: string }[];
}

/** An account and a test-environment key; the server child verifies it against the same tables. */
export async function createAccount(
  database: { db: Db; env: Record<string, string> },
  email: string,
): Promise<BenchAccount> {
  const { db } = database;
  // The same server secret as the server child: both read it from where this environment says.
  const keys = await ApiKeys.open(db, loadConfig(database.env));
  const { account } = await ensureAccount(db, { email, verified: true, phone: '+14155552671' });
  const { key } = await keys.create(account.id, 'test', 'bench');
  return { owner: { accountId: account.id, env: 'test' }, key };
}

interface BankAccountsReply {
  data: { bankAccounts: { bankAccountId: string }[] };
}

interface PayeesReply {
  data: { payees: { payeeId: string; name: string }[] };
}

/** Bank accounts made in this run: each its own number (the same number twice is one account, a duplicate). */
let bankAccountsMade = 0;

export async function createBasics(client: HttpClient, payeeNames: readonly string[]): Promise<Basics> {
  const accountNumber = String(123456789 + bankAccountsMade);
  bankAccountsMade += 1;
  const bank = await client.json<BankAccountsReply>('POST', '/bankAccounts', 201, {
    bankAccounts: [{ name: 'Operating', bankName: 'First Bench Bank', routingNumber: '011000015', accountNumber }],
  });
  const bankAccountId = bank.data.bankAccounts[0]?.bankAccountId;
  if (bankAccountId === undefined) throw new Error('POST /bankAccounts returned no bank account');
  const created = await client.json<PayeesReply>('POST', '/payees', 201, {
    payees: payeeNames.map((name, i) => ({ name, email: `ap${i}@payee.test` })),
  });
  return { bankAccountId, payees: created.data.payees.map((p) => ({ id: p.payeeId, name: p.name })) };
}
