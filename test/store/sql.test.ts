// store/sql.ts and the owner filter of store/owned-queries.ts: SQL text and its parameters built
// together. The filter's texts are compared with the strings repositories wrote by hand before
// it (written out here: same text, so the planner trick and the prepared-statement caches see
// what they saw before), and queries composed from them run on each database against rows of two
// owners.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Owner } from '../../src/domain/owner.ts';
import type { Dialect } from '../../src/store/db.ts';
import { owned } from '../../src/store/owned-queries.ts';
import { inList, joinSql, raw, Sql, sql } from '../../src/store/sql.ts';
import { columnList, defineTable, insertRows, insertStatement, rowValues } from '../../src/store/table.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

const OWNER: Owner = { accountId: 'acc_sql_one', env: 'test' };
const OTHER: Owner = { accountId: 'acc_sql_two', env: 'test' };

describe('owned', () => {
  // The unary plus of keyed rows is SQLite's alone: it makes the owner a test on each row found.
  const plus = (d: Dialect) => (d === 'sqlite' ? '+' : '');
  it.each<[string, Parameters<typeof owned>[1], (d: Dialect) => string]>([
    ['plain', {}, () => 'account_id = ? AND env = ?'],
    ['live', { live: true }, () => 'account_id = ? AND env = ? AND deleted_at IS NULL'],
    ['keyed', { keyed: 'sqlite' }, (d) => `${plus(d)}account_id = ? AND ${plus(d)}env = ?`],
    [
      'live and keyed',
      { live: true, keyed: 'sqlite' },
      (d) => `${plus(d)}account_id = ? AND ${plus(d)}env = ? AND deleted_at IS NULL`,
    ],
    [
      'keyed with an alias',
      { alias: 'c', keyed: 'sqlite' },
      (d) => `${plus(d)}c.account_id = ? AND ${plus(d)}c.env = ?`,
    ],
    [
      'live, keyed, alias',
      { alias: 'p', live: true, keyed: 'sqlite' },
      (d) => `${plus(d)}p.account_id = ? AND ${plus(d)}p.env = ? AND p.deleted_at IS NULL`,
    ],
  ])(
    '%s: the same text as the hand-kept form, on each dialect, with the owner as its parameters',
    (_, options, older) => {
      for (const dialect of ['sqlite', 'postgres'] as const) {
        const fragment = owned(OWNER, options?.keyed === undefined ? options : { ...options, keyed: dialect });
        expect(fragment.text).toBe(older(dialect));
        expect(fragment.params).toEqual([OWNER.accountId, OWNER.env]);
      }
    },
  );

  it('keeps the unary plus of keyed rows on SQLite only', () => {
    expect(owned(OWNER, { alias: 'c', keyed: 'sqlite' }).text).toBe('+c.account_id = ? AND +c.env = ?');
    expect(owned(OWNER, { alias: 'c', keyed: 'postgres' }).text).toBe('c.account_id = ? AND c.env = ?');
    expect(owned(OWNER, { alias: 'c' }).text).toBe('c.account_id = ? AND c.env = ?');
  });
});

describe('sql', () => {
  it('puts each value and each fragment parameter where its text is', () => {
    const s = sql`UPDATE t SET a = ${1} WHERE id = ${'x'} AND ${owned(OWNER, { live: true })} AND b < ${2}`;
    expect(s.text).toBe(
      'UPDATE t SET a = ? WHERE id = ? AND account_id = ? AND env = ? AND deleted_at IS NULL AND b < ?',
    );
    expect(s.params).toEqual([1, 'x', OWNER.accountId, OWNER.env, 2]);
  });

  it('splices raw text, IN lists and joined fragments with their parameters', () => {
    const sets = joinSql([new Sql('a = ?', [1]), new Sql('b = ?', [null])], ', ');
    const s = sql`UPDATE t SET ${sets} WHERE id IN ${inList(['x', 'y'])} AND kind = ${raw("'k'")}`;
    expect(s.text).toBe("UPDATE t SET a = ?, b = ? WHERE id IN (?, ?) AND kind = 'k'");
    expect(s.params).toEqual([1, null, 'x', 'y']);
  });

  it('gives one call site the text of what was spliced in each time, not the text of the call before', () => {
    const at = (ids: string[], owner: Owner, dialect: Dialect) =>
      sql`SELECT id FROM t WHERE id IN ${inList(ids)} AND ${owned(owner, { keyed: dialect })}`;
    const first = at(['a'], OWNER, 'sqlite');
    const again = at(['b'], OTHER, 'sqlite');
    const longer = at(['a', 'b', 'c'], OWNER, 'sqlite');
    const postgres = at(['a'], OWNER, 'postgres');
    expect(first.text).toBe('SELECT id FROM t WHERE id IN (?) AND +account_id = ? AND +env = ?');
    expect(again.text).toBe(first.text);
    expect(again.params).toEqual(['b', OTHER.accountId, OTHER.env]);
    expect(longer.text).toBe('SELECT id FROM t WHERE id IN (?, ?, ?) AND +account_id = ? AND +env = ?');
    expect(postgres.text).toBe('SELECT id FROM t WHERE id IN (?) AND account_id = ? AND env = ?');
    expect(at(['a'], OWNER, 'sqlite').text).toBe(first.text);
  });
});

interface ProbesRow {
  id: string;
  account_id: string;
  env: string;
  n: number;
  deleted_at: number | null;
}

const PROBES = defineTable<ProbesRow>()('sql_probes', ['id', 'account_id', 'env', 'n', 'deleted_at']);

// A row that misses a column does not compile (tsc runs over the tests too).
// @ts-expect-error: 'deleted_at' is missing
rowValues(PROBES, { id: 'x', account_id: 'a', env: 'test', n: 1 });

describe('table statements', () => {
  it('makes INSERTs and column lists from the one list', () => {
    expect(insertStatement(PROBES, { tail: ' ON CONFLICT DO NOTHING' })).toBe(
      'INSERT INTO sql_probes (id, account_id, env, n, deleted_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    expect(insertStatement(PROBES, { rows: 2 })).toBe(
      'INSERT INTO sql_probes (id, account_id, env, n, deleted_at) VALUES (?, ?, ?, ?, ?), (?, ?, ?, ?, ?)',
    );
    expect(rowValues(PROBES, { deleted_at: null, n: 3, env: 'live', account_id: 'a', id: 'x' })).toEqual([
      'x',
      'a',
      'live',
      3,
      null,
    ]);
    expect(columnList(PROBES, { alias: 'p', except: ['account_id', 'env'] })).toBe('p.id, p.n, p.deleted_at');
  });
});

describe.each(dialects())('owned queries (%s)', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    await database.db.run(
      'CREATE TABLE sql_probes (id TEXT PRIMARY KEY, account_id TEXT NOT NULL, env TEXT NOT NULL, n INTEGER NOT NULL, deleted_at BIGINT)',
    );
    await database.db.run('CREATE INDEX sql_probes_owner ON sql_probes (account_id, env)');
    const rows: ProbesRow[] = [];
    for (const [owner, prefix] of [
      [OWNER, 'one'],
      [OTHER, 'two'],
    ] as const) {
      for (let i = 0; i < 4; i += 1) {
        rows.push({
          id: `${prefix}_${i}`,
          account_id: owner.accountId,
          env: owner.env,
          n: i,
          deleted_at: i === 3 ? 1 : null,
        });
      }
    }
    rows.push({ id: 'one_live_env', account_id: OWNER.accountId, env: 'live', n: 1, deleted_at: null });
    await insertRows(database.db, PROBES, rows);
  });
  afterAll(async () => {
    await database.drop();
  });

  it('finds only the owner’s rows by key, values on both sides of the filter', async () => {
    const q = database.db;
    const ids = ['one_0', 'one_1', 'one_3', 'two_0', 'two_1', 'one_live_env'];
    const s = sql`SELECT id FROM sql_probes p WHERE p.id IN ${inList(ids)} AND ${owned(OWNER, { alias: 'p', live: true, keyed: q.dialect })} AND p.n >= ${1} ORDER BY p.id`;
    expect((await q.all<{ id: string }>(s.text, s.params)).map((r) => r.id)).toEqual(['one_1']);
  });

  it('updates only the owner’s live row', async () => {
    const q = database.db;
    const update = (owner: Owner, id: string) => {
      const s = sql`UPDATE sql_probes SET n = ${n(owner)} WHERE id = ${id} AND ${owned(owner, { live: true })}`;
      return q.run(s.text, s.params);
    };
    const n = (owner: Owner) => (owner === OWNER ? 10 : 20);
    expect(await update(OTHER, 'one_2')).toBe(0);
    expect(await update(OWNER, 'one_3')).toBe(0);
    expect(await update(OWNER, 'one_2')).toBe(1);
    const rows = await q.all<{ id: string; n: number }>("SELECT id, n FROM sql_probes WHERE id IN ('one_2', 'one_3')");
    expect(rows.map((r) => [r.id, Number(r.n)]).sort()).toEqual([
      ['one_2', 10],
      ['one_3', 3],
    ]);
  });
});
