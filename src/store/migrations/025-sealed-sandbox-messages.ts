// Frozen in time: never edit a migration that has shipped; add a new file instead.
import { sandboxMessageContext, sealedKeyId } from '../../domain/sealed.ts';
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';
import { currentDataKeyId, openSecrets, type SecretSource } from '../server-secret.ts';

export const id = 25;
export const name = 'sealed-sandbox-messages';

/** No change of shape: the same columns now hold sealed values (domain/sealed-sandbox.ts). */
export function up(_t: ColumnTypes): string[] {
  return [];
}

const COLUMNS = ['text_body', 'html_body', 'link'] as const;

/**
 * Seals the text, HTML and link of every sandbox inbox message stored in clear, so a copy of the
 * database opens no test check's payee page. Sealing needs the server secret: without it
 * (`source` null) the migration refuses on a database that holds such messages, as 009 does, and
 * runs on one that holds none. The clear text left in free pages is wiped by the VACUUM that
 * migrate() runs after this transaction commits.
 */
export async function data(tx: Queryable, source: SecretSource | null): Promise<void> {
  const rows = (
    await tx.all<{ id: string; text_body: string; html_body: string; link: string }>(
      'SELECT id, text_body, html_body, link FROM sandbox_messages ORDER BY id',
    )
  ).filter((row) => COLUMNS.some((column) => sealedKeyId(row[column]) === null));
  if (rows.length === 0) return;
  if (source === null)
    throw new Error(
      'migration 025 encrypts the links of the sandbox inbox: run it with the server configuration (checkwriter migrate, or start the server)',
    );
  const { vault } = await openSecrets(tx, source);
  const keyId = await currentDataKeyId(tx);
  const seal = (row: (typeof rows)[number], column: (typeof COLUMNS)[number]): string =>
    sealedKeyId(row[column]) === null
      ? vault.seal(row[column], keyId, sandboxMessageContext(row.id, column))
      : row[column];
  for (const row of rows) {
    await tx.run('UPDATE sandbox_messages SET text_body = ?, html_body = ?, link = ? WHERE id = ?', [
      seal(row, 'text_body'),
      seal(row, 'html_body'),
      seal(row, 'link'),
      row.id,
    ]);
  }
}
