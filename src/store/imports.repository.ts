// CSV imports (services/imports/): one row per upload, scoped by owner like every record.
import type { ImportRecord, ImportState } from '../domain/import-record.ts';
import type { Owner, Environment } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { skipLocked } from './dialect.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertRows } from './table.ts';

/** The imports table as stored (migration 012). */
interface ImportRow {
  id: string;
  account_id: string;
  env: string;
  kind: string;
  state: string;
  file_name: string;
  rows_total: number;
  rows_done: number;
  input: string;
  errors: string;
  result: string;
  attempts: number;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
}

const IMPORTS = defineTable<ImportRow>()('imports', [
  'id',
  'account_id',
  'env',
  'kind',
  'state',
  'file_name',
  'rows_total',
  'rows_done',
  'input',
  'errors',
  'result',
  'attempts',
  'created_at',
  'started_at',
  'finished_at',
]);

const COLUMNS = raw(columnList(IMPORTS));
// Lists leave the uploaded file out (up to 4 MB each): an empty input in its place.
const LIST_COLUMNS = raw(IMPORTS.columns.map((c) => (c === 'input' ? "'' AS input" : c)).join(', '));

function toRecord(row: ImportRow): ImportRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    env: row.env as Environment,
    kind: row.kind as ImportRecord['kind'],
    state: row.state as ImportState,
    fileName: row.file_name,
    rowsTotal: Number(row.rows_total),
    rowsDone: Number(row.rows_done),
    input: row.input,
    errors: row.errors,
    result: row.result,
    attempts: Number(row.attempts),
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

export async function insertImport(q: Queryable, record: ImportRecord): Promise<void> {
  await insertRows(q, IMPORTS, [
    {
      id: record.id,
      account_id: record.accountId,
      env: record.env,
      kind: record.kind,
      state: record.state,
      file_name: record.fileName,
      rows_total: record.rowsTotal,
      rows_done: record.rowsDone,
      input: record.input,
      errors: record.errors,
      result: record.result,
      attempts: record.attempts,
      created_at: record.createdAt,
      started_at: record.startedAt,
      finished_at: record.finishedAt,
    },
  ]);
}

export async function findImport(q: Queryable, owner: Owner, id: string): Promise<ImportRecord | undefined> {
  const s = sql`SELECT ${COLUMNS} FROM imports WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<ImportRow>(s.text, s.params);
  return row === undefined ? undefined : toRecord(row);
}

/** An owner's recent imports, newest first, without their (large) input. */
export async function listImports(q: Queryable, owner: Owner, limit: number): Promise<ImportRecord[]> {
  const s = sql`SELECT ${LIST_COLUMNS}
     FROM imports WHERE ${owned(owner)} AND state <> 'draft' ORDER BY created_at DESC, id DESC LIMIT ${limit}`;
  const rows = await q.all<ImportRow>(s.text, s.params);
  return rows.map(toRecord);
}

/** Imports acknowledged but not finished (a stopped process left them), oldest first. */
export async function unfinishedImportIds(q: Queryable, limit: number): Promise<string[]> {
  const s = sql`SELECT id FROM imports WHERE state IN ('queued', 'running') ORDER BY created_at, id LIMIT ${limit}`;
  const rows = await q.all<{ id: string }>(s.text, s.params);
  return rows.map((r) => r.id);
}

/**
 * Keeps only an owner's `keep` newest drafts (each holds its uploaded file, up to 4 MB): a panel
 * user who uploads again and again without confirming holds a bounded amount of storage.
 */
export async function trimDrafts(q: Queryable, owner: Owner, keep: number): Promise<number> {
  const s = sql`DELETE FROM imports WHERE ${owned(owner)} AND state = 'draft' AND id NOT IN (
       SELECT id FROM imports WHERE ${owned(owner)} AND state = 'draft' ORDER BY created_at DESC, id DESC LIMIT ${keep})`;
  return q.run(s.text, s.params);
}

/** Drafts (every account's) uploaded before `before` and never confirmed. */
export async function deleteDraftsBefore(q: Queryable, before: number): Promise<number> {
  const s = sql`DELETE FROM imports WHERE state = 'draft' AND created_at < ${before}`;
  return q.run(s.text, s.params);
}

/** A draft confirmed: its input replaced by what the import writes, queued. 0 when it was no draft. */
export async function queueDraft(
  q: Queryable,
  owner: Owner,
  id: string,
  input: string,
  rowsTotal: number,
): Promise<number> {
  const s = sql`UPDATE imports SET state = 'queued', input = ${input}, rows_total = ${rowsTotal} WHERE id = ${id} AND ${owned(owner)} AND state = 'draft'`;
  return q.run(s.text, s.params);
}

/** Marks an import running (committed at once, so pages show it) and counts the attempt. */
export async function markRunning(q: Queryable, id: string, now: number): Promise<void> {
  const s = sql`UPDATE imports SET state = 'running', attempts = attempts + 1, started_at = COALESCE(started_at, ${now})
     WHERE id = ${id} AND state IN ('queued', 'running')`;
  await q.run(s.text, s.params);
}

/**
 * Inside the import's own transaction: the import if it is still to be done and no other
 * transaction holds it (PostgreSQL row lock, skipped when taken; SQLite has one writer at a time).
 */
export async function claimImport(q: Queryable, id: string): Promise<ImportRecord | undefined> {
  const s = sql`SELECT ${COLUMNS} FROM imports WHERE id = ${id} AND state IN ('queued', 'running')${raw(skipLocked(q.dialect))}`;
  const row = await q.get<ImportRow>(s.text, s.params);
  return row === undefined ? undefined : toRecord(row);
}

export async function finishImport(
  q: Queryable,
  id: string,
  state: 'succeeded' | 'failed',
  rowsDone: number,
  errors: string,
  result: string,
  now: number,
): Promise<void> {
  const s = sql`UPDATE imports SET state = ${state}, rows_done = ${rowsDone}, errors = ${errors}, result = ${result}, finished_at = ${now} WHERE id = ${id}`;
  await q.run(s.text, s.params);
}
