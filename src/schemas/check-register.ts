// Clearing, reconciliation and the register (docs/reconciliation.md): additions to the spec.
import { Type } from 'typebox';
import { BANK_FILE_LAYOUTS, type BankFileLayout, MAX_CLEARED_ITEMS_BYTES } from '../domain/cleared-items.ts';
import { CheckRead } from './checks.ts';
import { MISMATCH_REASONS, type MismatchReason } from '../domain/clearing.ts';
import { DateText, Meta, NullableInteger, NullableString, PageQuery } from './common.ts';

const Day = (description: string) =>
  Type.Optional(DateText(`${description} YYYY-MM-DD (or MM/DD/YYYY); default today in the account time zone.`));

export const ClearCheckBody = Type.Object(
  { clearedDate: Day('The day the bank paid the check, not after today.') },
  { additionalProperties: false },
);

export const ClearCheckResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: CheckRead,
});

/** The content types the bank's file may be sent with; which reader runs is told by the file itself. */
export const CLEARED_ITEMS_CONTENT_TYPES = ['text/csv', 'text/plain', 'application/x-ofx', 'application/vnd.intu.qfx'];

/** POST /bankAccounts/{id}/clearedItems: the bank's file itself, as the body. */
export const ClearedItemsBody = Type.String({
  maxLength: MAX_CLEARED_ITEMS_BYTES,
  description:
    "The bank's file of paid checks as downloaded: a CSV (with a header line, below a preamble or summary block or not, or Wells Fargo's five fields without one), an OFX/QFX download or a BAI2 file, recognised by its content. Content-Type: text/csv, text/plain, application/x-ofx or application/vnd.intu.qfx.",
});

export const ClearedItemsQuery = Type.Object({
  clearedDate: Day('Cleared date of the rows when the file has no date column.'),
});

const ReconciledRow = {
  line: Type.Integer({ description: "The row's line in the file (1-based)." }),
  checkNumber: Type.String({ description: 'The check number as the bank wrote it.' }),
  amount: Type.Number({ description: 'The amount the bank paid.' }),
  clearedDate: Type.String(),
  checkId: NullableString({ description: 'The check the number names on this bank account, if any.' }),
};

export const ClearedItemsResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({
    matched: Type.Array(Type.Object(ReconciledRow)),
    mismatchedCount: Type.Integer({
      description: 'Rows that did not clear, all of them; mismatched lists the first 1,000.',
    }),
    mismatched: Type.Array(
      Type.Object({
        ...ReconciledRow,
        reason: Type.Unsafe<MismatchReason>({ type: 'string', enum: [...MISMATCH_REASONS] }),
        message: Type.String(),
        checkAmount: Type.Unsafe<number | null>({ type: ['number', 'null'], description: "The check's own amount." }),
        checkStatus: NullableInteger(),
        checkClearedDate: NullableString(),
      }),
      { description: 'The first 1,000 rows that did not clear, in file order (mismatchedCount counts them all).' },
    ),
    creditsCount: Type.Integer({ description: 'Rows of money in that carry a number, all of them.' }),
    credits: Type.Array(
      Type.Object({
        line: Type.Integer(),
        checkNumber: Type.String({ description: 'The number the row carries (a deposit slip, a returned check).' }),
        amount: Type.Number(),
        date: Type.String(),
      }),
      { description: 'The first 1,000 rows of money in with a number: never matched, never cleared.' },
    ),
    skippedLines: Type.Integer({ description: 'Lines with no check number (fees, transfers) or blank.' }),
    layout: Type.Unsafe<BankFileLayout>({ type: 'string', enum: Object.keys(BANK_FILE_LAYOUTS) }),
    layoutName: Type.String({ description: 'What the file was recognised as, in words.' }),
    columns: Type.Object({ checkNumber: Type.String(), amount: Type.String(), date: NullableString() }),
    cleared: Type.Object({ count: Type.Integer(), total: Type.Number() }),
  }),
});

export const CheckRegisterQuery = Type.Object({ perPage: PageQuery.perPage, page: PageQuery.page });

const Outstanding = Type.Object({
  count: Type.Integer({ description: 'Issued checks (printed, mailed, emailed, e-printed) not cleared.' }),
  total: Type.Number({ description: 'Their amounts added up.' }),
});

export const CheckRegisterResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    meta: Meta,
    bankAccount: Type.Object({ bankAccountId: Type.String(), name: Type.String() }),
    outstanding: Outstanding,
    checks: Type.Array(
      Type.Object({
        checkId: Type.String(),
        serialNumber: Type.String(),
        date: Type.String(),
        payee: Type.Object({ payeeId: Type.String(), name: Type.String() }),
        amount: Type.Number(),
        status: Type.Integer(),
        statusDescription: Type.String(),
        clearedDate: NullableString(),
        outstanding: Type.Boolean(),
        runningOutstanding: Type.Number({ description: 'Outstanding total through this check, in register order.' }),
      }),
    ),
  }),
});
