// The delivery worker's side of the outbox: claiming due rows under a lease, renewing or handing
// back the lease, and recording each row's outcome. The rows themselves are deliveries.repository.ts.
// No table definition of its own: defineTable makes inserts and column lists, and here there are
// no inserts, and the one full-row read (a claim's RETURNING) takes the outbox's definition
// (DELIVERY_COLUMNS). The rest are compare-and-set UPDATEs of a few columns whose conditions are
// the point (status, lease), kept as written, as sql templates.
import type { Delivery } from '../domain/delivery.ts';
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { type DeliveriesRow, DELIVERY_COLUMNS, toDelivery } from './deliveries.repository.ts';
import { skipLocked } from './dialect.ts';
import { joinSql, raw, sql } from './sql.ts';

/** A claimed delivery, with the owner it belongs to. */
export interface ClaimedDelivery extends Delivery {
  owner: Owner;
  /** Until when this worker holds the row; also what tells its claim from a later one (renewLease). */
  leaseUntil: number;
  sealedToken: string | null;
  endpointId: string | null;
  eventId: string | null;
}

const RETURNED = raw(DELIVERY_COLUMNS);
const NOTHING_HELD = raw('');
const LIVE_EMAIL = "(env = 'live' AND channel = 'email')";
const LIVE_SMS = "(env = 'live' AND channel = 'sms')";
/** What a worker that cannot send live email, live SMS or either leaves queued; made once. */
const HOLDS = [
  NOTHING_HELD,
  raw(` AND NOT (${LIVE_EMAIL})`),
  raw(` AND NOT (${LIVE_SMS})`),
  raw(` AND NOT (${LIVE_EMAIL} OR ${LIVE_SMS})`),
];

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
  const hold = HOLDS[(sendable.liveEmail ? 0 : 1) + (sendable.liveSms ? 0 : 2)] ?? NOTHING_HELD;
  const s = sql`UPDATE deliveries SET status = 'sending', lease_until = ${now + leaseMs}, attempts = attempts + 1
     WHERE id IN (
       SELECT id FROM deliveries
       WHERE ((status = 'queued' AND next_attempt_at <= ${now}) OR (status = 'sending' AND lease_until <= ${now}))${hold}
       ORDER BY next_attempt_at, id LIMIT ${limit}${raw(skipLocked(q.dialect))}
     )
     RETURNING ${RETURNED}`;
  const rows = await q.all<DeliveriesRow>(s.text, s.params);
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
  const s = sql`UPDATE deliveries SET lease_until = ${until} WHERE id = ${id} AND status = 'sending' AND lease_until = ${heldUntil}`;
  return (await q.run(s.text, s.params)) === 1;
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
  const held = joinSql(
    claims.map((c) => sql`(id = ${c.id} AND lease_until = ${c.leaseUntil})`),
    ' OR ',
  );
  const s = sql`UPDATE deliveries SET status = 'queued', lease_until = NULL, attempts = attempts - 1
     WHERE status = 'sending' AND (${held})`;
  return q.run(s.text, s.params);
}

export async function markSent(q: Queryable, id: string, now: number): Promise<void> {
  const s = sql`UPDATE deliveries SET status = 'sent', sent_at = ${now}, lease_until = NULL, last_error = NULL, sealed_token = NULL WHERE id = ${id}`;
  await q.run(s.text, s.params);
}

export async function reschedule(q: Queryable, id: string, at: number, error: string): Promise<void> {
  const s = sql`UPDATE deliveries SET status = 'queued', next_attempt_at = ${at}, lease_until = NULL, last_error = ${error} WHERE id = ${id}`;
  await q.run(s.text, s.params);
}

export async function markFailed(q: Queryable, id: string, error: string): Promise<void> {
  const s = sql`UPDATE deliveries SET status = 'failed', lease_until = NULL, last_error = ${error}, sealed_token = NULL WHERE id = ${id}`;
  await q.run(s.text, s.params);
}
