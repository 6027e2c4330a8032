// Positive pay exports: the request, the export record, and the file answered inline
// (docs/positive-pay.md).
import { Type } from 'typebox';
import { MAX_RANGE_DAYS } from '../domain/positive-pay.ts';
import { DateText, Meta } from './common.ts';

export const CreatePositivePayExportBody = Type.Object(
  {
    bankAccountId: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'The bank account whose checks are listed.',
    }),
    from: DateText('First day of the range (YYYY-MM-DD), included.'),
    to: DateText(`Last day of the range (YYYY-MM-DD), included; at most ${MAX_RANGE_DAYS} days counting both ends.`),
    format: Type.Union([Type.Literal('csv'), Type.Literal('fixed'), Type.Literal('bank')], {
      'x-message': 'must be csv, fixed or bank',
      description:
        "`csv`: our documented CSV; `fixed`: the JPMorgan Chase ARP Standard Input fixed-width layout; `bank`: the layout chosen on the bank account in the panel (a preset or the company's custom layout), refused (422) when none is chosen.",
    }),
  },
  { additionalProperties: false },
);

export const PositivePayExportRead = Type.Object({
  positivePayExportId: Type.String(),
  bankAccountId: Type.String(),
  from: Type.String({ description: 'YYYY-MM-DD, included.' }),
  to: Type.String({ description: 'YYYY-MM-DD, included.' }),
  format: Type.String({
    description:
      "The layout the file was written in: `csv`, `fixed`, another preset's name, or the id of the company's custom layout (`ppl_…`) when `bank` was asked.",
  }),
  checkCount: Type.Integer({ description: 'Records in the file: issued plus voided.' }),
  issuedCount: Type.Integer(),
  issuedTotalCents: Type.Integer({ description: 'Sum of the issued records, in cents.' }),
  voidCount: Type.Integer(),
  voidTotalCents: Type.Integer({ description: 'Sum of the void records, in cents.' }),
  fileSha256: Type.String({ description: 'SHA-256 (hex) of the file as answered, to check a stored copy against.' }),
  fileBytes: Type.Integer(),
  createdBy: Type.Object({
    via: Type.Union([Type.Literal('api'), Type.Literal('panel'), Type.Literal('cli')]),
    id: Type.String({ description: "The API key id, or the account's email for the panel and the command line." }),
  }),
  createdAt: Type.String({ description: 'ISO 8601, UTC.' }),
});

export const PositivePayFileWire = Type.Object({
  name: Type.String(),
  contentType: Type.String(),
  content: Type.String({ description: 'The whole file, as text (CRLF line ends).' }),
});

export const CreatePositivePayExportResponse = Type.Object({
  success: Type.Literal(true),
  message: Type.String(),
  data: Type.Object({ positivePayExport: PositivePayExportRead, file: PositivePayFileWire }),
});

export const PositivePayExportResponse = Type.Object({ success: Type.Literal(true), data: PositivePayExportRead });

export const ListPositivePayExportsResponse = Type.Object({
  success: Type.Literal(true),
  data: Type.Object({ meta: Meta, positivePayExports: Type.Array(PositivePayExportRead) }),
});
