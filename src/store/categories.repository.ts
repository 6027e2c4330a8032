// Categories, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Category } from '../domain/category.ts';
import type { Queryable, SqlValue } from './db.ts';
import { forUpdate } from './dialect.ts';
import { defineTable, insertRows } from './table.ts';
import type { Paged } from '../domain/paging.ts';
import { OWNED, type Page, paged } from './owned-queries.ts';

interface CategoryRow {
  id: string;
  name: string;
  type: string;
  created_at: number;
}

function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, type: row.type, createdAt: Number(row.created_at) };
}

interface CategoriesRow {
  id: string;
  account_id: string;
  env: string;
  name: string;
  type: string;
  created_at: number;
}

const CATEGORIES = defineTable<CategoriesRow>()('categories', [
  'id',
  'account_id',
  'env',
  'name',
  'type',
  'created_at',
]);

export async function insertCategories(q: Queryable, owner: Owner, categories: readonly Category[]): Promise<void> {
  await insertRows(
    q,
    CATEGORIES,
    categories.map((c) => ({
      id: c.id,
      account_id: owner.accountId,
      env: owner.env,
      name: c.name,
      type: c.type,
      created_at: c.createdAt,
    })),
  );
}

export function listCategories(q: Queryable, owner: Owner, page: Page): Promise<Paged<Category>> {
  return paged(q, 'categories', OWNED, [owner.accountId, owner.env], ['name', 'type'], page, toCategory);
}

export async function findCategory(q: Queryable, owner: Owner, id: string): Promise<Category | undefined> {
  const row = await q.get<CategoryRow>(`SELECT id, name, type, created_at FROM categories WHERE id = ? AND ${OWNED}`, [
    id,
    owner.accountId,
    owner.env,
  ]);
  return row === undefined ? undefined : toCategory(row);
}

export async function updateCategory(
  q: Queryable,
  owner: Owner,
  id: string,
  changes: Partial<Pick<Category, 'name' | 'type'>>,
): Promise<number> {
  const sets: string[] = [];
  const args: SqlValue[] = [];
  if (changes.name !== undefined) {
    sets.push('name = ?');
    args.push(changes.name);
  }
  if (changes.type !== undefined) {
    sets.push('type = ?');
    args.push(changes.type);
  }
  if (sets.length === 0) return (await findCategory(q, owner, id)) === undefined ? 0 : 1;
  return q.run(`UPDATE categories SET ${sets.join(', ')} WHERE id = ? AND ${OWNED}`, [
    ...args,
    id,
    owner.accountId,
    owner.env,
  ]);
}

/**
 * Removes the category while no check is filed under it (issue 14), decided in the deleting
 * statement. Categories have no deleted_at: an unused one leaves nothing behind to keep.
 */
export async function deleteUnusedCategory(q: Queryable, owner: Owner, id: string): Promise<number> {
  // Locked first, as a voucher is (vouchers.repository.ts): a check being filed under it commits
  // before the guarded DELETE looks.
  await q.get(`SELECT id FROM categories WHERE id = ? AND ${OWNED}${forUpdate(q.dialect)}`, [
    id,
    owner.accountId,
    owner.env,
  ]);
  return q.run(
    `DELETE FROM categories WHERE id = ? AND ${OWNED}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE c.account_id = ? AND c.env = ? AND c.category_id = categories.id)`,
    [id, owner.accountId, owner.env, owner.accountId, owner.env],
  );
}
