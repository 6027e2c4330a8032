// The audit trail (docs/audit.md). `record` is called by the services INSIDE the transaction of
// the write it describes: the event commits with the write or not at all, so a rolled-back write
// leaves no event and an event never exists without its write.
import type { Actor } from '../domain/actor.ts';
import {
  actorColumns,
  type AuditEvent,
  type AuditRecord,
  boundedChanges,
  changesBetween,
  type FieldChange,
  GENESIS_HASH,
  NO_ORIGIN,
  type Origin,
  recordHash,
  signRecord,
  type WrittenRecord,
} from '../domain/audit.ts';
import { newId } from '../domain/ids.ts';
import type { Environment, Owner, Principal } from '../domain/owner.ts';
import * as audit from '../store/audit.repository.ts';
import type { Queryable } from '../store/db.ts';
import type { ServiceContext } from './context.ts';

/** Who acted, where the caller is not a Principal (a failed sign-in, a key made at sign-up). */
export interface AuditSource {
  readonly accountId: string;
  /** '' for the company as a whole (sign-in, settings). */
  readonly env: Environment | '';
  readonly actor: Actor;
  readonly origin?: Origin;
}

/** Who acts when the caller is named apart from the company (keys made by the command line or a page). */
export interface AuditBy {
  readonly actor: Actor;
  readonly origin?: Origin;
}

/** Appends `events` to the company's chain, in `tx` (the transaction of the write they describe). */
export async function record(
  tx: Queryable,
  who: Principal | AuditSource,
  events: readonly AuditEvent[],
  now: number,
): Promise<void> {
  if (events.length === 0) return;
  const head = await audit.lockHead(tx, who.accountId);
  const origin = who.origin ?? NO_ORIGIN;
  const actor = actorColumns(who.actor);
  const userAgent = origin.userAgent.slice(0, 500);
  let prev: { readonly seq: number; readonly hash: string } = head;
  const records: WrittenRecord[] = [];
  for (const event of events) {
    // Made whole and then signed in place (the canonical form leaves the hash out): a copy of
    // each record with its hash added cost as much as the rest of the record (500 in a batch).
    const record: { -readonly [K in keyof WrittenRecord]: WrittenRecord[K] } = {
      id: newId('aud', now),
      accountId: who.accountId,
      seq: prev.seq + 1,
      at: now,
      env: who.env,
      actorKind: actor.kind,
      actorId: actor.id,
      actorLabel: actor.label,
      role: actor.role,
      ip: origin.ip,
      userAgent,
      requestId: origin.requestId,
      action: event.action,
      objectType: event.objectType,
      objectId: event.objectId,
      changes: boundedChanges(event.changes ?? []),
      prevHash: prev.hash,
      hash: '',
      changesJson: '',
    };
    signRecord(record);
    records.push(record);
    prev = record;
  }
  await audit.append(tx, records);
}

/** What `verify` found for one company. */
export type ChainVerdict =
  | { readonly accountId: string; readonly ok: true; readonly count: number }
  | {
      readonly accountId: string;
      readonly ok: false;
      readonly count: number;
      readonly seq: number;
      readonly id: string;
      readonly what: string;
    };

const PAGE = 1000;

/**
 * Walks one company's chain from its first record: each must have the next seq, name the previous
 * record's hash, and hash to what it carries; the last must be the head. Names the first that
 * does not fit.
 */
export async function verifyChain(q: Queryable, accountId: string): Promise<ChainVerdict> {
  let expectedSeq = 1;
  let prevHash = GENESIS_HASH;
  let count = 0;
  let lastId = '';
  for (;;) {
    const page = await audit.chainPage(q, accountId, expectedSeq - 1, PAGE);
    for (const rec of page) {
      const bad = (what: string): ChainVerdict => ({ accountId, ok: false, count, seq: rec.seq, id: rec.id, what });
      if (rec.seq !== expectedSeq) return bad(`expected record ${expectedSeq} here: records are missing before it`);
      if (rec.prevHash !== prevHash) return bad("it does not name the previous record's hash");
      const { hash, ...unsigned } = rec;
      if (recordHash(unsigned) !== hash)
        return bad('its contents do not match its hash (changed after it was written)');
      count += 1;
      expectedSeq += 1;
      prevHash = hash;
      lastId = rec.id;
    }
    if (page.length < PAGE) break;
  }
  const head = await audit.headOf(q, accountId);
  if (head !== undefined && (head.seq !== count || head.hash !== prevHash)) {
    return {
      accountId,
      ok: false,
      count,
      seq: count,
      id: lastId,
      what: `the chain ends at record ${count} but the company's head names record ${head.seq}: records after it are missing`,
    };
  }
  return { accountId, ok: true, count };
}

/** Every company's chain, in order of company id. */
export async function verifyAll(q: Queryable): Promise<ChainVerdict[]> {
  const out: ChainVerdict[] = [];
  for (const accountId of await audit.companies(q)) out.push(await verifyChain(q, accountId));
  return out;
}

/**
 * The caller as the trail names it, when `owner` is a Principal (every request's caller is);
 * null for the bare owners some internal steps pass, which record nothing themselves.
 */
export function principalIn(owner: Owner): Principal | null {
  return 'actor' in owner ? (owner as Principal) : null;
}

/** `record`, when the owner passed down is a caller (see `principalIn`). */
export async function recordFor(
  tx: Queryable,
  owner: Owner,
  events: readonly AuditEvent[],
  now: number,
): Promise<void> {
  const who = principalIn(owner);
  if (who !== null) await record(tx, who, events, now);
}

/** The check's fields the trail compares (what a person reads on the check). */
const CHECK_FIELDS = [
  'bankAccountId',
  'serialNumber',
  'payeeId',
  'amountCents',
  'issueDate',
  'memo',
  'note',
  'accountNumber',
  'invoiceNumber',
  'referenceId',
  'categoryId',
  'noSign',
  'noAmount',
  'noDate',
  'noPayee',
  'customElements',
] as const;

type CheckFields = Partial<Record<(typeof CHECK_FIELDS)[number], unknown>>;

/** The check's fields that differ between two versions (null: created or deleted). */
export function checkChanges(before: CheckFields | null, after: CheckFields | null): FieldChange[] {
  return changesBetween(before, after, CHECK_FIELDS);
}

/** The panel's filters, as typed: dates are days in the company's time zone. */
export interface TrailQuery {
  readonly actor?: string;
  readonly action?: string;
  readonly objectType?: string;
  readonly objectId?: string;
  readonly from?: string;
  readonly to?: string;
}

/** Milliseconds at the start of `date` (YYYY-MM-DD) in `timeZone`. */
export function startOfDay(date: string, timeZone: string): number {
  const guess = Date.parse(`${date}T00:00:00Z`);
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  for (const part of format.formatToParts(guess)) parts[part.type] = part.value;
  const shown = Date.parse(`${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}Z`);
  return guess - (shown - guess);
}

function filterOf(query: TrailQuery, timeZone: string): audit.AuditFilter {
  const day = /^\d{4}-\d{2}-\d{2}$/;
  return {
    ...(query.actor ? { actor: query.actor } : {}),
    ...(query.action ? { action: query.action } : {}),
    ...(query.objectType ? { objectType: query.objectType } : {}),
    ...(query.objectId ? { objectId: query.objectId } : {}),
    ...(query.from && day.test(query.from) ? { from: startOfDay(query.from, timeZone) } : {}),
    ...(query.to && day.test(query.to) ? { to: startOfDay(query.to, timeZone) + 86_400_000 } : {}),
  };
}

/** A page of the company's trail, newest first; `older` is the seq to continue from, if any. */
export async function trailPage(
  ctx: ServiceContext,
  accountId: string,
  timeZone: string,
  query: TrailQuery,
  perPage: number,
  before?: number,
): Promise<{ items: AuditRecord[]; older: number | null }> {
  const rows = await audit.search(ctx.db, accountId, filterOf(query, timeZone), perPage + 1, before);
  const items = rows.slice(0, perPage);
  return { items, older: rows.length > perPage ? (items[items.length - 1]?.seq ?? null) : null };
}

/** The most one CSV export holds; a narrower filter gets the rest. */
export const MAX_CSV_ROWS = 50_000;

/** Every record the filter matches, newest first, up to MAX_CSV_ROWS. */
export function trailRecords(
  ctx: ServiceContext,
  accountId: string,
  timeZone: string,
  query: TrailQuery,
): Promise<AuditRecord[]> {
  return audit.search(ctx.db, accountId, filterOf(query, timeZone), MAX_CSV_ROWS);
}

/** One object's history, oldest first (a check's page: who did each step). */
export async function historyOf(
  ctx: ServiceContext,
  accountId: string,
  objectType: string,
  objectId: string,
): Promise<AuditRecord[]> {
  return (await audit.search(ctx.db, accountId, { objectType, objectId }, 500)).reverse();
}

export function trailChoices(ctx: ServiceContext, accountId: string): Promise<{ actors: string[]; actions: string[] }> {
  return audit.choices(ctx.db, accountId);
}
