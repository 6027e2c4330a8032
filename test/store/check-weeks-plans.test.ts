// The home page's weeks (store/checks/weeks.repository.ts) are read on a range of an index of each
// bank account, never by walking the table or another account's rows: the plans of the very
// statements the repository sends, asked of each database with EXPLAIN. On PostgreSQL the tiny test
// table would be read whole whatever the indexes, so sequential scans are ruled out for the question.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clearedByWeek, writtenByWeek } from '../../src/store/checks/weeks.repository.ts';
import type { Queryable, SqlValue } from '../../src/store/db.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

describe.each(dialects())('checks per week, on index ranges (%s)', (dialect) => {
  let t: TestApp;
  let bankAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    bankAccountId = (await seedBasics(await t.client('weeks@plans.test'))).bankAccountId;
  });
  afterAll(() => t.close());

  /** The plan of each statement `read` sends, as text, instead of its rows. */
  async function plansOf(read: (q: Queryable) => Promise<unknown>): Promise<string[]> {
    const db = t.database.db;
    const plans: string[] = [];
    return db.transaction(async (tx) => {
      if (dialect === 'postgres') await tx.run('SET LOCAL enable_seqscan = off');
      const explaining: Queryable = {
        dialect: tx.dialect,
        all: async <T>(sql: string, params?: readonly SqlValue[]) => {
          const rows = await tx.all<Record<string, unknown>>(
            `${dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN' : 'EXPLAIN'} ${sql}`,
            params,
          );
          plans.push(rows.map((r) => String(r.detail ?? r['QUERY PLAN'])).join('\n'));
          return [] as T[];
        },
        get: () => Promise.reject(new Error('not expected')),
        run: () => Promise.reject(new Error('not expected')),
      };
      await read(explaining);
      return plans;
    });
  }

  it('counts the checks written on checks_register and the cleared ones on checks_cleared', async () => {
    const ids = [bankAccountId, 'bank_another'];
    const [written] = await plansOf((q) => writtenByWeek(q, ids, '2026-09-07', '2026-11-29'));
    const [cleared] = await plansOf((q) => clearedByWeek(q, ids, '2026-09-07', '2026-11-29'));
    if (dialect === 'sqlite') {
      expect(written).toContain(
        'SEARCH checks USING COVERING INDEX checks_register (bank_account_id=? AND issue_date>? AND issue_date<?)',
      );
      expect(cleared).toContain(
        'SEARCH checks USING COVERING INDEX checks_cleared (bank_account_id=? AND cleared_date>? AND cleared_date<?)',
      );
    } else {
      expect(written).toMatch(
        /Index Only Scan using checks_register on checks[\s\S]*bank_account_id = ANY[\s\S]*issue_date >= [\s\S]*issue_date <= /,
      );
      expect(cleared).toMatch(
        /Index Only Scan using checks_cleared on checks[\s\S]*bank_account_id = ANY[\s\S]*cleared_date >= [\s\S]*cleared_date <= /,
      );
    }
    for (const plan of [written, cleared]) expect(plan).not.toMatch(/\bSCAN checks\b|Seq Scan/);
  });

  it('asks nothing for an owner without bank accounts', async () => {
    expect(await plansOf((q) => writtenByWeek(q, [], '2026-09-07', '2026-11-29'))).toEqual([]);
    expect(await plansOf((q) => clearedByWeek(q, [], '2026-09-07', '2026-11-29'))).toEqual([]);
  });
});
