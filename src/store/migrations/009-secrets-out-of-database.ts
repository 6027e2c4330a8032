// Frozen in time: never edit a migration that has shipped; add a new file instead.
// A copy of the database must yield no secret and no bank account number.
import { maskAccountNumber } from '../../domain/account-number.ts';
import { bankAccountNumberContext, sealedKeyId } from '../../domain/sealed.ts';
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';
import { allSealedAccountNumbers, storeAccountNumber } from '../bank-accounts.repository.ts';
import { currentDataKeyId, hasLegacySecret, openSecrets, type SecretSource } from '../server-secret.ts';

export const id = 9;
export const name = 'secrets-out-of-database';

/**
 * What the API shows of the number is kept beside the sealed number, so lists never decrypt; an
 * unsent message keeps its random link or account token sealed until it is sent.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    "ALTER TABLE bank_accounts ADD COLUMN account_number_masked TEXT NOT NULL DEFAULT ''",
    'ALTER TABLE deliveries ADD COLUMN sealed_token TEXT',
  ];
}

/**
 * Moves a server secret kept in `settings` out of the database (server-secret.ts) and seals every
 * plain-text bank account number. The plain text left in free pages is wiped by the VACUUM that
 * migrate() runs after this transaction commits.
 */
export async function data(tx: Queryable, source: SecretSource | null): Promise<void> {
  const rows = (await allSealedAccountNumbers(tx)).filter((r) => sealedKeyId(r.accountNumber) === null);
  if (source === null) {
    if (rows.length === 0 && !(await hasLegacySecret(tx))) return;
    throw new Error(
      'migration 009 moves the server secret out of the database and encrypts bank account numbers: run it with the server configuration (checkwriter migrate, or start the server)',
    );
  }
  const { vault } = await openSecrets(tx, source);
  const keyId = await currentDataKeyId(tx);
  for (const row of rows) {
    await storeAccountNumber(
      tx,
      row.id,
      vault.seal(row.accountNumber, keyId, bankAccountNumberContext(row.id)),
      maskAccountNumber(row.accountNumber),
    );
  }
}
