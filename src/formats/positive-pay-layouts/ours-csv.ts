// Our own documented CSV (docs/positive-pay.md, "CSV"): RFC 4180, a header row, dollars with two
// decimals, ISO dates, I/V. Not a bank's layout; most banks' portals map its columns on upload.
import type { PositivePayLayout } from './layout.ts';

export const OURS_CSV: PositivePayLayout = {
  name: 'csv',
  title: 'Checkwriter CSV (documented columns, header row)',
  record: { kind: 'delimited', delimiter: ',' },
  codes: { issue: 'I', void: 'V' },
  headerColumns: ['account_number', 'check_number', 'issue_date', 'amount', 'payee_name', 'void_indicator'],
  detail: [
    { source: { kind: 'accountNumber' } },
    { source: { kind: 'checkNumber' } },
    { source: { kind: 'issueDate', format: 'YYYY-MM-DD' } },
    { source: { kind: 'amount', format: 'decimal' } },
    { source: { kind: 'payee' } },
    { source: { kind: 'code' } },
  ],
  lineEnding: '\r\n',
  text: 'asIs',
  extension: 'csv',
  contentType: 'text/csv; charset=utf-8',
};
