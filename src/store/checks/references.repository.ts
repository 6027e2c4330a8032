// Looking a check up by its referenceId (quickpay answers a repeated referenceID with the check it
// already wrote).
import type { Owner } from '../../domain/owner.ts';
import type { Queryable } from '../db.ts';
import { owned } from '../owned-queries.ts';
import { inList, sql } from '../sql.ts';

/** The id of the caller's check with this referenceId (unique per owner), if any. */
export async function checkIdByReference(q: Queryable, owner: Owner, referenceId: string): Promise<string | undefined> {
  const s = sql`SELECT id FROM checks WHERE ${owned(owner)} AND reference_id = ${referenceId} LIMIT 1`;
  const row = await q.get<{ id: string }>(s.text, s.params);
  return row?.id;
}

/** The ids of the caller's checks holding these referenceIds, by referenceId. */
export async function checkIdsByReference(
  q: Queryable,
  owner: Owner,
  referenceIds: readonly string[],
): Promise<Map<string, string>> {
  if (referenceIds.length === 0) return new Map();
  const s = sql`SELECT id, reference_id FROM checks WHERE ${owned(owner)} AND reference_id IN ${inList(referenceIds)}`;
  const rows = await q.all<{ id: string; reference_id: string }>(s.text, s.params);
  return new Map(rows.map((r) => [r.reference_id, r.id]));
}
