// The audit trail's rows (migration 028). Append-only: this module has no UPDATE or DELETE of
// `audit_events`, and no sweep touches the table (docs/audit.md). Appends lock the company's head
// row first, so concurrent writers extend the chain one after the other and it never forks.
import type { FieldChange, AuditRecord, WrittenRecord } from '../domain/audit.ts';
import { GENESIS_HASH } from '../domain/audit.ts';
import type { Environment } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { columnList, defineTable, insertRows, insertStatement, rowValues } from './table.ts';
import { raw, sql, type Sql } from './sql.ts';

interface AuditRow {
  id: string;
  account_id: string;
  seq: number;
  at: number;
  env: string;
  actor_kind: string;
  actor_id: string;
  actor_label: string;
  role: string;
  ip: string;
  user_agent: string;
  request_id: string;
  action: string;
  object_type: string;
  object_id: string;
  changes: string;
  prev_hash: string;
  hash: string;
}

const AUDIT = defineTable<AuditRow>()('audit_events', [
  'id',
  'account_id',
  'seq',
  'at',
  'env',
  'actor_kind',
  'actor_id',
  'actor_label',
  'role',
  'ip',
  'user_agent',
  'request_id',
  'action',
  'object_type',
  'object_id',
  'changes',
  'prev_hash',
  'hash',
]);

const COLUMNS = raw(columnList(AUDIT));

/** The audit_heads table as stored (migration 028): each company's last record. */
interface AuditHeadsRow {
  account_id: string;
  seq: number;
  hash: string;
}

const AUDIT_HEADS = defineTable<AuditHeadsRow>()('audit_heads', ['account_id', 'seq', 'hash']);

// A company's first write makes its head (sequence 0, the genesis hash); a head already there stays.
const INSERT_FIRST_HEAD = insertStatement(AUDIT_HEADS, { tail: ' ON CONFLICT (account_id) DO NOTHING' });
const FOR_UPDATE = raw(' FOR UPDATE');
const NO_LOCK = raw('');

export interface Head {
  readonly seq: number;
  readonly hash: string;
}

/**
 * The company's last record, locked until the transaction ends: PostgreSQL's row lock (the row is
 * made first if the company has none; a second writer waits for the first to commit), SQLite's
 * one writer. What the caller appends next follows this head.
 */
export async function lockHead(tx: Queryable, accountId: string): Promise<Head> {
  await tx.run(INSERT_FIRST_HEAD, rowValues(AUDIT_HEADS, { account_id: accountId, seq: 0, hash: GENESIS_HASH }));
  const lock = tx.dialect === 'postgres' ? FOR_UPDATE : NO_LOCK;
  const s = sql`SELECT seq, hash FROM audit_heads WHERE account_id = ${accountId}${lock}`;
  const row = await tx.get<{ seq: number | string; hash: string }>(s.text, s.params);
  if (row === undefined) throw new Error('audit head missing after its insert');
  return { seq: Number(row.seq), hash: row.hash };
}

/** Appends records that follow the locked head, and moves the head to the last of them. */
export async function append(tx: Queryable, records: readonly WrittenRecord[]): Promise<void> {
  const last = records[records.length - 1];
  if (last === undefined) return;
  await insertRows(tx, AUDIT, records.map(toRow));
  const s = sql`UPDATE audit_heads SET seq = ${last.seq}, hash = ${last.hash} WHERE account_id = ${last.accountId}`;
  await tx.run(s.text, s.params);
}

function toRow(record: WrittenRecord): AuditRow {
  return {
    id: record.id,
    account_id: record.accountId,
    seq: record.seq,
    at: record.at,
    env: record.env,
    actor_kind: record.actorKind,
    actor_id: record.actorId,
    actor_label: record.actorLabel,
    role: record.role,
    ip: record.ip,
    user_agent: record.userAgent,
    request_id: record.requestId,
    action: record.action,
    object_type: record.objectType,
    object_id: record.objectId,
    changes: record.changesJson,
    prev_hash: record.prevHash,
    hash: record.hash,
  };
}

function fromRow(row: AuditRow): AuditRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    seq: Number(row.seq),
    at: Number(row.at),
    env: row.env as Environment | '',
    actorKind: row.actor_kind as AuditRecord['actorKind'],
    actorId: row.actor_id,
    actorLabel: row.actor_label,
    role: row.role,
    ip: row.ip,
    userAgent: row.user_agent,
    requestId: row.request_id,
    action: row.action,
    objectType: row.object_type,
    objectId: row.object_id,
    changes: parseChanges(row.changes),
    prevHash: row.prev_hash,
    hash: row.hash,
  };
}

/** The stored changes; text that is not the list we write reads as a list no hash will match. */
function parseChanges(text: string): FieldChange[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? (value as FieldChange[]) : [{ field: '(unreadable)', old: null, new: text }];
  } catch {
    return [{ field: '(unreadable)', old: null, new: text }];
  }
}

/** Every company that has a trail, for `audit verify`. */
export async function companies(q: Queryable): Promise<string[]> {
  const rows = await q.all<{ account_id: string }>(
    'SELECT account_id FROM audit_heads UNION SELECT account_id FROM audit_events ORDER BY account_id',
  );
  return rows.map((row) => row.account_id);
}

/** A company's records in chain order from `afterSeq` on, `limit` at a time (verify walks it in pages). */
export async function chainPage(
  q: Queryable,
  accountId: string,
  afterSeq: number,
  limit: number,
): Promise<AuditRecord[]> {
  const s = sql`SELECT ${COLUMNS} FROM audit_events WHERE account_id = ${accountId} AND seq > ${afterSeq}
    ORDER BY seq LIMIT ${limit}`;
  return (await q.all<AuditRow>(s.text, s.params)).map(fromRow);
}

export async function headOf(q: Queryable, accountId: string): Promise<Head | undefined> {
  const s = sql`SELECT seq, hash FROM audit_heads WHERE account_id = ${accountId}`;
  const row = await q.get<{ seq: number | string; hash: string }>(s.text, s.params);
  return row === undefined ? undefined : { seq: Number(row.seq), hash: row.hash };
}

export interface AuditFilter {
  readonly actor?: string;
  readonly action?: string;
  readonly objectType?: string;
  readonly objectId?: string;
  readonly from?: number;
  readonly to?: number;
}

function conditions(accountId: string, filter: AuditFilter): Sql {
  let s = sql`account_id = ${accountId}`;
  if (filter.actor !== undefined) s = sql`${s} AND (actor_label = ${filter.actor} OR actor_id = ${filter.actor})`;
  if (filter.action !== undefined) s = sql`${s} AND action = ${filter.action}`;
  if (filter.objectType !== undefined) s = sql`${s} AND object_type = ${filter.objectType}`;
  if (filter.objectId !== undefined) s = sql`${s} AND object_id = ${filter.objectId}`;
  if (filter.from !== undefined) s = sql`${s} AND at >= ${filter.from}`;
  if (filter.to !== undefined) s = sql`${s} AND at < ${filter.to}`;
  return s;
}

/** A page of a company's records, newest first, before `beforeSeq` when given. */
export async function search(
  q: Queryable,
  accountId: string,
  filter: AuditFilter,
  limit: number,
  beforeSeq?: number,
): Promise<AuditRecord[]> {
  const where = conditions(accountId, filter);
  const s =
    beforeSeq === undefined
      ? sql`SELECT ${COLUMNS} FROM audit_events WHERE ${where} ORDER BY seq DESC LIMIT ${limit}`
      : sql`SELECT ${COLUMNS} FROM audit_events WHERE ${where} AND seq < ${beforeSeq} ORDER BY seq DESC LIMIT ${limit}`;
  return (await q.all<AuditRow>(s.text, s.params)).map(fromRow);
}

/** The distinct actors and actions of a company's trail, for the panel's filter choices. */
export async function choices(q: Queryable, accountId: string): Promise<{ actors: string[]; actions: string[] }> {
  const a = sql`SELECT DISTINCT actor_label AS v FROM audit_events WHERE account_id = ${accountId} ORDER BY v LIMIT 200`;
  const actors = await q.all<{ v: string }>(a.text, a.params);
  const b = sql`SELECT DISTINCT action AS v FROM audit_events WHERE account_id = ${accountId} ORDER BY v LIMIT 200`;
  const actions = await q.all<{ v: string }>(b.text, b.params);
  return { actors: actors.map((r) => r.v), actions: actions.map((r) => r.v) };
}
