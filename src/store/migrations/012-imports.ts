// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 12;
export const name = 'imports';

/**
 * CSV imports of payees and checks. A row holds what was acknowledged — the rows
 * already turned into the API's create requests (`input`, JSON) — so an import that a stopped
 * process did not finish is run again, whole, when a server starts (services/import.service.ts).
 * `state`: draft (a panel upload waiting for its preview to be confirmed), queued, running,
 * succeeded, failed. `errors` and `result` are JSON.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE imports (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      kind TEXT NOT NULL,
      state TEXT NOT NULL,
      file_name TEXT NOT NULL,
      rows_total INTEGER NOT NULL,
      rows_done INTEGER NOT NULL,
      input TEXT NOT NULL,
      errors TEXT NOT NULL,
      result TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      created_at BIGINT NOT NULL,
      started_at BIGINT,
      finished_at BIGINT
    )`,
    'CREATE INDEX imports_owner ON imports (account_id, env, created_at)',
    'CREATE INDEX imports_state ON imports (state, created_at)',
  ];
}
