// Frozen in time: never edit a migration that has shipped; add a new file instead.
import type { ColumnTypes } from '../dialect.ts';

export const id = 31;
export const name = 'approvals';

/**
 * Approvals (docs/approvals.md), in tables of their own so a company without a policy reads and
 * writes exactly what it did before:
 * - `approval_policies`: a company's rule, and optionally a different one per bank account
 *   (`bank_account_id` '' is the company's own rule): checks at or above `threshold_cents` need
 *   `approvers` approvals (1 or 2). Who set it last, and when.
 * - `check_approval_rules`: the rule a check was written under (so a later policy change never
 *   moves it), who wrote it (the creator never approves their own), its state, how many approvals
 *   it holds, and a rejection. `version` grows with every edit that sends the check back to
 *   pending: an approval names the version it saw, so it never approves an amount it did not see.
 *   A check no policy covers has no row here.
 * - `check_approvals`: one row per person per check (the key makes a second approval by the same
 *   person impossible), with the version it approved.
 */
export function up(_t: ColumnTypes): string[] {
  return [
    `CREATE TABLE approval_policies (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      bank_account_id TEXT NOT NULL DEFAULT '',
      threshold_cents BIGINT NOT NULL,
      approvers INTEGER NOT NULL,
      created_by TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      changed_by TEXT NOT NULL,
      changed_at BIGINT NOT NULL,
      PRIMARY KEY (account_id, bank_account_id)
    )`,
    `CREATE TABLE check_approval_rules (
      check_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      env TEXT NOT NULL,
      required INTEGER NOT NULL,
      state TEXT NOT NULL,
      approved_count INTEGER NOT NULL DEFAULT 0,
      version INTEGER NOT NULL DEFAULT 1,
      created_by_kind TEXT NOT NULL,
      created_by_id TEXT NOT NULL,
      created_by_label TEXT NOT NULL,
      rejected_by TEXT,
      rejected_by_label TEXT,
      rejected_at BIGINT,
      reason TEXT,
      created_at BIGINT NOT NULL
    )`,
    'CREATE INDEX check_approval_rules_state ON check_approval_rules (account_id, env, state, created_at)',
    `CREATE TABLE check_approvals (
      check_id TEXT NOT NULL,
      person_id TEXT NOT NULL,
      person_label TEXT NOT NULL,
      version INTEGER NOT NULL,
      at BIGINT NOT NULL,
      PRIMARY KEY (check_id, person_id)
    )`,
  ];
}
