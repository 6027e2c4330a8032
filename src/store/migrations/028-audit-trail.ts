// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 28;
export const name = 'audit-trail';

/**
 * The audit trail (docs/audit.md): one append-only row per event, chained per company.
 * - `audit_events`: `seq` counts a company's events from 1; `hash` is SHA-256 over the record's
 *   canonical form including `prev_hash` (the previous record's hash), so a record changed or
 *   removed by hand breaks the chain from there on. No foreign key to `accounts`: the trail is
 *   kept even when what it names is gone.
 * - `audit_heads`: one row per company with its last `seq` and `hash`, locked by every append
 *   (FOR UPDATE on PostgreSQL; SQLite has one writer), so two writers never both extend the same
 *   record and the chain never forks.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE audit_events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      seq BIGINT NOT NULL,
      at BIGINT NOT NULL,
      env TEXT NOT NULL,
      actor_kind TEXT NOT NULL,
      actor_id TEXT NOT NULL,
      actor_label TEXT NOT NULL,
      role TEXT NOT NULL,
      ip TEXT NOT NULL,
      user_agent TEXT NOT NULL,
      request_id TEXT NOT NULL,
      action TEXT NOT NULL,
      object_type TEXT NOT NULL,
      object_id TEXT NOT NULL,
      changes TEXT NOT NULL,
      prev_hash TEXT NOT NULL,
      hash TEXT NOT NULL,
      UNIQUE (account_id, seq)
    )`,
    'CREATE INDEX audit_events_at ON audit_events (account_id, at)',
    'CREATE INDEX audit_events_object ON audit_events (account_id, object_type, object_id, seq)',
    `CREATE TABLE audit_heads (
      account_id TEXT PRIMARY KEY,
      seq BIGINT NOT NULL,
      hash TEXT NOT NULL
    )`,
  ];
}
