// POST /imports and GET /imports/{importId}: CSV imports of payees and checks (docs/imports.md).
import { Type } from 'typebox';
import { CHECK_IMPORT_FIELDS, PAYEE_IMPORT_FIELDS } from '../domain/import-columns.ts';

export const CreateImportBody = Type.Object(
  {
    type: Type.Union([Type.Literal('checks'), Type.Literal('payees')], { 'x-message': 'must be checks or payees' }),
    csv: Type.String({
      minLength: 1,
      description: 'The CSV file as text (UTF-8; at most 4 MB, 10,000 rows, 200 columns and 4,096 characters a cell).',
    }),
    fileName: Type.Optional(Type.String({ maxLength: 200 })),
    mapping: Type.Optional(
      Type.Record(Type.String({ maxLength: 200 }), Type.String({ maxLength: 40 }), {
        maxProperties: 100,
        description: `Column (header text or 0-based index) -> field; '' leaves a column out. Check fields: ${CHECK_IMPORT_FIELDS.join(', ')}. Payee fields: ${PAYEE_IMPORT_FIELDS.join(', ')}. Columns not named are guessed from their headers.`,
      }),
    ),
    bankAccountId: Type.Optional(
      Type.String({ maxLength: 64, description: 'Bank account of every check whose row names none.' }),
    ),
    createPayees: Type.Optional(Type.Boolean({ description: 'Create payees whose names match none (checks).' })),
    dateOrder: Type.Optional(
      Type.Union([Type.Literal('mdy'), Type.Literal('dmy')], { 'x-message': 'must be mdy or dmy' }),
    ),
    moneyOut: Type.Optional(
      Type.Union([Type.Literal('positive'), Type.Literal('negative')], {
        'x-message': 'must be positive or negative',
        description:
          'Our addition: how the file writes money paid out. negative (a register): -2,450.00 is a $2,450.00 check and positive rows (deposits, bills) are left out and listed. A recognised export (known layouts) says it itself.',
      }),
    ),
    dryRun: Type.Optional(Type.Boolean({ description: 'Check the file and answer the preview; write nothing.' })),
  },
  { additionalProperties: false },
);

const RowError = Type.Object({ row: Type.Integer(), line: Type.Integer(), messages: Type.Array(Type.String()) });

export const ImportRead = Type.Object({
  importId: Type.String(),
  type: Type.String(),
  state: Type.String({
    description: 'queued, running, succeeded or failed (draft: a panel upload not yet confirmed).',
  }),
  fileName: Type.String(),
  rowsTotal: Type.Integer(),
  rowsDone: Type.Integer(),
  errors: Type.Array(RowError),
  created: Type.Object({
    checkIds: Type.Array(Type.String()),
    payeeIds: Type.Array(Type.String()),
    createdPayeeIds: Type.Array(Type.String()),
  }),
  createdAt: Type.String(),
  startedAt: Type.Union([Type.String(), Type.Null()]),
  finishedAt: Type.Union([Type.String(), Type.Null()]),
});

export const ImportResponse = Type.Object({ success: Type.Literal(true), data: ImportRead });

export const ImportPreviewResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({
    type: Type.String(),
    header: Type.Array(Type.String()),
    mapping: Type.Array(Type.Union([Type.String(), Type.Null()])),
    rowsTotal: Type.Integer(),
    errors: Type.Array(RowError, {
      description: 'The first 1,000 rows with errors, in row order (rowsWithErrors counts them all).',
    }),
    rowsWithErrors: Type.Integer({ description: 'How many rows have errors; errors lists at most 1,000 of them.' }),
    newPayees: Type.Array(Type.String()),
    layout: Type.Union([Type.Object({ id: Type.String(), label: Type.String() }), Type.Null()], {
      description: 'The known export the header matched ("Xero bills export"), or null.',
    }),
    headerLine: Type.Integer({ description: 'The line of the header: title lines above it are left out.' }),
    moneyOut: Type.String({ description: 'positive, or negative when money paid out is negative in the file.' }),
    leftOut: Type.Array(Type.Object({ line: Type.Integer(), why: Type.String(), text: Type.String() }), {
      description:
        'Lines not taken as rows (title, section, total, blank, footer, money in, a bill’s other lines), each with why.',
    }),
  }),
});
