// store/table.ts: one typed row definition per table, batch inserts in a few fixed statement
// shapes. Checked on each database by reading the rows back with plain SQL, and by counting the
// distinct INSERT statements the store was asked to run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import type { Queryable, SqlValue } from '../../src/store/db.ts';
import { defineTable, insertRows } from '../../src/store/table.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

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

// A column list that forgets a column of the row does not compile (tsc runs over the tests too).
// @ts-expect-error: 'created_at' is missing
defineTable<CategoriesRow>()('categories', ['id', 'account_id', 'env', 'name', 'type']);

/** The transaction's own connection, with every statement it runs written down in `statements`. */
function recordingInto(statements: string[]): (tx: Queryable) => Queryable {
  return (tx) => ({
    dialect: tx.dialect,
    all: (sql, params) => tx.all(sql, params),
    get: (sql, params) => tx.get(sql, params),
    run: (sql: string, params?: readonly SqlValue[]) => {
      statements.push(sql);
      return tx.run(sql, params);
    },
  });
}

describe.each(dialects())('insertRows (%s)', (dialect) => {
  let database: TestDatabase;
  let accountId = '';

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    accountId = (await ensureAccount(database.db, { email: 'table@example.com', verified: true })).account.id;
  });
  afterAll(async () => {
    await database.drop();
  });

  it('writes every row of a 137-row batch, each column in its place, in at most 4 statement shapes', async () => {
    const statements: string[] = [];
    const recording = recordingInto(statements);
    const rows: CategoriesRow[] = Array.from({ length: 137 }, (_, i) => ({
      id: `cat_table_${String(i).padStart(3, '0')}`,
      account_id: accountId,
      env: 'test',
      name: `Category ${i}`,
      type: i % 2 === 0 ? 'expense' : 'income',
      created_at: 1_700_000_000_000 + i,
    }));
    await database.db.transaction((tx) => insertRows(recording(tx), CATEGORIES, rows));
    const back = await database.db.all<CategoriesRow>(
      "SELECT id, account_id, env, name, type, created_at FROM categories WHERE id LIKE 'cat_table_%' ORDER BY id",
    );
    expect(back.map((r) => ({ ...r, created_at: Number(r.created_at) }))).toEqual(rows);
    // 137 = 2×50 + 1×20 + 3×5 + 2×1: eight statements, of four distinct texts.
    expect(statements).toHaveLength(8);
    expect(new Set(statements).size).toBe(4);
  });

  it('writes a 517-row batch (a full 500-check batch and then some) as 2×250 + 3×5 + 2×1', async () => {
    const statements: string[] = [];
    const recording = recordingInto(statements);
    const rows: CategoriesRow[] = Array.from({ length: 517 }, (_, i) => ({
      id: `cat_large_${String(i).padStart(3, '0')}`,
      account_id: accountId,
      env: 'test',
      name: `Large ${i}`,
      type: 'expense',
      created_at: 1_700_000_000_000 + i,
    }));
    await database.db.transaction((tx) => insertRows(recording(tx), CATEGORIES, rows));
    const back = await database.db.all<CategoriesRow>(
      "SELECT id, account_id, env, name, type, created_at FROM categories WHERE id LIKE 'cat_large_%' ORDER BY id",
    );
    expect(back.map((r) => ({ ...r, created_at: Number(r.created_at) }))).toEqual(rows);
    expect(statements).toHaveLength(7);
    expect(new Set(statements).size).toBe(3);
  });

  it('writes nothing for an empty batch', async () => {
    const before = await database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM categories');
    await insertRows(database.db, CATEGORIES, []);
    const after = await database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM categories');
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});
