// The audit trail's records (docs/audit.md): who did what, from where, with the fields changed.
// Each record carries the hash of its company's previous record, so a record changed or removed
// by hand no longer fits the chain and `checkwriter audit verify` names it.
import { hash } from 'node:crypto';
import type { Actor } from './actor.ts';
import { actorLabel } from './actor.ts';
import { maskAccountNumber } from './account-number.ts';
import type { Environment } from './owner.ts';

/** Where a request came from, as the audit trail records it. */
export interface Origin {
  readonly ip: string;
  readonly userAgent: string;
  readonly requestId: string;
}

export const NO_ORIGIN: Origin = { ip: '', userAgent: '', requestId: '' };

/** A changed field: old and new as the audit trail shows them (masked, never a secret). */
export interface FieldChange {
  readonly field: string;
  readonly old: string | null;
  readonly new: string | null;
}

/** What a service says happened; `record` adds who, when, where and the chain. */
export interface AuditEvent {
  readonly action: string;
  readonly objectType: string;
  readonly objectId: string;
  readonly changes?: readonly FieldChange[];
}

/** One stored record of the trail, in the order its hash reads it. */
export interface AuditRecord {
  readonly id: string;
  readonly accountId: string;
  readonly seq: number;
  readonly at: number;
  /** The environment the event touched; '' for the company as a whole (sign-in, settings). */
  readonly env: Environment | '';
  readonly actorKind: Actor['kind'];
  readonly actorId: string;
  readonly actorLabel: string;
  readonly role: string;
  readonly ip: string;
  readonly userAgent: string;
  readonly requestId: string;
  readonly action: string;
  readonly objectType: string;
  readonly objectId: string;
  readonly changes: readonly FieldChange[];
  readonly prevHash: string;
  readonly hash: string;
}

/** The hash the first record of a company follows. */
export const GENESIS_HASH = '0'.repeat(64);

/** The actor's columns: kind, id, label and role (a person's role, else empty). */
export function actorColumns(actor: Actor): { kind: Actor['kind']; id: string; label: string; role: string } {
  switch (actor.kind) {
    case 'person':
      return {
        kind: 'person',
        id: actor.personId !== '' ? actor.personId : actor.email,
        label: actorLabel(actor),
        role: actor.role,
      };
    case 'api-key':
      return { kind: 'api-key', id: actor.keyId, label: actorLabel(actor), role: '' };
    case 'system':
      return { kind: 'system', id: actor.what, label: actorLabel(actor), role: '' };
  }
}

/**
 * The canonical text a record's hash is taken over: every field but the hash itself, in a fixed
 * order, as one JSON array (numbers as numbers, the changes as their own array of
 * [field, old, new]), so the same record always gives the same bytes on every server and database.
 * It is exactly `JSON.stringify` of that array (test/domain/audit-forms.test.ts holds it to that),
 * written out here so that signing can share each change's text with its stored JSON (signRecord).
 */
export function canonicalForm(record: Omit<AuditRecord, 'hash'>): string {
  return canonicalText(record, writeChanges(record.changes).triples);
}

function canonicalText(record: Omit<AuditRecord, 'hash'>, triples: string): string {
  return `[${jsonString(record.id)},${jsonString(record.accountId)},${jsonNumber(record.seq)},${jsonNumber(record.at)},${jsonString(record.env)},${jsonString(record.actorKind)},${jsonString(record.actorId)},${jsonString(record.actorLabel)},${jsonString(record.role)},${jsonString(record.ip)},${jsonString(record.userAgent)},${jsonString(record.requestId)},${jsonString(record.action)},${jsonString(record.objectType)},${jsonString(record.objectId)},[${triples}],${jsonString(record.prevHash)}]`;
}

/**
 * The changes as the canonical form's triples (`["field","old","new"],…`) and as their stored JSON
 * objects (`{"field":…,"old":…,"new":…},…`), each string escaped once for both.
 */
function writeChanges(changes: readonly FieldChange[]): { triples: string; objects: string } {
  let triples = '';
  let objects = '';
  for (let i = 0; i < changes.length; i++) {
    const change = changes[i] as FieldChange;
    const field = jsonString(change.field);
    const old = jsonString(change.old);
    const now = jsonString(change.new);
    const comma = i === 0 ? '' : ',';
    triples += `${comma}[${field},${old},${now}]`;
    objects += `${comma}{"field":${field},"old":${old},"new":${now}}`;
  }
  return { triples, objects };
}

// The one-shot hash (a string is hashed as its UTF-8 bytes, as update(text, 'utf8') did): half the
// CPU of a Hash object per record, and a 500-check batch writes 500 records.
export function recordHash(record: Omit<AuditRecord, 'hash'>): string {
  return hash('sha256', canonicalForm(record), 'hex');
}

/** A record as it is written: signed, and its changes already in their stored JSON. */
export interface WrittenRecord extends AuditRecord {
  /** `JSON.stringify(changes)`, the `changes` column. */
  readonly changesJson: string;
}

/**
 * Signs the record (its `hash`, recordHash's) and writes its stored changes (`changesJson`,
 * `JSON.stringify(changes)`), in place, from one pass over the changes. A 500-check batch writes
 * 500 records of a dozen changes: JSON.stringify of the canonical array and of the changes again
 * was ~14 µs a record, one pass ~8 µs (measured in one process, busy cores).
 */
export function signRecord(record: { -readonly [K in keyof WrittenRecord]: WrittenRecord[K] }): void {
  const { triples, objects } = writeChanges(record.changes);
  // Set in place: a copy of the record with two more fields costs as much as the rest of it.
  record.hash = hash('sha256', canonicalText(record, triples), 'hex');
  record.changesJson = `[${objects}]`;
}

// Characters JSON.stringify writes otherwise than as themselves: the quote, the backslash, control
// characters and (well-formed JSON.stringify) a lone surrogate; a pair goes the slow way too.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what JSON escapes
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** JSON.stringify of a number in an array (seq and time are integers; anything else is null). */
function jsonNumber(n: number): string {
  return Number.isFinite(n) ? String(n) : 'null';
}

/** JSON.stringify of a string in an array (null, and undefined as an array writes it, are null). */
function jsonString(text: string | null | undefined): string {
  if (text === null || text === undefined) return 'null';
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

// Field names whose values never enter the trail: the change is recorded, the value is not.
const SECRET_FIELD = /pass(word)?|secret|token|otp|totp|recovery|code_hash|key_hash|signing|private/i;
// Field names holding a bank account number: recorded by their last four digits.
const ACCOUNT_NUMBER_FIELD = /account_?number/i;
/** What the trail shows for a secret's change. */
export const SECRET_CHANGED = '[changed]';

/** A value as the trail may show it: account numbers masked to their last four, secrets never. */
export function auditValue(field: string, value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const kind = kindOf(field);
  if (kind === 'secret') return SECRET_CHANGED;
  const text = typeof value === 'string' ? value : typeof value === 'object' ? JSON.stringify(value) : String(value);
  return kind === 'account-number' ? maskAccountNumber(text) : text;
}

// Field names are few and fixed (the services name them), so each is classified once: every
// check written runs this for each of its fields.
const KINDS = new Map<string, 'secret' | 'account-number' | 'plain'>();

function kindOf(field: string): 'secret' | 'account-number' | 'plain' {
  let kind = KINDS.get(field);
  if (kind === undefined) {
    kind = SECRET_FIELD.test(field) ? 'secret' : ACCOUNT_NUMBER_FIELD.test(field) ? 'account-number' : 'plain';
    if (KINDS.size < 1000) KINDS.set(field, kind);
  }
  return kind;
}

/**
 * The fields that differ between two versions of an object, each value shown as `auditValue`
 * allows; `fields` names the ones worth recording (in that order). A created object is compared
 * with `null` (every field new), a deleted one with `null` as the new.
 */
export function changesBetween(before: object | null, after: object | null, fields: readonly string[]): FieldChange[] {
  const out: FieldChange[] = [];
  const was = before as Readonly<Record<string, unknown>> | null;
  const is = after as Readonly<Record<string, unknown>> | null;
  for (const field of fields) {
    const old = auditValue(field, was?.[field]);
    const now = auditValue(field, is?.[field]);
    if (old === now) continue;
    if (old === SECRET_CHANGED || now === SECRET_CHANGED) {
      out.push({ field, old: old === null ? null : SECRET_CHANGED, new: now === null ? null : SECRET_CHANGED });
      continue;
    }
    out.push({ field, old, new: now });
  }
  return out;
}

/** Bounds of what one record may hold, so a hostile value cannot swell the trail. */
const MAX_VALUE = 500;

const tooLong = (value: string | null): boolean => value !== null && value.length > MAX_VALUE;

/** The changes with each value cut to its bound; the same list when none is over it (the usual case). */
export function boundedChanges(changes: readonly FieldChange[]): readonly FieldChange[] {
  if (!changes.some((change) => tooLong(change.old) || tooLong(change.new))) return changes;
  const cut = (value: string | null): string | null => (tooLong(value) ? `${value?.slice(0, MAX_VALUE)}…` : value);
  return changes.map((change) => ({ field: change.field, old: cut(change.old), new: cut(change.new) }));
}

/** The parts of a request the origin is read from (a Fastify request has them). */
export interface RequestLike {
  readonly ip: string;
  readonly id: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** Where a request came from: its address (after the trusted proxies), user agent and request id. */
export function originOf(request: RequestLike): Origin {
  const agent = request.headers['user-agent'];
  const userAgent = typeof agent === 'string' ? agent : '';
  return { ip: request.ip, userAgent: userAgent.slice(0, 500), requestId: request.id };
}
