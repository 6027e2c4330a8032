// One typed row per table: its columns as stored, named once. A table's column list is checked
// against its row type by the compiler (a column missing from the list, or listed twice under a
// wrong name, does not compile), and inserts are built from that list — never a positional
// VALUES list kept in step by hand.
//
// Batches go in as multi-row INSERTs whose sizes come from a fixed list (issue 13, "batch writes
// everywhere"): at most one statement per size and table, so the per-connection prepared-statement
// cache stays small, and a 500-row batch is ten round trips instead of 500.
import type { Queryable, SqlValue } from './db.ts';

export interface Table<Row> {
  readonly name: string;
  readonly columns: readonly (keyof Row & string)[];
}

type Missing<Row, Listed> = Exclude<keyof Row, Listed>;

/**
 * `defineTable<Row>()('checks', [...columns])`: the list must name every column of Row (the
 * compiler says which are missing).
 */
export function defineTable<Row extends { [K in keyof Row]: SqlValue }>() {
  return <const Columns extends readonly (keyof Row & string)[]>(
    name: string,
    columns: Columns &
      ([Missing<Row, Columns[number]>] extends [never] ? unknown : { missing: Missing<Row, Columns[number]> }),
  ): Table<Row> => ({ name, columns });
}

/** Rows per statement, largest first; what is left after the largest fits goes in smaller ones. */
const CHUNK_SIZES = [50, 20, 5, 1] as const;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  let at = 0;
  for (const size of CHUNK_SIZES) {
    while (items.length - at >= size) {
      out.push(items.slice(at, at + size));
      at += size;
    }
  }
  return out;
}

/** Inserts `rows` into `table` (inside the caller's transaction, when there is one). */
export async function insertRows<Row extends { [K in keyof Row]: SqlValue }>(
  q: Queryable,
  table: Table<Row>,
  rows: readonly Row[],
): Promise<void> {
  if (rows.length === 0) return;
  const head = `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES `;
  const one = `(${table.columns.map(() => '?').join(', ')})`;
  for (const chunk of chunks(rows)) {
    await q.run(
      head + chunk.map(() => one).join(', '),
      chunk.flatMap((row) => table.columns.map((column) => row[column])),
    );
  }
}
