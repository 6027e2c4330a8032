// Lookups by key (ids, a bank account's serial numbers) use the key's index on SQLite, not the
// owner's: without statistics SQLite's planner took `account_id = ? AND env = ?` for selective and
// walked every row an account has for each batch of ids (600 ms for 50 checks of a 100,000-check
// account, found by the register benchmark). Each repository function runs against a real SQLite
// database through a Queryable that records its SQL, and SQLite itself says how it would run each
// statement (EXPLAIN QUERY PLAN): by the primary key or the unique serial index, never by an
// owner index. PostgreSQL plans from its own statistics and is not asked.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import type { Queryable, SqlValue } from '../../src/store/db.ts';
import { bankAccountNames } from '../../src/store/bank-accounts.repository.ts';
import { findChecks } from '../../src/store/checks/checks.repository.ts';
import { existingIds } from '../../src/store/owned-queries.ts';
import { findPayees } from '../../src/store/payees.repository.ts';
import { checksBySerial } from '../../src/store/check-register.repository.ts';
import { freshDatabase, type TestDatabase } from '../support/databases.ts';

let t: TestDatabase;
beforeAll(async () => {
  t = await freshDatabase('sqlite');
});
afterAll(async () => {
  await t?.drop();
});

const OWNER: Owner = { accountId: 'acc_planner', env: 'test' };
const IDS = Array.from({ length: 50 }, (_, i) => `id_${i}`);

/** Runs `call` and answers SQLite's plan of every statement it ran. */
async function plansOf(call: (q: Queryable) => Promise<unknown>): Promise<{ sql: string; plan: string }[]> {
  const seen: { sql: string; params: readonly SqlValue[] }[] = [];
  const recording: Queryable = {
    dialect: t.db.dialect,
    all: (sql, params = []) => {
      seen.push({ sql, params });
      return t.db.all(sql, params);
    },
    get: (sql, params = []) => {
      seen.push({ sql, params });
      return t.db.get(sql, params);
    },
    run: (sql, params = []) => {
      seen.push({ sql, params });
      return t.db.run(sql, params);
    },
  };
  await call(recording);
  const plans: { sql: string; plan: string }[] = [];
  for (const s of seen) {
    const rows = await t.db.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${s.sql}`, s.params);
    plans.push({ sql: s.sql, plan: rows.map((r) => r.detail).join(' | ') });
  }
  return plans;
}

const OWNER_INDEX = /\((account_id=\? AND env=\?|account_id=\?)\)/;

it.each([
  [
    'findChecks',
    (q: Queryable) => findChecks(q, OWNER, IDS),
    /SEARCH c USING INDEX sqlite_autoindex_checks_1 \(id=\?\)/,
  ],
  ['findPayees', (q: Queryable) => findPayees(q, OWNER, IDS), /USING INDEX sqlite_autoindex_payees_1 \(id=\?\)/],
  [
    'bankAccountNames',
    (q: Queryable) => bankAccountNames(q, OWNER, IDS),
    /USING (COVERING )?INDEX sqlite_autoindex_bank_accounts_1 \(id=\?\)/,
  ],
  [
    'existingIds(categories)',
    (q: Queryable) => existingIds(q, OWNER, 'categories', IDS),
    /USING (COVERING )?INDEX sqlite_autoindex_categories_1 \(id=\?\)/,
  ],
  [
    'checksBySerial',
    (q: Queryable) =>
      checksBySerial(
        q,
        OWNER,
        'bank_planner',
        IDS.map((_, i) => String(1000 + i)),
      ),
    /\(bank_account_id=\? AND serial_number=\?\)/,
  ],
] as const)('%s looks its keys up by their index, not through the owner index', async (_name, call, keyed) => {
  const plans = await plansOf(call);
  expect(plans.length).toBeGreaterThan(0);
  const first = plans[0];
  expect(first?.plan, first?.sql).toMatch(keyed);
  for (const p of plans) expect(p.plan, p.sql).not.toMatch(OWNER_INDEX);
});
