// Every row of every table, hashed per table: a test takes one before and one after a request
// (or a run of thousands) and compares, so "nothing was written" covers tables nobody thought of.
import { createHash } from 'node:crypto';
import type { Db } from '../../src/store/db.ts';

export type TableSnapshot = Record<string, { rows: number; hash: string }>;

/**
 * Bookkeeping that refused requests are meant to write: the abuse limits count every failed
 * request and sign-in attempt where all servers see them (migration 020, docs/security.md
 * "Abuse limits"). Not data of any account: a snapshot leaves it out.
 */
const BOOKKEEPING = new Set(['limit_counters']);

/**
 * Columns of bookkeeping in tables of data: a panel session's idle clock moves on any request,
 * reads too, at most once a minute (docs/security.md, "Safe methods"), so a run longer than a
 * minute sees it move. Left out of the row's hash; the row itself still counts.
 */
const BOOKKEEPING_COLUMNS: Readonly<Record<string, readonly string[]>> = { panel_sessions: ['last_seen_at'] };

async function tableNames(db: Db): Promise<string[]> {
  const rows =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
      : await db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
        );
  return rows.map((r) => r.name);
}

export async function snapshotTables(db: Db): Promise<TableSnapshot> {
  const snapshot: TableSnapshot = {};
  for (const name of await tableNames(db)) {
    if (BOOKKEEPING.has(name)) continue;
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM "${name}"`);
    for (const row of rows) for (const column of BOOKKEEPING_COLUMNS[name] ?? []) delete row[column];
    // Row order is not part of the state: each row is hashed, and the sorted hashes hashed again.
    const hashes = rows
      .map((row) =>
        createHash('sha256')
          .update(
            JSON.stringify(row, (_k, v: unknown) =>
              typeof v === 'bigint' ? String(v) : Buffer.isBuffer(v) ? v.toString('base64') : v,
            ),
          )
          .digest('hex'),
      )
      .sort();
    snapshot[name] = { rows: rows.length, hash: createHash('sha256').update(hashes.join('\n')).digest('hex') };
  }
  return snapshot;
}
