import type { Owner } from '../domain/owner.ts';
import type { Delivery } from '../domain/records.ts';
import type { Queryable } from './db.ts';

/** Queues deliveries (the outbox): written in the same transaction as the change that causes them. */
export async function insertDeliveries(q: Queryable, owner: Owner, deliveries: readonly Delivery[]): Promise<void> {
  for (const d of deliveries) {
    await q.run(
      `INSERT INTO deliveries (id, account_id, env, check_id, channel, recipient, payload, status, attempts, next_attempt_at, last_error, created_at, sent_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [d.id, owner.accountId, owner.env, d.checkId, d.channel, d.recipient, JSON.stringify(d.payload), d.status, d.attempts, d.nextAttemptAt, d.lastError, d.createdAt, d.sentAt],
    );
  }
}

interface DeliveryRow {
  id: string;
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
}

export async function deliveriesForCheck(q: Queryable, owner: Owner, checkId: string): Promise<Delivery[]> {
  const rows = await q.all<DeliveryRow>('SELECT * FROM deliveries WHERE check_id = ? AND account_id = ? AND env = ? ORDER BY created_at, id', [checkId, owner.accountId, owner.env]);
  return rows.map((r) => ({
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
  }));
}
