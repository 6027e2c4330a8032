// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 8;
export const name = 'print-offsets';

/**
 * Printer offsets per bank account, in hundredths of an inch (positive x moves the print right,
 * positive y down): every PDF printed for the account is shifted by them (docs/printing.md).
 */
export function up(_t: ColumnTypes): string[] {
  return [
    'ALTER TABLE bank_accounts ADD COLUMN print_offset_x INTEGER NOT NULL DEFAULT 0',
    'ALTER TABLE bank_accounts ADD COLUMN print_offset_y INTEGER NOT NULL DEFAULT 0',
  ];
}
