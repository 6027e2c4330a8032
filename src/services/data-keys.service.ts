// Rotating the key every sealed value is sealed under (docs/operations.md, "Rotating the secret"):
// bank account numbers, the sandbox inbox's messages and authenticator app secrets, re-sealed in
// one transaction under a new data key, of the same secret or of a new one.
import { maskAccountNumber } from '../domain/account-number.ts';
import * as secondFactors from '../store/second-factors.repository.ts';
import {
  bankAccountNumberContext,
  totpSecretContext,
  newKeyId,
  SealError,
  sealedKeyId,
  type Vault,
} from '../domain/sealed.ts';
import { openSandboxColumns, type SandboxMessageColumns, sealSandboxColumns } from '../domain/sealed-sandbox.ts';
import type { Db, Queryable } from '../store/db.ts';
import { currentDataKeyId, setDataKeyId } from '../store/server-secret.ts';
import * as bankAccountStore from '../store/bank-accounts.repository.ts';
import * as sandboxInbox from '../store/sandbox-inbox.repository.ts';

export interface Rotation {
  previousKeyId: string;
  keyId: string;
  /** Bank account numbers re-sealed under the new key (deleted accounts' too). */
  resealed: number;
  /** Sandbox inbox messages re-sealed (those that no longer open with either secret are left). */
  sandboxResealed: number;
  /** People's authenticator app secrets re-sealed. */
  totpResealed: number;
}

/**
 * `checkwriter keys rotate-encryption`: a new data key id becomes current and every bank account
 * number is opened and sealed again under it, in one transaction (a failure changes nothing).
 * Until a value is re-sealed it opens under its own key id, so values sealed by a server that
 * still ran with the old id during the rotation stay readable and a second rotation picks them up.
 * With `previous` (the replaced server secret's vault) it moves the numbers to the new secret.
 * The sandbox inbox's sealed messages are re-sealed the same way.
 */
export async function rotateDataKey(
  db: Db,
  vault: Vault,
  previous: Vault | null = null,
  /** Run in the same transaction after the values are re-sealed (the secret's new check value). */
  alsoInTransaction: (tx: Queryable) => Promise<void> = async () => undefined,
): Promise<Rotation> {
  // After the server secret was replaced, values sealed under the old one open with `previous`;
  // ones sealed since (under the new secret) with `vault`.
  const open = (sealed: string, context: string): string => {
    if (previous !== null) {
      try {
        return previous.open(sealed, context);
      } catch {
        // sealed under the new secret already
      }
    }
    return vault.open(sealed, context);
  };
  return db.transaction(async (tx) => {
    const previousKeyId = await currentDataKeyId(tx);
    const keyId = newKeyId();
    await setDataKeyId(tx, keyId);
    let resealed = 0;
    for (const row of await bankAccountStore.allSealedAccountNumbers(tx)) {
      const context = bankAccountNumberContext(row.id);
      const plain = sealedKeyId(row.accountNumber) === null ? row.accountNumber : open(row.accountNumber, context);
      const masked = sealedKeyId(row.accountNumber) === null ? maskAccountNumber(plain) : null;
      await bankAccountStore.storeAccountNumber(tx, row.id, vault.seal(plain, keyId, context), masked);
      resealed += 1;
    }
    // The sandbox inbox is sealed the same way; a message that opens with neither secret (sealed
    // under one replaced before) is left as it is rather than stop the rotation of the numbers.
    let sandboxResealed = 0;
    for (const row of await sandboxInbox.allSandboxSealed(tx)) {
      let opened: SandboxMessageColumns;
      try {
        opened = openSandboxColumns(row, open);
      } catch (error) {
        if (error instanceof SealError) continue;
        throw error;
      }
      const sealed = sealSandboxColumns(row.id, opened, (plain, context) => vault.seal(plain, keyId, context));
      await sandboxInbox.storeSandboxSealed(tx, { id: row.id, ...sealed });
      sandboxResealed += 1;
    }
    // People's TOTP secrets are sealed the same way: re-sealed, or nobody could prove their app
    // after the server secret is replaced.
    let totpResealed = 0;
    for (const row of await secondFactors.allSealedTotp(tx)) {
      const context = totpSecretContext(row.personId);
      await secondFactors.storeSealedTotp(tx, row.personId, vault.seal(open(row.sealed, context), keyId, context));
      totpResealed += 1;
    }
    await alsoInTransaction(tx);
    return { previousKeyId, keyId, resealed, sandboxResealed, totpResealed };
  });
}
