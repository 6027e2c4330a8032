// Looking a check up by its referenceId (quickpay answers a repeated referenceID with the check it
// already wrote). Kept apart from checks.repository.ts, which is being split on another branch.
import type { Owner } from '../../domain/owner.ts';
import type { Queryable } from '../db.ts';
import { OWNED } from '../owned-queries.ts';

/** The id of the caller's check with this referenceId (unique per owner), if any. */
export async function checkIdByReference(q: Queryable, owner: Owner, referenceId: string): Promise<string | undefined> {
  const row = await q.get<{ id: string }>(`SELECT id FROM checks WHERE ${OWNED} AND reference_id = ? LIMIT 1`, [
    owner.accountId,
    owner.env,
    referenceId,
  ]);
  return row?.id;
}

/** The ids of the caller's checks holding these referenceIds, by referenceId. */
export async function checkIdsByReference(
  q: Queryable,
  owner: Owner,
  referenceIds: readonly string[],
): Promise<Map<string, string>> {
  if (referenceIds.length === 0) return new Map();
  const rows = await q.all<{ id: string; reference_id: string }>(
    `SELECT id, reference_id FROM checks WHERE ${OWNED} AND reference_id IN (${referenceIds.map(() => '?').join(', ')})`,
    [owner.accountId, owner.env, ...referenceIds],
  );
  return new Map(rows.map((r) => [r.reference_id, r.id]));
}
