// The ways a search is counted (store/checks/search.ts) against the rule itself, counted here in plain
// SQL: on SQLite the text part in the owner's range of the FTS5 index (migration 017), kept by
// triggers through inserts, edits and deletes, and built from 011's index's database on upgrade; the
// amount part from the owner's range of the FTS5 amount table (migration 035, kept by the same
// triggers); on both databases the amount part as a difference of counts. They must agree exactly,
// for every owner.
// On PostgreSQL the trigram index holds the owner too (migration 019, btree_gin): its bitmap is the
// owner's candidates alone, which the plan shape below pins. A term matching a good share of the
// owner's checks is counted over the owner's narrow texts instead (migration 022, check_texts,
// hash-partitioned by owner and kept by triggers): the mirror and the one-partition plan are pinned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import { allMatchIds, countMatches, textCountFromTexts } from '../../src/store/checks/search.ts';
import { deleteCheck } from '../../src/store/checks/checks.repository.ts';
import { data as checkSearch011 } from '../../src/store/migrations/011-check-search.ts';
import { data as searchByOwner } from '../../src/store/migrations/017-search-by-owner.ts';
import { data as searchIndexByOwner } from '../../src/store/migrations/019-search-index-by-owner.ts';
import { data as searchTextsByOwner } from '../../src/store/migrations/022-search-texts-by-owner.ts';
import { data as amountsByOwner } from '../../src/store/migrations/035-amounts-by-owner.ts';
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
  ['consulting', null],
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

  /** PostgreSQL: check_texts holds exactly every check's owner number, id and text (migration 022). */
  const expectMirror = async () => {
    if (dialect !== 'postgres') return;
    const db = t.database.db;
    const fromChecks = await db.all<{ row: string }>(
      `SELECT o.owner_no || ' ' || c.id || ' ' || c.search_text AS row
       FROM checks c JOIN search_owners o ON o.account_id = c.account_id AND o.env = c.env ORDER BY 1`,
    );
    const mirrored = await db.all<{ row: string }>(
      `SELECT owner_no || ' ' || check_id || ' ' || search_text AS row FROM check_texts ORDER BY 1`,
    );
    expect(fromChecks.length).toBeGreaterThan(0);
    expect(mirrored.map((r) => r.row)).toEqual(fromChecks.map((r) => r.row));
    const unnumbered = await db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM checks c
       WHERE NOT EXISTS (SELECT 1 FROM search_owners o WHERE o.account_id = c.account_id AND o.env = c.env)`,
    );
    expect(Number(unnumbered?.n)).toBe(0);
  };

  it('for every owner and term, before and after the planner has statistics (ANALYZE)', async () => {
    await expectMirror();
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
      // Amounts edited every way: 12.50 to 7.00 and back, and to and from no amount at all.
      const left = ids.filter((_, i) => i % 10 !== 0);
      for (const [i, row] of left.entries()) {
        if (i % 7 === 0)
          await db.run(
            'UPDATE checks SET amount_cents = CASE WHEN amount_cents = 1250 THEN 700 ELSE 1250 END WHERE id = ?',
            [row.id],
          );
        if (i % 11 === 1) await db.run('UPDATE checks SET amount_cents = NULL WHERE id = ?', [row.id]);
        if (i % 11 === 2) {
          await db.run('UPDATE checks SET amount_cents = NULL WHERE id = ?', [row.id]);
          await db.run('UPDATE checks SET amount_cents = 1250 WHERE id = ?', [row.id]);
        }
      }
    }
    await expectAgreement();
    await expectMirror();
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
    // Not vacuous either: some amounts are gone, and the amount's count moved from 88.
    const noAmount = await db.get<{ n: number }>(
      'SELECT COUNT(*) AS n FROM checks WHERE account_id = ? AND env = ? AND amount_cents IS NULL',
      [owner.accountId, owner.env],
    );
    expect(Number(noAmount?.n)).toBeGreaterThan(0);
    expect(await countMatches(db, owner, { status: null, referenceId: null, term: '12.50', termCents: 1250 })).not.toBe(
      88,
    );
  });

  it.runIf(dialect === 'sqlite')(
    "after an upgrade from migration 011's index, as a database at 016 holds it",
    async () => {
      const db = t.database.db;
      await db.transaction(async (tx) => {
        // Back to 016's state: 011's triggers and its external-content index, no owner numbers,
        // no amount table (035); then 017 and 035 as the upgrade runs them.
        for (const trigger of [
          'check_search_insert',
          'check_search_update',
          'check_search_delete',
          'check_amounts_update',
          'check_changes_update',
          'check_changes_payee_update',
          'check_changes_payee_delete',
        ])
          await tx.run(`DROP TRIGGER ${trigger}`);
        await tx.run('DROP TABLE check_search');
        await tx.run('DROP TABLE check_amounts');
        await tx.run('DROP TABLE search_owners');
        await tx.run('CREATE INDEX checks_amount ON checks (account_id, env, amount_cents)');
        await checkSearch011(tx);
        await searchByOwner(tx);
        await amountsByOwner(tx);
      });
      const numbered = await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM search_owners');
      expect(Number(numbered?.n)).toBe(owners.length - 1);
      await expectAgreement();
    },
  );

  /**
   * The plan of the text part's count, as store/checks/search.ts sends it, in PostgreSQL's JSON form, with
   * the planner left only the trigram index (in a transaction rolled back). At this size the owner's
   * btree indexes or a scan look cheaper; for a large owner the GIN index wins (docs/benchmarks.md,
   * the EXPLAIN at 1M) and what matters is then what its bitmap holds: the owner's candidates
   * alone when the owner is part of the index condition, every owner's with a filter after
   * (migration 011's index).
   */
  const textCountPlan = async (needle: string): Promise<PlanNode[]> => {
    const owner = owners[0] as Owner;
    const plan = await t.database.db
      .transaction(async (tx) => {
        const others = await tx.all<{ name: string; constraint_name: string | null }>(
          `SELECT i.relname AS name, k.conname AS constraint_name
           FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
           LEFT JOIN pg_constraint k ON k.conindid = x.indexrelid AND k.conrelid = x.indrelid
           WHERE x.indrelid = 'checks'::regclass AND NOT x.indisprimary AND i.relname NOT LIKE 'checks_search%'`,
        );
        for (const index of others)
          await tx.run(
            index.constraint_name === null
              ? `DROP INDEX ${index.name}`
              : `ALTER TABLE checks DROP CONSTRAINT ${index.constraint_name}`,
          );
        await tx.run('SET LOCAL enable_seqscan = off');
        const row = await tx.get<{ 'QUERY PLAN': unknown }>(
          `EXPLAIN (FORMAT JSON) SELECT COUNT(*) FROM checks c
         WHERE c.account_id = ? AND c.env = ? AND c.search_text LIKE ? ESCAPE '\\'`,
          [owner.accountId, owner.env, `%${needle}%`],
        );
        const plan = row?.['QUERY PLAN'];
        const top = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
        throw new PlanRead(nodesOf(top[0]?.Plan));
      })
      .catch((error: unknown) => {
        if (error instanceof PlanRead) return error.nodes;
        throw error;
      });
    return plan;
  };

  it.runIf(dialect === 'postgres')(
    "reads the owner's candidates alone: owner and trigrams are one GIN index condition (migration 019)",
    async () => {
      const nodes = await textCountPlan('services');
      const scans = nodes.filter((n) => n['Node Type'] === 'Bitmap Index Scan');
      // One bitmap, from the index keyed by owner, its condition naming the owner and the term:
      // no BitmapAnd with the owner's btree, and no owner filter left to apply on the heap.
      expect(
        scans.map((n) => n['Index Name']),
        JSON.stringify(nodes),
      ).toEqual(['checks_search_by_owner']);
      const cond = scans[0]?.['Index Cond'] ?? '';
      expect(cond).toContain('account_id =');
      expect(cond).toContain('env =');
      expect(cond).toContain('search_text ~~');
      const heap = nodes.find((n) => n['Node Type'] === 'Bitmap Heap Scan');
      expect(heap?.Filter, 'no filter on the heap: the index kept only the owner').toBeUndefined();
      // 011's index, which held every owner's trigrams, is gone.
      const old = await t.database.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'checks_search'`,
      );
      expect(Number(old?.n)).toBe(0);
    },
  );

  it.runIf(dialect === 'postgres')(
    "a broad term is counted over the owner's texts in one partition; a narrow one on the index (migration 022)",
    async () => {
      const db = t.database.db;
      const owner = owners[0] as Owner;
      const filter = (term: string) => ({ status: null, referenceId: null, term, termCents: null });
      // "consulting" is in a fifth of the owner's memos (edits kept the word); "inv-0042" in one
      // check's invoice number.
      const broad = await textCountFromTexts(db, owner, filter('consulting'));
      expect(broad).not.toBeNull();
      expect(await textCountFromTexts(db, owner, filter('inv-0042'))).toBeNull();
      expect(await textCountFromTexts(db, owner, { ...filter('consulting'), status: 0 })).toBeNull();
      const row = await db.get<{ 'QUERY PLAN': unknown }>(`EXPLAIN (FORMAT JSON) SELECT ${broad?.text}`, broad?.params);
      const plan = row?.['QUERY PLAN'];
      const top = (typeof plan === 'string' ? JSON.parse(plan) : plan) as { Plan: PlanNode }[];
      const scanned = nodesOf(top[0]?.Plan)
        .map((n) => n['Relation Name'])
        .filter((name): name is string => name !== undefined);
      // Pruned to the owner's partition: one of check_texts' 32, never checks.
      expect(scanned).toHaveLength(1);
      expect(scanned[0]).toMatch(/^check_texts_\d+$/);
    },
  );

  it.runIf(dialect === 'postgres')('after an upgrade to migration 022, as a database at 021 holds it', async () => {
    const db = t.database.db;
    await db.transaction(async (tx) => {
      for (const trigger of ['checks_texts_insert', 'checks_texts_update', 'checks_texts_delete'])
        await tx.run(`DROP TRIGGER ${trigger} ON checks`);
      for (const fn of ['check_texts_added', 'check_texts_changed', 'check_texts_removed'])
        await tx.run(`DROP FUNCTION ${fn}()`);
      await tx.run('DROP TABLE check_texts');
      await tx.run('DROP TABLE search_owners');
    });
    await db.transaction((tx) => searchTextsByOwner(tx));
    await expectMirror();
    await expectAgreement();
  });

  it.runIf(dialect === 'postgres')(
    "after an upgrade from migration 011's index, as a database at 018 holds it",
    async () => {
      const db = t.database.db;
      await db.transaction(async (tx) => {
        // Back to the state before 019: 011's trigram index alone.
        await tx.run('DROP INDEX checks_search_by_owner');
        await tx.run('CREATE INDEX checks_search ON checks USING gin (search_text public.gin_trgm_ops)');
      });
      // The shape this migration removes: every owner's candidates, the owner a filter on the heap.
      const before = await textCountPlan('overhaul');
      expect(before.filter((n) => n['Node Type'] === 'Bitmap Index Scan').map((n) => n['Index Name'])).toEqual([
        'checks_search',
      ]);
      expect(before.find((n) => n['Node Type'] === 'Bitmap Heap Scan')?.Filter).toContain('account_id');
      // Then 019 as the upgrade runs it.
      await db.transaction((tx) => searchIndexByOwner(tx));
      const indexes = await db.all<{ indexname: string }>(
        `SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND indexname LIKE 'checks_search%'`,
      );
      expect(indexes.map((r) => r.indexname)).toEqual(['checks_search_by_owner']);
      await expectAgreement();
      const nodes = await textCountPlan('overhaul');
      expect(nodes.filter((n) => n['Node Type'] === 'Bitmap Index Scan').map((n) => n['Index Name'])).toEqual([
        'checks_search_by_owner',
      ]);
    },
  );
});

/** Carries a plan out of the transaction that read it, which then rolls back (indexes dropped in it). */
class PlanRead extends Error {
  constructor(readonly nodes: PlanNode[]) {
    super('plan read');
  }
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  'Relation Name'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** Every node of a plan tree, depth first. */
function nodesOf(node: PlanNode | undefined): PlanNode[] {
  if (node === undefined) return [];
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}
