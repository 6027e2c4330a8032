// A company's custom positive pay layouts (migration 033), and the layout each bank account uses.
import type { Owner } from '../domain/owner.ts';
import type { Queryable } from './db.ts';
import { owned } from './owned-queries.ts';
import { raw, sql } from './sql.ts';
import { columnList, defineTable, insertStatement, rowValues } from './table.ts';

export interface StoredLayout {
  id: string;
  name: string;
  /** The layout description as JSON (formats/positive-pay-layouts/layout.ts), checked when stored. */
  layout: string;
  createdBy: string;
  createdAt: number;
}

/** The positive_pay_layouts table as stored (migration 033). */
interface PositivePayLayoutsRow {
  id: string;
  account_id: string;
  name: string;
  layout: string;
  created_by: string;
  created_at: number;
}

const LAYOUTS = defineTable<PositivePayLayoutsRow>()('positive_pay_layouts', [
  'id',
  'account_id',
  'name',
  'layout',
  'created_by',
  'created_at',
]);

const INSERT_LAYOUT = insertStatement(LAYOUTS);
/** What reads select: every column but the company's, which the query already names. */
const READ_COLUMNS = raw(columnList(LAYOUTS, { except: ['account_id'] }));

type LayoutRow = Omit<PositivePayLayoutsRow, 'account_id'>;

function toStored(row: LayoutRow): StoredLayout {
  return {
    id: row.id,
    name: row.name,
    layout: row.layout,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
  };
}

/** At most this many custom layouts a company keeps (a bank or two each, in practice). */
export const MAX_LAYOUTS = 100;

export async function insertLayout(q: Queryable, accountId: string, l: StoredLayout): Promise<void> {
  await q.run(
    INSERT_LAYOUT,
    rowValues(LAYOUTS, {
      id: l.id,
      account_id: accountId,
      name: l.name,
      layout: l.layout,
      created_by: l.createdBy,
      created_at: l.createdAt,
    }),
  );
}

export async function listLayouts(q: Queryable, accountId: string): Promise<StoredLayout[]> {
  const s = sql`SELECT ${READ_COLUMNS} FROM positive_pay_layouts
    WHERE account_id = ${accountId} ORDER BY created_at, id LIMIT ${MAX_LAYOUTS}`;
  return (await q.all<LayoutRow>(s.text, s.params)).map(toStored);
}

export async function findLayout(q: Queryable, accountId: string, id: string): Promise<StoredLayout | undefined> {
  const s = sql`SELECT ${READ_COLUMNS} FROM positive_pay_layouts
    WHERE account_id = ${accountId} AND id = ${id}`;
  const row = await q.get<LayoutRow>(s.text, s.params);
  return row === undefined ? undefined : toStored(row);
}

export async function countLayouts(q: Queryable, accountId: string): Promise<number> {
  const s = sql`SELECT COUNT(*) AS n FROM positive_pay_layouts WHERE account_id = ${accountId}`;
  return Number((await q.get<{ n: number | string }>(s.text, s.params))?.n ?? 0);
}

/** Deletes the layout and lets every bank account that chose it fall back to no choice. */
export async function deleteLayout(q: Queryable, accountId: string, id: string): Promise<number> {
  const unchoose = sql`UPDATE bank_accounts SET positive_pay_layout = NULL
    WHERE account_id = ${accountId} AND positive_pay_layout = ${id}`;
  await q.run(unchoose.text, unchoose.params);
  const s = sql`DELETE FROM positive_pay_layouts WHERE account_id = ${accountId} AND id = ${id}`;
  return q.run(s.text, s.params);
}

/** The layout a bank account chose (a preset's name or a custom layout's id), or null. */
export async function chosenLayout(q: Queryable, owner: Owner, bankAccountId: string): Promise<string | null> {
  const s = sql`SELECT positive_pay_layout FROM bank_accounts WHERE id = ${bankAccountId} AND ${owned(owner, { live: true })}`;
  const row = await q.get<{ positive_pay_layout: string | null }>(s.text, s.params);
  return row?.positive_pay_layout ?? null;
}

export async function chooseLayout(
  q: Queryable,
  owner: Owner,
  bankAccountId: string,
  layout: string | null,
): Promise<number> {
  const s = sql`UPDATE bank_accounts SET positive_pay_layout = ${layout}
    WHERE id = ${bankAccountId} AND ${owned(owner, { live: true })}`;
  return q.run(s.text, s.params);
}
