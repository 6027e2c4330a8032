// Figures about the deliveries outbox as a whole, for /metrics. Only waiting rows are read (the
// deliveries_due index on status), so the cost follows the backlog, not the table's history.
// Not a table repository: one aggregate without parameters over the deliveries table, whose
// definition is in deliveries.repository.ts.
import type { OutboxDepth } from '../metrics.ts';
import type { Queryable } from './db.ts';

export async function outboxDepth(q: Queryable, now: number): Promise<OutboxDepth[]> {
  const rows = await q.all<{ channel: string; waiting: number | string; oldest: number | string | null }>(
    `SELECT channel, COUNT(*) AS waiting, MIN(created_at) AS oldest FROM deliveries
      WHERE status IN ('queued', 'sending') GROUP BY channel ORDER BY channel`,
  );
  return rows.map((row) => ({
    channel: row.channel,
    waiting: Number(row.waiting),
    oldestAgeMs: row.oldest === null ? 0 : Math.max(0, now - Number(row.oldest)),
  }));
}
