// Task: a positive pay file in any layout (formats/positive-pay-layouts/) from the records the main thread
// read, with the digest and size the export's record keeps: up to 20,000 records a file.
import { createHash } from 'node:crypto';
import type { PositivePayFile, PositivePayRecord } from '../../domain/positive-pay.ts';
import { positivePayLayoutFile } from '../../formats/positive-pay-file.ts';
import type { PositivePayLayout } from '../../formats/positive-pay-layouts/layout.ts';

export interface PositivePayFileInput {
  /** The layout itself (plain data), so a custom layout read from the database writes here too. */
  layout: PositivePayLayout;
  accountNumber: string;
  records: PositivePayRecord[];
  baseName: string;
}

export interface PositivePayFileOutput {
  file: PositivePayFile;
  /** SHA-256 of the file's UTF-8 bytes, hex. */
  sha256: string;
  bytes: number;
}

export async function run(input: PositivePayFileInput): Promise<PositivePayFileOutput> {
  const file = positivePayLayoutFile(input.layout, input.accountNumber, input.records, input.baseName);
  const bytes = Buffer.from(file.content, 'utf8');
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
