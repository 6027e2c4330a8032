// Categories, scoped by owner.
import type { Owner } from '../domain/owner.ts';
import type { Category } from '../domain/category.ts';
import type { Queryable } from './db.ts';
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
