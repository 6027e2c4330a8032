import type { Db, Queryable } from './db.ts';
import { columnTypes, lockForMigrations, tableExists } from './dialect.ts';
import * as initial from './migrations/001-initial.ts';
import * as printing from './migrations/002-printing.ts';
import * as delivery from './migrations/003-delivery.ts';
import * as lifecycle from './migrations/004-lifecycle.ts';
import * as listCounts from './migrations/005-list-counts.ts';
import * as panel from './migrations/006-panel.ts';
import * as printOffsets from './migrations/008-print-offsets.ts';
import * as secretsOut from './migrations/009-secrets-out-of-database.ts';
import * as hostedFields from './migrations/010-hosted-fields.ts';
import * as checkSearch from './migrations/011-check-search.ts';
import * as imports from './migrations/012-imports.ts';
import * as positivePay from './migrations/013-positive-pay.ts';
import * as clearedChecks from './migrations/014-cleared-checks.ts';
import * as accountSettings from './migrations/015-account-settings.ts';
import * as dropPrefixIndex from './migrations/016-drop-prefix-index.ts';
import * as searchByOwner from './migrations/017-search-by-owner.ts';
import * as normalizeImages from './migrations/018-normalize-images.ts';
import * as searchIndexByOwner from './migrations/019-search-index-by-owner.ts';
import * as sharedLimits from './migrations/020-shared-limits.ts';
import * as fieldClients from './migrations/021-field-clients.ts';
import * as searchTextsByOwner from './migrations/022-search-texts-by-owner.ts';
import * as clearedByDay from './migrations/023-cleared-by-day.ts';
import * as mailingAddresses from './migrations/024-mailing-addresses.ts';
import * as sealedSandbox from './migrations/025-sealed-sandbox-messages.ts';
import * as people from './migrations/026-people.ts';
import * as peopleTokens from './migrations/027-people-tokens-and-key-authors.ts';
import * as auditTrail from './migrations/028-audit-trail.ts';
import * as secondFactors from './migrations/030-second-factors.ts';
import * as approvals from './migrations/031-approvals.ts';
import * as positivePayLayouts from './migrations/033-positive-pay-layouts.ts';
import * as amountsByOwner from './migrations/035-amounts-by-owner.ts';
import type { SecretSource } from './server-secret.ts';

interface Migration {
  id: number;
  name: string;
  up: typeof initial.up;
  /** A step in code after the statements, in the same transaction (it may need the server secret). */
  data?: (tx: Queryable, source: SecretSource | null) => Promise<void>;
}

/** Every migration, in order. Add new ones at the end; never change a shipped one. */
const MIGRATIONS: readonly Migration[] = [
  initial,
  printing,
  delivery,
  lifecycle,
  listCounts,
  panel,
  printOffsets,
  secretsOut,
  hostedFields,
  checkSearch,
  imports,
  positivePay,
  clearedChecks,
  accountSettings,
  dropPrefixIndex,
  searchByOwner,
  normalizeImages,
  searchIndexByOwner,
  sharedLimits,
  fieldClients,
  searchTextsByOwner,
  clearedByDay,
  mailingAddresses,
  sealedSandbox,
  people,
  peopleTokens,
  auditTrail,
  secondFactors,
  approvals,
  positivePayLayouts,
  amountsByOwner,
];

/**
 * Migrations after which the plain text they replaced must be wiped from free pages (VACUUM), with
 * the tables they rewrote (PostgreSQL vacuums those).
 */
const WIPE_AFTER = new Map<number, readonly string[]>([
  [secretsOut.id, ['bank_accounts', 'settings']],
  [sealedSandbox.id, ['sandbox_messages']],
]);

/** The ids of the migrations this database has, read without writing anything. */
async function appliedIds(q: Queryable): Promise<Set<number>> {
  if (!(await tableExists(q, 'schema_migrations'))) return new Set();
  return new Set((await q.all<{ id: number }>('SELECT id FROM schema_migrations')).map((row) => Number(row.id)));
}

export interface MigrateOptions {
  /** Stop after this migration: a database as an older release left it (upgrade tests). */
  readonly through?: number;
}

/**
 * Applies the missing migrations in one transaction. `source` says where the server secret lives
 * (config.ts); without it, a migration that needs the secret refuses to run on a database that
 * has data for it (a fresh database needs none).
 * With nothing to migrate, nothing is written: the list is read first, outside any transaction, so
 *a server routed to a read-only standby (as during a failover) starts and waits for a primary
 *instead of failing on a CREATE TABLE. When something is missing, the write transaction takes the
 *lock and reads the list again: on PostgreSQL an advisory lock makes a second instance starting at
 *the same moment wait and then find nothing left to do; on SQLite the transaction's write lock does
 *the same.
 */
export async function migrate(
  db: Db,
  source: SecretSource | null = null,
  options: MigrateOptions = {},
): Promise<number[]> {
  const wanted = MIGRATIONS.filter((migration) => migration.id <= (options.through ?? Number.POSITIVE_INFINITY));
  const present = await appliedIds(db);
  if (wanted.every((migration) => present.has(migration.id))) return [];
  const applied = await db.transaction(
    async (tx: Queryable) => {
      await lockForMigrations(tx);
      await tx.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
      const applied = await appliedIds(tx);
      const done: number[] = [];
      for (const migration of wanted) {
        if (applied.has(migration.id)) continue;
        for (const statement of migration.up(columnTypes(tx.dialect))) await tx.run(statement);
        if (migration.data !== undefined) await migration.data(tx, source);
        await tx.run('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)', [
          migration.id,
          migration.name,
          Date.now(),
        ]);
        done.push(migration.id);
      }
      return done;
    },
    // An index on a large table may take minutes to build: no statement timeout here.
    { unbounded: true },
  );
  // Rewriting a row leaves its old version in free pages (SQLite) or dead tuples (PostgreSQL)
  // until they are reused: VACUUM (outside any transaction) removes the plain text now.
  const rewritten = [...new Set(applied.flatMap((id) => WIPE_AFTER.get(id) ?? []))];
  if (rewritten.length > 0) {
    if (db.dialect === 'sqlite') {
      await db.run('VACUUM');
      // In WAL mode the rewritten pages sit in the -wal file until a checkpoint copies them over
      // the old ones: do it now and empty the WAL, so neither file keeps the plain text.
      await db.get('PRAGMA wal_checkpoint(TRUNCATE)');
    } else for (const table of rewritten) await db.run(`VACUUM FULL ${table}`);
  }
  return applied;
}
