// Task: a positive pay file in any layout (formats/positive-pay-layouts/) from the records the main thread
// read, with the digest and size the export's record keeps: up to 20,000 records a file.
import { createHash } from 'node:crypto';
import type { PositivePayFile, PositivePayRecord } from '../../domain/positive-pay.ts';
import { positivePayLayoutFile } from '../../formats/positive-pay-file.ts';
import type { PositivePayLayout } from '../../formats/positive-pay-layouts/layout.ts';
import { LayoutValueError } from '../../formats/positive-pay-layouts/writer.ts';

export interface PositivePayFileInput {
  /** The layout itself (plain data), so a custom layout read from the database writes here too. */
  layout: PositivePayLayout;
  accountNumber: string;
  /** For layouts that write it (a custom layout's `routingNumber` field). */
  routingNumber: string;
  records: PositivePayRecord[];
  baseName: string;
  /** The day the file is written (YYYY-MM-DD, the company's time zone), for layouts that write it. */
  fileDate: string;
}

export type PositivePayFileOutput =
  | {
      file: PositivePayFile;
      /** SHA-256 of the file's UTF-8 bytes, hex. */
      sha256: string;
      bytes: number;
    }
  /** The layout cannot hold a value (the writer's words); a value, since an error's class does not cross threads. */
  | { refused: string };

export async function run(input: PositivePayFileInput): Promise<PositivePayFileOutput> {
  const account = { accountNumber: input.accountNumber, routingNumber: input.routingNumber };
  let file: PositivePayFile;
  try {
    file = positivePayLayoutFile(input.layout, account, input.records, input.baseName, { fileDate: input.fileDate });
  } catch (error) {
    if (error instanceof LayoutValueError) return { refused: error.message };
    throw error;
  }
  const bytes = Buffer.from(file.content, 'utf8');
  return { file, sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length };
}
