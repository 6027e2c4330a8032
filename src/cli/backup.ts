// `checkwriter backup --out FILE`: an online, consistent copy of a SQLite database, taken while
// servers keep writing (SQLite's backup API; store/sqlite-backup.ts, which cli/main.ts hands in:
// a concrete adapter is the entry point's to reach, not a command's). PostgreSQL is backed up with
// pgBackRest (deploy/pgbackrest/, docs/operations.md). Either way the server secret is not in
// the backup, and the command says so: without it the copy's bank account numbers and API keys
// are lost.
import { parseArgs } from 'node:util';
import type { Config } from '../config.ts';
import { AppError } from '../errors.ts';

/** What a finished copy reports: its size, how long it took, and rows of a few tables read back from it. */
export interface BackupReport {
  pages: number;
  bytes: number;
  ms: number;
  counts: Record<string, number>;
}

/** Copies the SQLite database at `source` to the new file `out`. */
export type BackupSqlite = (source: string, out: string) => Promise<BackupReport>;

export const BACKUP_USAGE = `  backup --out FILE                       SQLite: an online, consistent copy of the database while
                                          servers write (restore: docs/operations.md);
                                          PostgreSQL: use pgBackRest (deploy/pgbackrest)`;

function usage(message: string): AppError {
  return new AppError('bad_request', `${message}\n\nUsage:\n${BACKUP_USAGE}`);
}

function secretLine(config: Config): string {
  if (config.keySigningSecret !== '')
    return 'The server secret (KEY_SIGNING_SECRET) is not in the backup. Keep it in your secret store: without it, restored bank account numbers cannot be read and every API key is refused.';
  return `The server secret is not in the backup: it is the file ${config.secretFile}. Keep a copy of that file in your secret store, apart from this backup: without it, restored bank account numbers cannot be read and every API key is refused.`;
}

export async function backupCommand(config: Config, rest: string[], backupSqlite: BackupSqlite): Promise<number> {
  let out: string | undefined;
  try {
    out = parseArgs({ args: rest, options: { out: { type: 'string' } } }).values.out;
  } catch (error) {
    throw usage(error instanceof Error ? error.message : String(error));
  }
  if (out === undefined || out === '') throw usage('--out is required');
  if (config.database.kind !== 'sqlite' || config.database.url === ':memory:')
    throw usage(
      'this command backs up a SQLite database; back PostgreSQL up with pgBackRest (full backup and WAL archive: deploy/pgbackrest/pgbackrest.conf, docs/operations.md)',
    );
  let backup: BackupReport;
  try {
    backup = await backupSqlite(config.database.url, out);
  } catch (error) {
    throw new AppError('bad_request', `backup failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  const counts = Object.entries(backup.counts)
    .map(([table, n]) => `${n} ${table}`)
    .join(', ');
  process.stdout.write(
    `backed up ${config.database.url} to ${out}: ${backup.pages} pages (${(backup.bytes / 1_048_576).toFixed(1)} MiB) in ${backup.ms} ms; the copy passes quick_check and holds ${counts}\n`,
  );
  process.stderr.write(`${secretLine(config)}\n`);
  return 0;
}
