// An online backup of a SQLite database with SQLite's backup API (better-sqlite3's db.backup()),
// from a connection of its own, so it runs beside servers that keep writing to the file.
//
// The backup API restarts whenever another connection writes to the source between two of its
// steps; copied in small steps under a steady write load it might never finish. So after the
// first step every remaining page is copied in one step: one read transaction, which in WAL mode
// sees one consistent snapshot and blocks no writer.
import { chmodSync, existsSync } from 'node:fs';
import { Database } from './sqlite-driver.ts';

export interface SqliteBackup {
  pages: number;
  bytes: number;
  ms: number;
  /** Rows of a few tables in the copy, read back from it (not from the source). */
  counts: Record<string, number>;
}

const COUNTED = ['accounts', 'api_keys', 'bank_accounts', 'payees', 'checks'] as const;
const ALL_AT_ONCE = 0x7fffffff;

export async function backupSqlite(source: string, out: string): Promise<SqliteBackup> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  if (existsSync(out)) throw new Error(`${out} exists: choose a new file (a backup never overwrites one)`);
  const began = Date.now();
  const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
  let pages = 0;
  try {
    const result = await db.backup(out, { progress: () => ALL_AT_ONCE });
    pages = result.totalPages;
  } finally {
    db.close();
  }
  // It holds sealed bank account numbers and key hashes: readable by its owner only.
  chmodSync(out, 0o600);
  const copy = new Database(out, { fileMustExist: true });
  try {
    // One self-contained file (no -wal/-shm beside it) to store and to copy back; the server
    // switches it to WAL again when it opens it.
    copy.pragma('journal_mode = DELETE');
    const integrity = copy.pragma('quick_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`the copy fails SQLite's quick_check: ${String(integrity)}`);
    const counts: Record<string, number> = {};
    for (const table of COUNTED)
      counts[table] = (copy.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const pageSize = copy.pragma('page_size', { simple: true }) as number;
    return { pages, bytes: pages * pageSize, ms: Date.now() - began, counts };
  } finally {
    copy.close();
  }
}
