// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { Queryable } from '../db.ts';
import type { ColumnTypes } from '../dialect.ts';

export const id = 35;
export const name = 'amounts-by-owner';

/**
 * SQLite: the amount part of a term search moves from the b-tree index `checks_amount` (owner,
 * amount; migration 011) to a contentless FTS5 table `check_amounts`, keyed like `check_search` by
 * `owner_no << 40 | rowid` (migration 017), one token per check: its amount in cents.
 *
 * Why: a b-tree keyed by amount takes each new check on a leaf page of its own (amounts are
 * scattered), so once an account has some tens of thousands of checks every check of a batch
 * dirties one more page, written to the WAL at COMMIT and copied again by the checkpoint: about a
 * third of a 500-check POST's server CPU at 50,000 checks, half of the pages a batch writes at
 * 300,000 (docs/benchmarks.md, "Results (2026-11-29 night: POST /checks in 500-check batches)").
 * FTS5 is append-shaped: a transaction's entries are one new segment, merged in the background of
 * later writes. A count of one owner's checks of an amount is a rowid range of one token's doclist,
 * exact, never reading `checks`; `detail=none` keeps no positions, which a one-token match does not
 * need. (The sizes are kept, FTS5's default: without them the table refuses a plain
 * `SELECT * FROM check_amounts`, as a dump of every table does.)
 *
 * The token is the amount as SQLite writes the integer (`-`, `.` are token characters, so any
 * stored number is one token and the match is an exact equality). Checks without an amount get no
 * entry. The insert and delete triggers are 017's with the amount's entry added (in the same
 * trigger, after the owner's number exists); a new trigger follows edits of the amount.
 *
 * PostgreSQL keeps `checks_amount`: its writes are not the limit there, and its planner counts an
 * amount from that index.
 */
export function up(_t: ColumnTypes): string[] {
  return [];
}

export async function data(tx: Queryable): Promise<void> {
  if (tx.dialect !== 'sqlite') return;
  for (const statement of sqliteStatements()) await tx.run(statement);
}

/** The index key of a check: its owner's number in the high bits, its rowid in the low 40 (017). */
const key = (row: 'new' | 'old') =>
  `(((SELECT owner_no FROM search_owners WHERE account_id = ${row}.account_id AND env = ${row}.env) << 40) | ${row}.rowid)`;

const ownerOf = (row: 'new' | 'old') =>
  `INSERT INTO search_owners (account_id, env) VALUES (${row}.account_id, ${row}.env) ON CONFLICT DO NOTHING;`;

const bump = (row: 'new' | 'old') =>
  `INSERT INTO check_changes (account_id, env, n) VALUES (${row}.account_id, ${row}.env, 1)
   ON CONFLICT (account_id, env) DO UPDATE SET n = check_changes.n + 1;`;

const textIndexed = (row: 'new' | 'old') =>
  `INSERT INTO check_search (rowid, search_text) VALUES (${key(row)}, ${row}.search_text);`;

const textUnindexed = (row: 'new' | 'old') =>
  `INSERT INTO check_search (check_search, rowid, search_text) VALUES ('delete', ${key(row)}, ${row}.search_text);`;

// A contentless table's delete must name exactly what was inserted: both skip a NULL amount.
const amountIndexed = (row: 'new' | 'old') =>
  `INSERT INTO check_amounts (rowid, amount_cents)
     SELECT ${key(row)}, ${row}.amount_cents WHERE ${row}.amount_cents IS NOT NULL;`;

const amountUnindexed = (row: 'new' | 'old') =>
  `INSERT INTO check_amounts (check_amounts, rowid, amount_cents)
     SELECT 'delete', ${key(row)}, ${row}.amount_cents WHERE ${row}.amount_cents IS NOT NULL;`;

function sqliteStatements(): string[] {
  return [
    'DROP TRIGGER IF EXISTS check_search_insert',
    'DROP TRIGGER IF EXISTS check_search_delete',
    'DROP INDEX IF EXISTS checks_amount',
    `CREATE VIRTUAL TABLE check_amounts USING fts5(
      amount_cents, content='', detail=none, tokenize="unicode61 tokenchars '-.'")`,
    `INSERT INTO check_amounts (rowid, amount_cents)
       SELECT (o.owner_no << 40) | c.rowid, c.amount_cents
       FROM checks c JOIN search_owners o ON o.account_id = c.account_id AND o.env = c.env
       WHERE c.amount_cents IS NOT NULL
       ORDER BY 1`,
    `CREATE TRIGGER check_search_insert AFTER INSERT ON checks BEGIN
       ${ownerOf('new')}
       ${textIndexed('new')}
       ${amountIndexed('new')}
       ${bump('new')}
     END`,
    `CREATE TRIGGER check_amounts_update AFTER UPDATE OF amount_cents, account_id, env ON checks BEGIN
       ${amountUnindexed('old')}
       ${ownerOf('new')}
       ${amountIndexed('new')}
     END`,
    `CREATE TRIGGER check_search_delete AFTER DELETE ON checks BEGIN
       ${textUnindexed('old')}
       ${amountUnindexed('old')}
       ${bump('old')}
     END`,
  ];
}
