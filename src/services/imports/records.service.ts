// Imports as records: one import (with the running one's progress), the recent ones, what one
// made and why one failed.
import type { Check } from '../../domain/check.ts';
import type { ImportKind } from '../../domain/import-columns.ts';
import type { Owner, Principal } from '../../domain/owner.ts';
import type { Payee } from '../../domain/payee.ts';
import { AppError } from '../../errors.ts';
import * as checkStore from '../../store/checks/checks.repository.ts';
import type { ImportRecord } from '../../domain/import-record.ts';
import type { Queryable } from '../../store/db.ts';
import * as importStore from '../../store/imports.repository.ts';
import * as payeeStore from '../../store/payees.repository.ts';
import { record as recordAudit } from '../audit.service.ts';
import type { ServiceContext } from '../context.ts';
import { EMPTY_RESULT, type ImportResult, type RowError } from './model.ts';
import { importRunner } from './runner.service.ts';

export async function getImport(ctx: ServiceContext, owner: Owner, id: string): Promise<ImportRecord> {
  const record = await importStore.findImport(ctx.db, owner, id);
  if (record === undefined) throw new AppError('not_found', 'Import not found.');
  const running = importRunner(ctx)?.progressOf(id);
  return running === undefined ? record : { ...record, rowsDone: Math.max(record.rowsDone, running) };
}

/** The owner's newest imports (drafts left out), newest first. */
export function listImports(ctx: ServiceContext, owner: Owner, limit = 50): Promise<ImportRecord[]> {
  return importStore.listImports(ctx.db, owner, limit);
}

export function resultOf(record: ImportRecord): ImportResult {
  return { ...EMPTY_RESULT, ...(JSON.parse(record.result) as Partial<ImportResult>) };
}

/** The first `limit` checks or payees an import made, for its result page (found by id, in row order). */
export async function createdRecords(
  ctx: ServiceContext,
  owner: Owner,
  record: ImportRecord,
  limit: number,
): Promise<{ checks: Map<string, Check>; payees: Map<string, Payee>; ids: string[] }> {
  const result = resultOf(record);
  const ids = (record.kind === 'checks' ? result.checkIds : result.payeeIds).slice(0, limit);
  return record.kind === 'checks'
    ? { checks: await checkStore.findChecks(ctx.db, owner, ids), payees: new Map(), ids }
    : { checks: new Map(), payees: await payeeStore.findPayees(ctx.db, owner, ids), ids };
}

export function errorsOf(record: ImportRecord): RowError[] {
  return JSON.parse(record.errors) as RowError[];
}

/** The audit record of an import accepted (API, command line, or a panel draft confirmed). */
export function recordStart(
  tx: Queryable,
  principal: Principal,
  id: string,
  kind: ImportKind,
  rowsTotal: number,
  now: number,
): Promise<void> {
  return recordAudit(
    tx,
    principal,
    [
      {
        action: 'import.start',
        objectType: 'import',
        objectId: id,
        changes: [
          { field: 'kind', old: null, new: kind },
          { field: 'rows', old: null, new: String(rowsTotal) },
        ],
      },
    ],
    now,
  );
}
