// One typed row per table: its columns as stored, named once. A table's column list is checked
// against its row type by the compiler (a column missing from the list, or listed twice under a
// wrong name, does not compile), and inserts are built from that list — never a positional
// VALUES list kept in step by hand.
//
// How a repository uses it:
//   interface PayeesRow { id: string; account_id: string; ... }         // every column, as stored
//   const PAYEES = defineTable<PayeesRow>()('payees', ['id', 'account_id', ...]);
//   await insertRows(q, PAYEES, rows);                                   // batches
//   const ADD = insertStatement(PAYEES, { tail: ' ON CONFLICT DO NOTHING' }); // one row, own tail
//   await q.run(ADD, rowValues(PAYEES, row));
//   const COLUMNS = columnList(PAYEES, { except: ['logo'] });           // what reads select
// Statement texts are made once, at module load or on a table's first batch of a size, so the
// same query shape is always the same text (the prepared-statement caches are keyed by it).
// Queries scoped by owner splice `owned(...)` (owned-queries.ts) into a `sql` template (sql.ts).
//
// Batches go in as multi-row INSERTs whose sizes come from a fixed list: at most one statement
// per size and table, so the per-connection prepared-statement cache stays small, and a 500-row
// batch is two round trips instead of 500.
import type { Queryable, SqlValue } from './db.ts';

export interface Table<Row> {
  readonly name: string;
  readonly columns: readonly (keyof Row & string)[];
}

/** Each table's multi-row INSERT texts by row count, made on first use. */
const batchTexts = new WeakMap<object, Map<number, string>>();

type Missing<Row, Listed> = Exclude<keyof Row, Listed>;

/** Every table defined so far (test/store/table-definitions.test.ts holds each to the database). */
const defined: { readonly name: string; readonly columns: readonly string[] }[] = [];

/** The tables the loaded modules defined, in the order they were defined. */
export function definedTables(): readonly { readonly name: string; readonly columns: readonly string[] }[] {
  return defined;
}

/**
 * `defineTable<Row>()('checks', [...columns])`: the list must name every column of Row (the
 * compiler says which are missing).
 */
export function defineTable<Row extends { [K in keyof Row]: SqlValue }>() {
  return <const Columns extends readonly (keyof Row & string)[]>(
    name: string,
    columns: Columns &
      ([Missing<Row, Columns[number]>] extends [never] ? unknown : { missing: Missing<Row, Columns[number]> }),
  ): Table<Row> => {
    const table: Table<Row> = { name, columns };
    defined.push(table);
    return table;
  };
}

/**
 * Rows per statement, largest first; what is left after the largest fits goes in smaller ones.
 * 250: a 500-check batch is two statements per table instead of ten, which on PostgreSQL is eight
 * round trips fewer per table (~20% less server CPU per check, measured); on SQLite it made no
 * difference. The widest table (28 columns) then binds 7,000 values, under SQLite's 32,766.
 */
const CHUNK_SIZES = [250, 50, 20, 5, 1] as const;

/**
 * `INSERT INTO table (every column) VALUES (?, ...)` for `rows` rows (default 1), then `tail`
 * (` ON CONFLICT ...`, ` RETURNING ...`). Call it at module load for a fixed shape.
 */
export function insertStatement<Row>(table: Table<Row>, options: { rows?: number; tail?: string } = {}): string {
  const one = `(${table.columns.map(() => '?').join(', ')})`;
  const values = Array.from({ length: options.rows ?? 1 }, () => one).join(', ');
  return `INSERT INTO ${table.name} (${table.columns.join(', ')}) VALUES ${values}${options.tail ?? ''}`;
}

/** The row's values in the table's column order: the parameters of `insertStatement`. */
export function rowValues<Row extends { [K in keyof Row]: SqlValue }>(table: Table<Row>, row: Row): SqlValue[] {
  return table.columns.map((column) => row[column]);
}

/**
 * The table's columns for a SELECT, in its list's order, less `except` (a large image that
 * ordinary reads leave out), each prefixed with `alias.` when given.
 */
export function columnList<Row>(
  table: Table<Row>,
  options: { alias?: string; except?: readonly (keyof Row & string)[] } = {},
): string {
  const prefix = options.alias === undefined ? '' : `${options.alias}.`;
  return table.columns
    .filter((column) => options.except?.includes(column) !== true)
    .map((column) => prefix + column)
    .join(', ');
}

function batchText<Row>(table: Table<Row>, rows: number): string {
  let texts = batchTexts.get(table);
  if (texts === undefined) {
    texts = new Map();
    batchTexts.set(table, texts);
  }
  let text = texts.get(rows);
  if (text === undefined) {
    text = insertStatement(table, { rows });
    texts.set(rows, text);
  }
  return text;
}

/** Inserts `rows` into `table` (inside the caller's transaction, when there is one). */
export async function insertRows<Row extends { [K in keyof Row]: SqlValue }>(
  q: Queryable,
  table: Table<Row>,
  rows: readonly Row[],
): Promise<void> {
  // Each statement's parameters are read straight from the rows, in column order: no slice of
  // the rows and no array per row (a 500-check batch passes 12,000 values through here).
  const columns = table.columns;
  let at = 0;
  for (const size of CHUNK_SIZES) {
    while (rows.length - at >= size) {
      const params: SqlValue[] = [];
      for (let i = at; i < at + size; i++) {
        const row = rows[i] as Row;
        for (const column of columns) params.push(row[column]);
      }
      await q.run(batchText(table, size), params);
      at += size;
    }
  }
}
