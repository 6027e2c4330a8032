// The audit trail as a CSV file (the panel's export): one line per record, through the same
// writer as positive pay's CSV, so a value someone typed (a payee's name, a memo, an email tried
// at sign-in) that starts like a formula is written as text and never run by a spreadsheet.
import type { AuditRecord } from '../domain/audit.ts';
import { csvLine } from './csv-writer.ts';

export const AUDIT_CSV_HEADER = [
  'seq',
  'when (UTC)',
  'environment',
  'who',
  'actor kind',
  'actor id',
  'role',
  'ip',
  'user agent',
  'request id',
  'action',
  'object type',
  'object id',
  'changes',
  'record id',
  'hash',
] as const;

/** How a record's changes read in one cell: `field: old → new; …`. */
export function changesText(record: AuditRecord): string {
  return record.changes.map((c) => `${c.field}: ${c.old ?? '—'} → ${c.new ?? '—'}`).join('; ');
}

export function auditCsv(records: readonly AuditRecord[]): string {
  const lines = [csvLine(AUDIT_CSV_HEADER)];
  for (const r of records)
    lines.push(
      csvLine([
        String(r.seq),
        new Date(r.at).toISOString(),
        r.env,
        r.actorLabel,
        r.actorKind,
        r.actorId,
        r.role,
        r.ip,
        r.userAgent,
        r.requestId,
        r.action,
        r.objectType,
        r.objectId,
        changesText(r),
        r.id,
        r.hash,
      ]),
    );
  return `${lines.join('\r\n')}\r\n`;
}
