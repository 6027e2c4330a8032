// The two ways the text part of a search is counted on SQLite (check-search.ts): each match's
// owner tested in `checks`, or every match in the index minus the other owners'. They must agree
// exactly, for every owner, whichever owner holds most of the checks.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import { countMatches } from '../../src/store/check-search.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';

const NEVER = { otherChecks: -1, accounts: -1 };
const ALWAYS = { otherChecks: Number.MAX_SAFE_INTEGER, accounts: Number.MAX_SAFE_INTEGER };
const TERMS = ['services', 'SERVICES', 'inv-001', 'brûlée', '100%', 'e_c', 'nothing like it', 'ser'];

describe('check search counts on SQLite: the whole-index plan agrees with the per-match plan', () => {
  let t: TestApp;
  const owners: Owner[] = [];

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const memos = ['Consulting services', 'Crème brûlée', '100% paid', 'snake_case', 'Rent'];
    const made: [string, 'test' | 'live', number][] = [
      ['plans-a@example.com', 'test', 120],
      ['plans-a@example.com', 'live', 45],
      ['plans-b@example.com', 'test', 60],
    ];
    for (const [email, env, n] of made) {
      const api = await t.client(email, { env });
      const basics = await seedBasics(api);
      const res = await api.post('/checks', {
        checks: Array.from({ length: n }, (_, i) => ({
          bankAccountId: basics.bankAccountId,
          payeeId: basics.payeeId,
          amount: '12.50',
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

  const expectAgreement = async () => {
    for (const owner of owners) {
      for (const term of TERMS) {
        const filter = { status: null, referenceId: null, term, termCents: null };
        const perMatch = await countMatches(t.database.db, owner, filter, NEVER);
        expect(await countMatches(t.database.db, owner, filter, ALWAYS), `${owner.env} ${term}`).toBe(perMatch);
        // Counted apart from the search code: the owner's checks whose text holds the term.
        const direct = await t.database.db.get<{ n: number }>(
          'SELECT COUNT(*) AS n FROM checks WHERE account_id = ? AND env = ? AND instr(search_text, ?) > 0',
          [owner.accountId, owner.env, term.toLowerCase()],
        );
        // The payee ("Acme Supplies") matches none of the terms, so the text alone decides.
        expect(perMatch, `${owner.env} ${term}`).toBe(Number(direct?.n));
      }
    }
  };

  it('for every owner and term, before and after the planner has statistics (ANALYZE)', async () => {
    await expectAgreement();
    await t.database.db.run('ANALYZE');
    await expectAgreement();
    // Non-trivial: the broad term matches a fifth of each owner's checks.
    expect(
      await countMatches(t.database.db, owners[0] as Owner, {
        status: null,
        referenceId: null,
        term: 'services',
        termCents: null,
      }),
    ).toBe(24);
  });
});
