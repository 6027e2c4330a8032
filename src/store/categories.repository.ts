// Categories, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Category } from '../domain/category.ts';
import type { Queryable } from './db.ts';
import { forUpdate } from './dialect.ts';
import { columnList, defineTable, insertRows } from './table.ts';
import type { Paged } from '../domain/paging.ts';
import { owned, type Page, pagedRows } from './owned-queries.ts';
import { joinSql, raw, Sql, sql } from './sql.ts';

/** The categories table as stored (migrations 001 and 010). */
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

/** What a `Category` is read from: the owner columns are already known to the caller. */
type CategoryRow = Omit<CategoriesRow, 'account_id' | 'env'>;

const READ_COLUMNS = raw(columnList(CATEGORIES, { except: ['account_id', 'env'] }));

function toCategory(row: CategoryRow): Category {
  return { id: row.id, name: row.name, type: row.type, createdAt: Number(row.created_at) };
}

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
  return pagedRows(q, {
    table: 'categories',
    where: owned(owner),
    searchColumns: ['name', 'type'],
    page,
    map: toCategory,
    columns: READ_COLUMNS.text,
  });
}

export async function findCategory(q: Queryable, owner: Owner, id: string): Promise<Category | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM categories WHERE id = ${id} AND ${owned(owner)}`;
  const row = await q.get<CategoryRow>(s.text, s.params);
  return row === undefined ? undefined : toCategory(row);
}

export async function updateCategory(
  q: Queryable,
  owner: Owner,
  id: string,
  changes: Partial<Pick<Category, 'name' | 'type'>>,
): Promise<number> {
  const sets: Sql[] = [];
  if (changes.name !== undefined) sets.push(new Sql('name = ?', [changes.name]));
  if (changes.type !== undefined) sets.push(new Sql('type = ?', [changes.type]));
  if (sets.length === 0) return (await findCategory(q, owner, id)) === undefined ? 0 : 1;
  const s = sql`UPDATE categories SET ${joinSql(sets, ', ')} WHERE id = ${id} AND ${owned(owner)}`;
  return q.run(s.text, s.params);
}

/**
 * Removes the category while no check is filed under it (issue 14), decided in the deleting
 * statement. Categories have no deleted_at: an unused one leaves nothing behind to keep.
 */
export async function deleteUnusedCategory(q: Queryable, owner: Owner, id: string): Promise<number> {
  // Locked first, as a voucher is (vouchers.repository.ts): a check being filed under it commits
  // before the guarded DELETE looks.
  const lock = sql`SELECT id FROM categories WHERE id = ${id} AND ${owned(owner)}${raw(forUpdate(q.dialect))}`;
  await q.get(lock.text, lock.params);
  const s = sql`DELETE FROM categories WHERE id = ${id} AND ${owned(owner)}
       AND NOT EXISTS (SELECT 1 FROM checks c WHERE ${owned(owner, { alias: 'c' })} AND c.category_id = categories.id)`;
  return q.run(s.text, s.params);
}
