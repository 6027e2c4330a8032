import type { Db, Queryable } from './db.ts';
import { columnTypes, lockForMigrations } from './dialect.ts';
import * as initial from './migrations/001-initial.ts';
import * as printing from './migrations/002-printing.ts';
import * as delivery from './migrations/003-delivery.ts';
import * as lifecycle from './migrations/004-lifecycle.ts';
import * as listCounts from './migrations/005-list-counts.ts';
import * as panel from './migrations/006-panel.ts';
import * as printOffsets from './migrations/008-print-offsets.ts';
import * as hostedFields from './migrations/010-hosted-fields.ts';

interface Migration {
  id: number;
  name: string;
  up: typeof initial.up;
}

/** Every migration, in order. Add new ones at the end; never change a shipped one. */
const MIGRATIONS: readonly Migration[] = [initial, printing, delivery, lifecycle, listCounts, panel, printOffsets, hostedFields];

/**
 * Applies the missing migrations in one transaction. On PostgreSQL an advisory lock makes a second
 * instance starting at the same moment wait and then find nothing left to do; on SQLite the
 * transaction's write lock does the same.
 */
export async function migrate(db: Db): Promise<number[]> {
  return db.transaction(async (tx: Queryable) => {
    await lockForMigrations(tx);
    await tx.run(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at BIGINT NOT NULL
    )`);
    const applied = new Set((await tx.all<{ id: number }>('SELECT id FROM schema_migrations')).map((row) => Number(row.id)));
    const done: number[] = [];
    for (const migration of MIGRATIONS) {
      if (applied.has(migration.id)) continue;
      for (const statement of migration.up(columnTypes(tx.dialect))) await tx.run(statement);
      await tx.run('INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)', [migration.id, migration.name, Date.now()]);
      done.push(migration.id);
    }
    return done;
  });
}
