// The ways a search is counted (check-search.ts) against the rule itself, counted here in plain
// SQL: on SQLite the text part by testing each match's owner in `checks` or as every match in the
// index less the other owners'; on both databases the amount part as a difference of counts. They
// must agree exactly, for every owner, whichever owner holds most of the checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import { countMatches } from '../../src/store/check-search.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const NEVER = { otherChecks: -1, accounts: -1 };
const ALWAYS = { otherChecks: Number.MAX_SAFE_INTEGER, accounts: Number.MAX_SAFE_INTEGER };
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
  }, 60_000);
  afterAll(() => t.close());

  const find = dialect === 'sqlite' ? 'instr' : 'strpos';
  const expectAgreement = async () => {
    for (const owner of owners) {
      for (const [term, termCents] of TERMS) {
        const filter = { status: null, referenceId: null, term, termCents };
        const perMatch = await countMatches(t.database.db, owner, filter, NEVER);
        expect(await countMatches(t.database.db, owner, filter, ALWAYS), `${owner.env} ${term}`).toBe(perMatch);
        // Counted apart from the search code, by the rule itself: the text holds the term, or the
        // payee's name does, or the amount is the term's.
        const direct = await t.database.db.get<{ n: number }>(
          `SELECT COUNT(*) AS n FROM checks c LEFT JOIN payees p ON p.id = c.payee_id
           WHERE c.account_id = ? AND c.env = ?
             AND (${find}(c.search_text, ?) > 0 OR ${find}(lower(p.name), ?) > 0 OR c.amount_cents = ?)`,
          [owner.accountId, owner.env, term.toLowerCase(), term.toLowerCase(), termCents ?? -1],
        );
        expect(perMatch, `${owner.env} ${term}`).toBe(Number(direct?.n));
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
});
