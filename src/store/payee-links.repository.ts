// The links a payee opens from an emailed check (check_links): only the token's hash is kept.
import type { Environment, Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertRows } from './table.ts';

/** The check_links table as stored (migration 003). */
interface CheckLinksRow {
  token_hash: string;
  check_id: string;
  account_id: string;
  env: Environment;
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

const LINK_COLUMNS = columnList(CHECK_LINKS);

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
  const s = sql`SELECT ${raw(LINK_COLUMNS)} FROM check_links WHERE token_hash = ${tokenHash}`;
  const row = await q.get<CheckLinksRow>(s.text, s.params);
  return row === undefined
    ? undefined
    : { checkId: row.check_id, owner: { accountId: row.account_id, env: row.env }, expiresAt: Number(row.expires_at) };
}
