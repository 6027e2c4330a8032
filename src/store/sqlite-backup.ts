// An online backup of a SQLite database with SQLite's backup API (better-sqlite3's db.backup()),
// from a connection of its own, so it runs beside servers that keep writing to the file.
//
// The backup API restarts whenever another connection writes to the source between two of its
// steps; copied in small steps under a steady write load it might never finish. So after the
// first step every remaining page is copied in one step: one read transaction, which in WAL mode
// sees one consistent snapshot and blocks no writer.
//
// The copy holds sealed bank account numbers and key hashes, so no other user may read it at any
// moment: it is written to a temp file in the output's folder, created exclusively (O_EXCL,
// O_NOFOLLOW) with mode 0600 before its first byte — SQLite gives its journal the same mode —
// and only when it is whole and checked is it linked under the output's name. link() never
// follows a symlink and never replaces what is there, so a file or symlink (dangling or not)
// planted at the output, even after the first look, is refused and left as it was.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, existsSync, fchmodSync, linkSync, lstatSync, openSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
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

/** Why `out` cannot be written, or null: it must not exist at all, not even as a dangling symlink. */
function occupied(out: string): string | null {
  try {
    const entry = lstatSync(out);
    return entry.isSymbolicLink()
      ? `${out} is a symbolic link: a backup is never written through one; name a new file`
      : `${out} exists: choose a new file (a backup never overwrites one)`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** An empty file only its owner can read, made here and now (never an existing file or a link). */
function createPrivateFile(path: string): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  try {
    // A umask such as 0277 would leave it unwritable; 0600 exactly, never wider.
    fchmodSync(fd, 0o600);
  } finally {
    closeSync(fd);
  }
}

function removeCopy(path: string): void {
  for (const suffix of ['', '-journal', '-wal', '-shm']) rmSync(`${path}${suffix}`, { force: true });
}

export async function backupSqlite(source: string, out: string): Promise<SqliteBackup> {
  if (!existsSync(source)) throw new Error(`no database at ${source}`);
  const refusal = occupied(out);
  if (refusal !== null) throw new Error(refusal);
  const began = Date.now();
  const partial = join(dirname(out), `.${basename(out)}.${randomBytes(6).toString('hex')}.partial`);
  try {
    createPrivateFile(partial);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`the folder ${dirname(out)} does not exist`);
    throw error;
  }
  let linked = false;
  try {
    const db = new Database(source, { readonly: true, fileMustExist: true, timeout: 5_000 });
    let pages = 0;
    try {
      const result = await db.backup(partial, { progress: () => ALL_AT_ONCE });
      pages = result.totalPages;
    } finally {
      db.close();
    }
    const copy = new Database(partial, { fileMustExist: true });
    let checked: SqliteBackup;
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
      checked = { pages, bytes: pages * pageSize, ms: 0, counts };
    } finally {
      copy.close();
    }
    try {
      linkSync(partial, out);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new Error(occupied(out) ?? `${out} exists`);
      throw error;
    }
    linked = true;
    return { ...checked, ms: Date.now() - began };
  } finally {
    // Linked, the copy lives on under `out`; otherwise nothing is left behind.
    if (linked) rmSync(partial, { force: true });
    else removeCopy(partial);
  }
}
