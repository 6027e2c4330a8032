// The outbox (deliveries), what test keys "sent" (sandbox_messages), payee links and attachments.
import type { Environment, Owner } from '../domain/owner.ts';
import type { Delivery } from '../domain/delivery.ts';
import type { Queryable } from './db.ts';
import { skipLocked } from './dialect.ts';
import { defineTable, insertRows } from './table.ts';
import type { AttachmentMeta, SandboxMessage } from '../domain/delivery.ts';

/** The deliveries table (the outbox) as stored (migrations 001, 003, 004, 009). */
interface DeliveriesRow {
  id: string;
  account_id: string;
  env: string;
  check_id: string | null;
  channel: string;
  recipient: string;
  payload: string;
  status: string;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  lease_until: number | null;
  sealed_token: string | null;
  endpoint_id: string | null;
  event_id: string | null;
  response_status: number | null;
}

export const DELIVERIES = defineTable<DeliveriesRow>()('deliveries', [
  'id',
  'account_id',
  'env',
  'check_id',
  'channel',
  'recipient',
  'payload',
  'status',
  'attempts',
  'next_attempt_at',
  'last_error',
  'created_at',
  'sent_at',
  'lease_until',
  'sealed_token',
  'endpoint_id',
  'event_id',
  'response_status',
]);

/** A row of the outbox, every column named; what is not given is the column's empty value. */
export function deliveriesRow(
  owner: Owner,
  fields: Partial<DeliveriesRow> &
    Pick<DeliveriesRow, 'id' | 'channel' | 'recipient' | 'created_at' | 'next_attempt_at'>,
): DeliveriesRow {
  return {
    account_id: owner.accountId,
    env: owner.env,
    check_id: null,
    payload: '{}',
    status: 'queued',
    attempts: 0,
    last_error: null,
    sent_at: null,
    lease_until: null,
    sealed_token: null,
    endpoint_id: null,
    event_id: null,
    response_status: null,
    ...fields,
  };
}

/** Queues deliveries: written in the same transaction as the change that causes them. */
export async function insertDeliveries(q: Queryable, owner: Owner, deliveries: readonly Delivery[]): Promise<void> {
  await insertRows(
    q,
    DELIVERIES,
    deliveries.map((d) =>
      deliveriesRow(owner, {
        id: d.id,
        check_id: d.checkId,
        channel: d.channel,
        recipient: d.recipient,
        payload: JSON.stringify(d.payload),
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt,
        last_error: d.lastError,
        created_at: d.createdAt,
        sent_at: d.sentAt,
        sealed_token: d.sealedToken ?? null,
      }),
    ),
  );
}

interface DeliveryRow {
  id: string;
  account_id: string;
  env: Environment;
  check_id: string | null;
  channel: Delivery['channel'];
  recipient: string;
  payload: string;
  status: Delivery['status'];
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  created_at: number;
  sent_at: number | null;
  lease_until?: number | null;
  endpoint_id?: string | null;
  event_id?: string | null;
  sealed_token?: string | null;
}

function toDelivery(r: DeliveryRow): Delivery {
  return {
    id: r.id,
    checkId: r.check_id,
    channel: r.channel,
    recipient: r.recipient,
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    status: r.status,
    attempts: Number(r.attempts),
    nextAttemptAt: Number(r.next_attempt_at),
    lastError: r.last_error,
    createdAt: Number(r.created_at),
    sentAt: r.sent_at === null ? null : Number(r.sent_at),
  };
}

export async function deliveriesForCheck(q: Queryable, owner: Owner, checkId: string): Promise<Delivery[]> {
  const rows = await q.all<DeliveryRow>(
    "SELECT * FROM deliveries WHERE check_id = ? AND account_id = ? AND env = ? AND channel <> 'webhook' ORDER BY created_at, id",
    [checkId, owner.accountId, owner.env],
  );
  return rows.map(toDelivery);
}

/** A claimed delivery, with the owner it belongs to. */
export interface ClaimedDelivery extends Delivery {
  owner: Owner;
  /** Until when this worker holds the row; also what tells its claim from a later one (renewLease). */
  leaseUntil: number;
  sealedToken: string | null;
  endpointId: string | null;
  eventId: string | null;
}

/**
 * Takes up to `limit` due rows for this worker: queued ones whose time has come, and ones whose
 * worker's lease ran out (it died mid-send). `channels` limits what this worker can send now
 * (live email waits while SMTP is not configured). On PostgreSQL, SKIP LOCKED lets several
 * workers claim disjoint rows at once.
 */
export async function claimDue(
  q: Queryable,
  now: number,
  leaseMs: number,
  limit: number,
  sendable: { liveEmail: boolean; liveSms: boolean },
): Promise<ClaimedDelivery[]> {
  const held: string[] = [];
  if (!sendable.liveEmail) held.push("(env = 'live' AND channel = 'email')");
  if (!sendable.liveSms) held.push("(env = 'live' AND channel = 'sms')");
  const hold = held.length === 0 ? '' : ` AND NOT (${held.join(' OR ')})`;
  const rows = await q.all<DeliveryRow>(
    `UPDATE deliveries SET status = 'sending', lease_until = ?, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM deliveries
       WHERE ((status = 'queued' AND next_attempt_at <= ?) OR (status = 'sending' AND lease_until <= ?))${hold}
       ORDER BY next_attempt_at, id LIMIT ?${skipLocked(q.dialect)}
     )
     RETURNING *`,
    [now + leaseMs, now, now, limit],
  );
  return rows.map((r) => ({
    ...toDelivery(r),
    owner: { accountId: r.account_id, env: r.env },
    leaseUntil: Number(r.lease_until ?? 0),
    endpointId: r.endpoint_id ?? null,
    eventId: r.event_id ?? null,
    sealedToken: r.sealed_token ?? null,
  }));
}

/**
 * Extends this worker's lease on a row it is about to send, if it still holds it: false when the
 * lease ran out and another worker claimed the row since (that worker sends it, not this one).
 */
export async function renewLease(q: Queryable, id: string, heldUntil: number, until: number): Promise<boolean> {
  const changed = await q.run(
    "UPDATE deliveries SET lease_until = ? WHERE id = ? AND status = 'sending' AND lease_until = ?",
    [until, id, heldUntil],
  );
  return changed === 1;
}

/**
 * Hands claimed rows back unsent (a worker shutting down): queued again at once, the attempt the
 * claim counted taken back, so another worker sends them without waiting for the lease to end.
 * Only rows this worker still holds (same lease) are touched.
 */
export async function releaseClaims(
  q: Queryable,
  claims: readonly { id: string; leaseUntil: number }[],
): Promise<number> {
  if (claims.length === 0) return 0;
  return q.run(
    `UPDATE deliveries SET status = 'queued', lease_until = NULL, attempts = attempts - 1
     WHERE status = 'sending' AND (${claims.map(() => '(id = ? AND lease_until = ?)').join(' OR ')})`,
    claims.flatMap((c) => [c.id, c.leaseUntil]),
  );
}

export async function markSent(q: Queryable, id: string, now: number): Promise<void> {
  await q.run(
    "UPDATE deliveries SET status = 'sent', sent_at = ?, lease_until = NULL, last_error = NULL, sealed_token = NULL WHERE id = ?",
    [now, id],
  );
}

export async function reschedule(q: Queryable, id: string, at: number, error: string): Promise<void> {
  await q.run(
    "UPDATE deliveries SET status = 'queued', next_attempt_at = ?, lease_until = NULL, last_error = ? WHERE id = ?",
    [at, error, id],
  );
}

export async function markFailed(q: Queryable, id: string, error: string): Promise<void> {
  await q.run(
    "UPDATE deliveries SET status = 'failed', lease_until = NULL, last_error = ?, sealed_token = NULL WHERE id = ?",
    [error, id],
  );
}

// ---- payee links ----

interface CheckLinksRow {
  token_hash: string;
  check_id: string;
  account_id: string;
  env: string;
  expires_at: number;
  created_at: number;
}

const CHECK_LINKS = defineTable<CheckLinksRow>()('check_links', [
  'token_hash',
  'check_id',
  'account_id',
  'env',
  'expires_at',
  'created_at',
]);

export async function insertLinks(
  q: Queryable,
  owner: Owner,
  links: readonly { tokenHash: string; checkId: string; expiresAt: number; createdAt: number }[],
): Promise<void> {
  await insertRows(
    q,
    CHECK_LINKS,
    links.map((link) => ({
      token_hash: link.tokenHash,
      check_id: link.checkId,
      account_id: owner.accountId,
      env: owner.env,
      expires_at: link.expiresAt,
      created_at: link.createdAt,
    })),
  );
}

export async function findLink(
  q: Queryable,
  tokenHash: string,
): Promise<{ checkId: string; owner: Owner; expiresAt: number } | undefined> {
  const row = await q.get<{ check_id: string; account_id: string; env: Environment; expires_at: number }>(
    'SELECT * FROM check_links WHERE token_hash = ?',
    [tokenHash],
  );
  return row === undefined
    ? undefined
    : { checkId: row.check_id, owner: { accountId: row.account_id, env: row.env }, expiresAt: Number(row.expires_at) };
}

export async function insertSandboxMessage(q: Queryable, accountId: string, m: SandboxMessage): Promise<void> {
  await q.run(
    `INSERT INTO sandbox_messages (id, account_id, delivery_id, check_id, channel, recipient, subject, text_body, html_body, link, attachments, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      m.id,
      accountId,
      m.deliveryId,
      m.checkId,
      m.channel,
      m.recipient,
      m.subject,
      m.text,
      m.html,
      m.link,
      JSON.stringify(m.attachments),
      m.createdAt,
    ],
  );
}

/** The stored (sealed) text, HTML and link of every sandbox message, for re-sealing under a new data key. */
export async function allSandboxSealed(
  q: Queryable,
): Promise<{ id: string; text: string; html: string; link: string }[]> {
  return q.all<{ id: string; text: string; html: string; link: string }>(
    'SELECT id, text_body AS text, html_body AS html, link FROM sandbox_messages ORDER BY id',
  );
}

export async function storeSandboxSealed(
  q: Queryable,
  m: { id: string; text: string; html: string; link: string },
): Promise<void> {
  await q.run('UPDATE sandbox_messages SET text_body = ?, html_body = ?, link = ? WHERE id = ?', [
    m.text,
    m.html,
    m.link,
    m.id,
  ]);
}

interface SandboxRow {
  id: string;
  delivery_id: string;
  check_id: string | null;
  channel: 'email' | 'sms';
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  link: string;
  attachments: string;
  created_at: number;
}

function toSandboxMessage(r: SandboxRow): SandboxMessage {
  return {
    id: r.id,
    deliveryId: r.delivery_id,
    checkId: r.check_id,
    channel: r.channel,
    recipient: r.recipient,
    subject: r.subject,
    text: r.text_body,
    html: r.html_body,
    link: r.link,
    attachments: JSON.parse(r.attachments) as string[],
    createdAt: Number(r.created_at),
  };
}

export async function listSandboxMessages(
  q: Queryable,
  accountId: string,
  limit: number,
  offset: number,
): Promise<{ total: number; items: SandboxMessage[] }> {
  const count = await q.get<{ n: number }>('SELECT COUNT(*) AS n FROM sandbox_messages WHERE account_id = ?', [
    accountId,
  ]);
  const rows = await q.all<SandboxRow>(
    'SELECT * FROM sandbox_messages WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?',
    [accountId, limit, offset],
  );
  return { total: Number(count?.n ?? 0), items: rows.map(toSandboxMessage) };
}

export async function findSandboxMessage(
  q: Queryable,
  accountId: string,
  id: string,
): Promise<SandboxMessage | undefined> {
  const row = await q.get<SandboxRow>('SELECT * FROM sandbox_messages WHERE id = ? AND account_id = ?', [
    id,
    accountId,
  ]);
  return row === undefined ? undefined : toSandboxMessage(row);
}

export async function insertAttachment(q: Queryable, owner: Owner, a: AttachmentMeta, data: Buffer): Promise<void> {
  await q.run(
    'INSERT INTO attachments (id, account_id, env, check_id, filename, content_type, size, data, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [a.id, owner.accountId, owner.env, a.checkId, a.filename, a.contentType, a.size, data, a.createdAt],
  );
}

interface AttachmentRow {
  id: string;
  check_id: string;
  filename: string;
  content_type: string;
  size: number;
  created_at: number;
}

const toMeta = (r: AttachmentRow): AttachmentMeta => ({
  id: r.id,
  checkId: r.check_id,
  filename: r.filename,
  contentType: r.content_type,
  size: Number(r.size),
  createdAt: Number(r.created_at),
});

export async function listAttachments(q: Queryable, owner: Owner, checkId: string): Promise<AttachmentMeta[]> {
  const rows = await q.all<AttachmentRow>(
    'SELECT id, check_id, filename, content_type, size, created_at FROM attachments WHERE check_id = ? AND account_id = ? AND env = ? ORDER BY created_at, id',
    [checkId, owner.accountId, owner.env],
  );
  return rows.map(toMeta);
}

export async function attachmentsWithData(
  q: Queryable,
  owner: Owner,
  checkId: string,
): Promise<(AttachmentMeta & { data: Buffer })[]> {
  const rows = await q.all<AttachmentRow & { data: Buffer }>(
    'SELECT * FROM attachments WHERE check_id = ? AND account_id = ? AND env = ? ORDER BY created_at, id',
    [checkId, owner.accountId, owner.env],
  );
  return rows.map((r) => ({ ...toMeta(r), data: Buffer.from(r.data) }));
}

export async function deleteAttachment(q: Queryable, owner: Owner, checkId: string, id: string): Promise<number> {
  return q.run('DELETE FROM attachments WHERE id = ? AND check_id = ? AND account_id = ? AND env = ?', [
    id,
    checkId,
    owner.accountId,
    owner.env,
  ]);
}
