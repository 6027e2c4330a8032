// The shapes an import passes between its steps — the options it is asked with, the requests it
// will make (stored as `imports.input`), a row's errors, what it made — and the bounds of the
// drafts a panel upload keeps. The file's own bounds are in read-import-file.ts.
import type { Actor } from '../../domain/actor.ts';
import type { DateOrder, ImportKind, PayeeRow } from '../../domain/import-columns.ts';
import type { CheckInput as CheckRequest } from '../../schemas/checks.ts';

export interface ImportOptions {
  kind: ImportKind;
  csv: string;
  fileName?: string;
  /** Column (header text or 0-based index) -> field name, or '' to leave a column out. */
  mapping?: Readonly<Record<string, string>>;
  /** The bank account of every check whose row names none. */
  bankAccountId?: string;
  /** Create a payee for a check whose payee name matches none (else such a row is an error). */
  createPayees?: boolean;
  /** How slashed dates read: month/day/year (default, US exports) or day/month/year. */
  dateOrder?: DateOrder;
  /** 'negative': money paid out is negative in this file (a register); positive rows are left out. */
  moneyOut?: 'positive' | 'negative';
}

export interface RowError {
  /** 1-based data row (the header is not counted). */
  row: number;
  /** 1-based line of the file where the row starts. */
  line: number;
  messages: string[];
}

export interface CheckPlan {
  row: number;
  item: CheckRequest;
  /** The name of a payee the import creates for this check (its payeeId is filled in then). */
  newPayee: string | null;
}

/** What an accepted import writes: the API requests, row by row. Stored as JSON in imports.input. */
export interface ImportInput {
  kind: ImportKind;
  timeZone: string;
  lines: number[];
  checks: CheckPlan[];
  payees: PayeeRow[];
  newPayees: string[];
  /**
   * Who started the import, and their key if an API key: the runner writes as them, so the audit
   * trail names them and a person who imports a check is its writer, who may not approve it.
   * Absent from imports queued before it was kept: those are written as the system.
   */
  actor?: Actor;
  keyId?: string;
}

export interface ImportResult {
  checkIds: string[];
  payeeIds: string[];
  /** Payees made for checks whose payee was unknown (createPayees). */
  createdPayeeIds: string[];
}

export const EMPTY_RESULT: ImportResult = { checkIds: [], payeeIds: [], createdPayeeIds: [] };

/** Drafts an owner keeps at once: an upload past this many deletes the oldest. */
export const MAX_DRAFTS = 20;
/** A draft not confirmed within this long is deleted by the runner (docs/imports.md). */
export const DRAFT_TTL_MS = 24 * 60 * 60 * 1000;

/** "The checks.12.amount field ..." -> "The amount field ...": a row's error names the field alone. */
export function rowMessage(message: string): string {
  return message.replace(/\b(checks|payees)\.\d+\./g, '');
}
