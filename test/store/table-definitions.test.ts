// Each table's one definition (defineTable in its repository) against the table the migrations
// made, read from the database's own catalogue on each dialect: a column the definition leaves
// out is written by no insert and forgotten by the next reader of the definition, which is how
// the definition stops being the table.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { definedTables } from '../../src/store/table.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

const STORE = fileURLToPath(new URL('../../src/store/', import.meta.url));

/** Columns a definition leaves out on purpose, with the reason. */
const LEFT_OUT: Readonly<Record<string, { columns: readonly string[]; why: string }>> = {
  check_statements: { columns: ['id'], why: 'numbered by the database (the statements keep their order by it)' },
};

function storeModules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : storeModules(path);
    // A thread's entry module (`*-thread.ts`) starts working when imported: it defines no table.
    return entry.name.endsWith('.ts') && !entry.name.endsWith('-thread.ts') ? [path] : [];
  });
}

async function columnsOf(database: TestDatabase, table: string): Promise<string[]> {
  const rows =
    database.dialect === 'postgres'
      ? await database.db.all<{ name: string }>(
          'SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?',
          [table],
        )
      : await database.db.all<{ name: string }>('SELECT name FROM pragma_table_info(?)', [table]);
  return rows.map((r) => r.name).sort();
}

describe.each(dialects())('table definitions (%s)', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    for (const path of storeModules(STORE)) await import(pathToFileURL(path).href);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('defines each table once, and finds the tables of the store', () => {
    const names = definedTables().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['checks', 'payees', 'bank_accounts', 'positive_pay_layouts']));
  });

  it('names every column the migrations made, and none they did not', async () => {
    const differences: string[] = [];
    for (const table of definedTables()) {
      const stored = await columnsOf(database, table.name);
      const expected = [...table.columns, ...(LEFT_OUT[table.name]?.columns ?? [])].sort();
      if (stored.length === 0) differences.push(`${table.name}: no such table`);
      else if (JSON.stringify(stored) !== JSON.stringify(expected))
        differences.push(
          `${table.name}: not defined [${stored.filter((c) => !expected.includes(c)).join(', ')}], not stored [${expected.filter((c) => !stored.includes(c)).join(', ')}]`,
        );
    }
    expect(differences, differences.join('\n')).toEqual([]);
  });
});
