// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 24;
export const name = 'mailing-addresses';

/**
 * A mailing's custom addresses (`to_address_id`, `from_address_id`) become foreign keys to
 * `addresses`, on both databases: the row locks of the services decide a delete racing a mailing,
 * and the database refuses whatever slips past them, so a queued mailing can never name an
 * address that is gone. Before this, a delete racing `POST /mailchecks` on PostgreSQL could leave
 * exactly that.
 *
 * Rows that already point nowhere (left by that race):
 * - a queued mailing refuses the migration, naming the mailings: its destination (or sender) is
 *   lost, and neither sending it to the payee's address nor dropping it is ours to decide. The
 *   operator cancels it (`checkwriter mailings cancel`, with the release still running) or puts
 *   the address back from a backup, and upgrades again (docs/operations.md). Nothing is changed.
 * - a dispatched or cancelled one has the reference cleared: it is history, nothing will be sent,
 *   and the address it named cannot be read back anyway.
 *
 * Indexes on both columns serve the foreign keys' look-ups when an address is deleted.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

const missing = (column: string): string =>
  `(m.${column} IS NOT NULL AND NOT EXISTS (SELECT 1 FROM addresses a WHERE a.id = m.${column}))`;

export async function data(tx: Queryable): Promise<void> {
  const lost = await tx.all<{ id: string }>(
    `SELECT m.id FROM mailings m WHERE m.status = 'queued' AND (${missing('to_address_id')} OR ${missing('from_address_id')}) ORDER BY m.id`,
  );
  if (lost.length > 0) {
    throw new Error(
      `migration 024 refused: ${lost.length} queued mailing(s) name a custom address that was deleted: ${lost
        .map((r) => r.id)
        .join(', ')}. Cancel each (checkwriter mailings cancel MAILING_ID, with the release now running) ` +
        'or restore the address from a backup, then upgrade again (docs/operations.md, "Rolling upgrades and migrations").',
    );
  }
  for (const column of ['to_address_id', 'from_address_id'])
    await tx.run(
      `UPDATE mailings SET ${column} = NULL WHERE id IN (SELECT m.id FROM mailings m WHERE ${missing(column)})`,
    );
  for (const statement of tx.dialect === 'postgres' ? POSTGRES : SQLITE) await tx.run(statement);
}

const INDEXES = [
  'CREATE INDEX mailings_to_address ON mailings (to_address_id) WHERE to_address_id IS NOT NULL',
  'CREATE INDEX mailings_from_address ON mailings (from_address_id) WHERE from_address_id IS NOT NULL',
];

const POSTGRES = [
  'ALTER TABLE mailings ADD CONSTRAINT mailings_to_address_fk FOREIGN KEY (to_address_id) REFERENCES addresses (id)',
  'ALTER TABLE mailings ADD CONSTRAINT mailings_from_address_fk FOREIGN KEY (from_address_id) REFERENCES addresses (id)',
  ...INDEXES,
];

/**
 * SQLite cannot add a constraint to a table: the table is made again with them (its columns as
 * migrations 004 and 010 left them), filled, and put in the old one's place with its indexes.
 * Nothing refers to `mailings`, so dropping it checks no other table's keys.
 */
const COLUMNS = [
  'id',
  'account_id',
  'env',
  'check_id',
  'shipping_type_id',
  'paper_type_id',
  'to_address_id',
  'status',
  'created_at',
  'updated_at',
  'inform_type_id',
  'enable_sms_inform',
  'enable_email_inform',
  'payee_email',
  'payee_phone',
  'shipping_to_custom_address',
  'from_address_id',
  'custom_shipping_type_id',
].join(', ');

const SQLITE = [
  `CREATE TABLE mailings_024 (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    env TEXT NOT NULL,
    check_id TEXT NOT NULL REFERENCES checks(id),
    shipping_type_id INTEGER NOT NULL,
    paper_type_id INTEGER NOT NULL,
    to_address_id TEXT REFERENCES addresses(id),
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    inform_type_id INTEGER,
    enable_sms_inform INTEGER NOT NULL DEFAULT 0,
    enable_email_inform INTEGER NOT NULL DEFAULT 0,
    payee_email TEXT,
    payee_phone TEXT,
    shipping_to_custom_address INTEGER NOT NULL DEFAULT 0,
    from_address_id TEXT REFERENCES addresses(id),
    custom_shipping_type_id INTEGER
  )`,
  `INSERT INTO mailings_024 (${COLUMNS}) SELECT ${COLUMNS} FROM mailings`,
  'DROP TABLE mailings',
  'ALTER TABLE mailings_024 RENAME TO mailings',
  'CREATE INDEX mailings_check ON mailings (check_id)',
  'CREATE INDEX mailings_status ON mailings (status, created_at)',
  ...INDEXES,
];
