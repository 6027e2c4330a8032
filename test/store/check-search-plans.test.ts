// The ways a search is counted (check-search.ts) against the rule itself, counted here in plain
// SQL: on SQLite the text part in the owner's range of the FTS5 index (migration 017), kept by
// triggers through inserts, edits and deletes, and built from 011's index's database on upgrade; on both
// databases the amount part as a difference of counts. They must agree exactly, for every owner.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import { allMatchIds, countMatches } from '../../src/store/check-search.ts';
import { deleteCheck } from '../../src/store/checks.repository.ts';
import { data as checkSearch011 } from '../../src/store/migrations/011-check-search.ts';
import { data as searchByOwner } from '../../src/store/migrations/017-search-by-owner.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

// [term, the term read as an amount in cents (as the list service reads it), or null]
const TERMS: [string, number | null][] = [
  ['services', null],
  ['SERVICES', null],
  ['inv-001', null],
  ['brûlée', null],
  ['100%', null],
  ['e_c', null],
  ['nothing like it', null],
  ['ser', null],
  ['12.50', 1250],
  ['bistro', null],
  ['overhaul', null],
];

describe.each(dialects())('check search counts (%s): every plan agrees with the rule', (dialect) => {
  let t: TestApp;
  const owners: Owner[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    // Amount 12.50 on half the checks, "12.50" in one memo of five, a payee named with it on a
    // third: the three parts of the term "12.50" overlap every way.
    const memos = ['Consulting services', 'Crème brûlée', '100% paid', 'snake_case', 'Paid 12.50 cash'];
    const made: [string, 'test' | 'live', number][] = [
      ['plans-a@example.com', 'test', 120],
      ['plans-a@example.com', 'live', 45],
      ['plans-b@example.com', 'test', 60],
    ];
    for (const [email, env, n] of made) {
      const api = await t.client(email, { env });
      const basics = await seedBasics(api);
      const bistro = await api.post('/payees', { payees: [{ name: 'Bistro 12.50' }] });
      const bistroId = bistro.body.data.payees[0].payeeId as string;
      const res = await api.post('/checks', {
        checks: Array.from({ length: n }, (_, i) => ({
          bankAccountId: basics.bankAccountId,
          payeeId: i % 3 === 0 ? bistroId : basics.payeeId,
          amount: i % 2 === 0 ? '12.50' : '7.00',
          memo: memos[i % memos.length],
          invoiceNumber: `INV-${String(i).padStart(4, '0')}`,
        })),
      });
      expect(res.status, res.raw.slice(0, 300)).toBe(201);
      const account = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]);
      owners.push({ accountId: account?.id ?? '', env });
    }
    // An owner that never had a check (no number in search_owners on SQLite) finds nothing.
    owners.push({ accountId: 'never-had-a-check', env: 'test' });
  }, 60_000);
  afterAll(() => t.close());

  const find = dialect === 'sqlite' ? 'instr' : 'strpos';
  const expectAgreement = async () => {
    for (const owner of owners) {
      for (const [term, termCents] of TERMS) {
        const filter = { status: null, referenceId: null, term, termCents };
        // Counted apart from the search code, by the rule itself: the text holds the term, or the
        // payee's name does, or the amount is the term's.
        const direct = await t.database.db.all<{ id: string }>(
          `SELECT c.id FROM checks c LEFT JOIN payees p ON p.id = c.payee_id
           WHERE c.account_id = ? AND c.env = ?
             AND (${find}(c.search_text, ?) > 0 OR ${find}(lower(p.name), ?) > 0 OR c.amount_cents = ?)`,
          [owner.accountId, owner.env, term.toLowerCase(), term.toLowerCase(), termCents ?? -1],
        );
        expect(await countMatches(t.database.db, owner, filter), `${owner.env} ${term}`).toBe(direct.length);
        const found = await allMatchIds(t.database.db, owner, filter);
        expect([...found].sort(), `${owner.env} ${term}`).toEqual(direct.map((r) => r.id).sort());
      }
    }
  };

  it('for every owner and term, before and after the planner has statistics (ANALYZE)', async () => {
    await expectAgreement();
    await t.database.db.run('ANALYZE');
    await expectAgreement();
    // Non-trivial: of the first owner's 120 checks "services" matches a fifth; "12.50" the 60 of
    // that amount, the 40 of that payee and the 24 with it in the memo, overlapping: 60 + 40 + 24
    // - 20 (amount and payee) - 12 (amount and memo) - 8 (payee and memo) + 4 (all three).
    const count = (term: string, termCents: number | null) =>
      countMatches(t.database.db, owners[0] as Owner, { status: null, referenceId: null, term, termCents });
    expect(await count('services', null)).toBe(24);
    expect(await count('12.50', 1250)).toBe(88);
  });

  it('after checks are edited and deleted (the triggers keep the index)', async () => {
    const db = t.database.db;
    for (const owner of owners) {
      const ids = await db.all<{ id: string; status: number }>(
        'SELECT id, status FROM checks WHERE account_id = ? AND env = ? ORDER BY id',
        [owner.accountId, owner.env],
      );
      // A tenth of each owner's checks deleted, and every other remaining "services" text
      // rewritten (services gone, a new word in), as the panel's edit and delete of a new check do.
      for (const row of ids.filter((_, i) => i % 10 === 0)) await deleteCheck(db, owner, row.id, Number(row.status));
      const services = await db.all<{ id: string }>(
        `SELECT id FROM checks WHERE account_id = ? AND env = ? AND search_text LIKE '%services%' ORDER BY id`,
        [owner.accountId, owner.env],
      );
      for (const row of services.filter((_, i) => i % 2 === 0))
        await db.run("UPDATE checks SET search_text = replace(search_text, 'services', 'overhaul') WHERE id = ?", [
          row.id,
        ]);
    }
    await expectAgreement();
    // Not vacuous: the rewritten text is found by its new word, and some of it was "services".
    const owner = owners[0] as Owner;
    const rewritten = await db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM checks WHERE account_id = ? AND env = ? AND search_text LIKE '%overhaul%'`,
      [owner.accountId, owner.env],
    );
    expect(Number(rewritten?.n)).toBeGreaterThan(0);
    expect(await countMatches(db, owner, { status: null, referenceId: null, term: 'overhaul', termCents: null })).toBe(
      Number(rewritten?.n),
    );
  });

  it.runIf(dialect === 'sqlite')(
    "after an upgrade from migration 011's index, as a database at 016 holds it",
    async () => {
      const db = t.database.db;
      await db.transaction(async (tx) => {
        // Back to 016's state: 011's triggers and its external-content index, no owner numbers;
        // then 017 as the upgrade runs it.
        for (const trigger of [
          'check_search_insert',
          'check_search_update',
          'check_search_delete',
          'check_changes_update',
          'check_changes_payee_update',
          'check_changes_payee_delete',
        ])
          await tx.run(`DROP TRIGGER ${trigger}`);
        await tx.run('DROP TABLE check_search');
        await tx.run('DROP TABLE search_owners');
        await checkSearch011(tx);
        await searchByOwner(tx);
      });
      const numbered = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM search_owners');
      expect(Number(numbered?.n)).toBe(owners.length - 1);
      await expectAgreement();
    },
  );
});
