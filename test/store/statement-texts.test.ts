// The statements of queries moved from hand-kept parameter lists to `sql` templates and table
// definitions: each is recorded as the store hands it to the database and compared with the text
// and parameters it was written as by hand before (written out here), so the move changed no
// statement; the writes are then read back with plain SQL on each database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import { storeAccountNumber } from '../../src/store/bank-accounts.repository.ts';
import { checksBySerial, idsOnBankAccount } from '../../src/store/check-register.repository.ts';
import type { Queryable, SqlValue } from '../../src/store/db.ts';
import { tableExists } from '../../src/store/dialect.ts';
import { purgeOlderThan } from '../../src/store/idempotency.repository.ts';
import { clearHits, deleteExpired, lockedHits, writeHits } from '../../src/store/limit-counters.repository.ts';
import { listMailings } from '../../src/store/mailings.repository.ts';
import { listPayees } from '../../src/store/payees.repository.ts';
import { findLayout, insertLayout, listLayouts } from '../../src/store/positive-pay-layouts.repository.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

interface Statement {
  text: string;
  params: readonly SqlValue[];
}

/** `q` with every statement it runs written down. */
function recording(q: Queryable): { q: Queryable; seen: Statement[] } {
  const seen: Statement[] = [];
  const note = (text: string, params: readonly SqlValue[] = []) => seen.push({ text, params: [...params] });
  return {
    seen,
    q: {
      dialect: q.dialect,
      all: (text, params) => {
        note(text, params);
        return q.all(text, params);
      },
      get: (text, params) => {
        note(text, params);
        return q.get(text, params);
      },
      run: (text, params) => {
        note(text, params);
        return q.run(text, params);
      },
    },
  };
}

describe.each(dialects())('statements as they were written by hand (%s)', (dialect) => {
  let database: TestDatabase;
  let accountId = '';

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    accountId = (await ensureAccount(database.db, { email: 'texts@example.com', verified: true })).account.id;
  });
  afterAll(async () => {
    await database.drop();
  });

  it('tableExists', async () => {
    const { q, seen } = recording(database.db);
    expect(await tableExists(q, 'payees')).toBe(true);
    expect(await tableExists(q, 'no_such_table')).toBe(false);
    const text =
      dialect === 'postgres'
        ? 'SELECT to_regclass(?)::text AS found'
        : "SELECT name AS found FROM sqlite_master WHERE type = 'table' AND name = ?";
    expect(seen).toEqual([
      { text, params: ['payees'] },
      { text, params: ['no_such_table'] },
    ]);
  });

  it('storeAccountNumber, with and without the masked number', async () => {
    const id = `ba_texts_${dialect}`;
    await database.db.run(
      `INSERT INTO bank_accounts (id, account_id, env, name, bank_name, bank_address, routing_number, account_number,
         account_number_masked, next_serial, created_at) VALUES (?, ?, 'test', 'Ops', 'Bank', '', '011000015', 'old', '••••0000', 1001, 1)`,
      [id, accountId],
    );
    const { q, seen } = recording(database.db);
    await storeAccountNumber(q, id, 'sealed-1', null);
    await storeAccountNumber(q, id, 'sealed-2', '••••1234');
    expect(seen).toEqual([
      { text: 'UPDATE bank_accounts SET account_number = ? WHERE id = ?', params: ['sealed-1', id] },
      {
        text: 'UPDATE bank_accounts SET account_number = ?, account_number_masked = ? WHERE id = ?',
        params: ['sealed-2', '••••1234', id],
      },
    ]);
    const row = await database.db.get<{ account_number: string; account_number_masked: string }>(
      'SELECT account_number, account_number_masked FROM bank_accounts WHERE id = ?',
      [id],
    );
    expect(row).toEqual({ account_number: 'sealed-2', account_number_masked: '••••1234' });
  });

  it('checksBySerial and idsOnBankAccount: the columns as listed by hand before', async () => {
    const owner = { accountId, env: 'test' as const };
    const { q, seen } = recording(database.db);
    await checksBySerial(q, owner, 'ba_x', ['1001', '1002']);
    await idsOnBankAccount(q, owner, 'ba_x', ['chk_1']);
    const plus = dialect === 'sqlite' ? '+' : '';
    expect(seen).toEqual([
      {
        text: `SELECT id, serial_number, amount_cents, status, cleared_date, reference_id, payee_id, issue_date FROM checks
       WHERE bank_account_id = ? AND ${plus}account_id = ? AND ${plus}env = ? AND serial_number IN (?, ?)`,
        params: ['ba_x', accountId, 'test', '1001', '1002'],
      },
      { text: 'SELECT id, account_id, env, bank_account_id FROM checks WHERE id IN (?)', params: ['chk_1'] },
    ]);
  });

  it('purgeOlderThan', async () => {
    const { q, seen } = recording(database.db);
    await purgeOlderThan(q, 1234);
    expect(seen).toEqual([{ text: 'DELETE FROM idempotency_keys WHERE created_at < ?', params: [1234] }]);
  });

  it('writeHits, clearHits and deleteExpired', async () => {
    await database.db.transaction(async (tx) => {
      await lockedHits(tx, 'texts:a', 1000);
      await lockedHits(tx, 'texts:b', 1000);
      await lockedHits(tx, 'texts:c', 1000);
    });
    const { q, seen } = recording(database.db);
    await writeHits(q, 'texts:a', [1, 2, 3], 5000);
    await writeHits(q, 'texts:b', [4], null);
    await clearHits(q, 'texts:c');
    expect(seen).toEqual([
      {
        text: 'UPDATE limit_counters SET hits = ?, expires_at = COALESCE(?, expires_at) WHERE name = ?',
        params: ['1,2,3', 5000, 'texts:a'],
      },
      {
        text: 'UPDATE limit_counters SET hits = ?, expires_at = COALESCE(?, expires_at) WHERE name = ?',
        params: ['4', null, 'texts:b'],
      },
      { text: 'DELETE FROM limit_counters WHERE name = ?', params: ['texts:c'] },
    ]);
    const rows = await database.db.all<{ name: string; hits: string; expires_at: number | string }>(
      "SELECT name, hits, expires_at FROM limit_counters WHERE name LIKE 'texts:%' ORDER BY name",
    );
    expect(rows.map((r) => [r.name, r.hits, Number(r.expires_at)])).toEqual([
      ['texts:a', '1,2,3', 5000],
      ['texts:b', '4', 1000],
    ]);
    seen.length = 0;
    // texts:b expired at 1000; texts:a lives until 5000.
    expect(await deleteExpired(q, 2000, 10)).toBe(1);
    expect(seen).toEqual([
      {
        text: 'DELETE FROM limit_counters WHERE name IN (SELECT name FROM limit_counters WHERE expires_at < ? LIMIT ?)',
        params: [2000, 10],
      },
    ]);
  });

  it('listMailings: the status filter before the waiting rule, its one parameter', async () => {
    const { q, seen } = recording(database.db);
    await listMailings(q, null);
    await listMailings(q, 'queued');
    const waiting =
      "NOT (status = 'queued' AND EXISTS (SELECT 1 FROM check_approval_rules r WHERE r.check_id = mailings.check_id AND r.state <> 'approved'))";
    expect(seen.map((s) => s.params)).toEqual([[], ['queued']]);
    expect(seen[0]?.text).toMatch(/^SELECT id, account_id, env, check_id, .+ FROM mailings WHERE /);
    expect(seen[0]?.text.endsWith(` FROM mailings WHERE ${waiting} ORDER BY created_at, id`)).toBe(true);
    expect(seen[1]?.text.endsWith(` FROM mailings WHERE status = ? AND ${waiting} ORDER BY created_at, id`)).toBe(true);
  });

  it('a list page with a term (pagedRows): the owner, one pattern per column, then limit and offset', async () => {
    const owner = { accountId, env: 'test' as const };
    const insert = (id: string, name: string, deleted: number | null) =>
      database.db.run(
        `INSERT INTO payees (id, account_id, env, name, nick_name, company, email, phone, address1, address2, city,
           state, zip, country, created_at, deleted_at) VALUES (?, ?, 'test', ?, '', '', '', '', '', '', '', '', '', 'US', ?, ?)`,
        [id, accountId, name, Number(id.slice(-1)), deleted],
      );
    await insert('pay_texts_1', 'Alpha 50%_off', null);
    await insert('pay_texts_2', 'ALPHA 50%_OFF again', null);
    await insert('pay_texts_3', 'Alpha 50% off', null); // the _ is a character, not a wildcard
    await insert('pay_texts_4', 'Alpha 50%_off gone', 99);
    const { q, seen } = recording(database.db);
    const page = await listPayees(q, owner, { limit: 5, offset: 0, term: '50%_OFF' });
    expect(page.total).toBe(2);
    expect(page.items.map((p) => p.id)).toEqual(['pay_texts_2', 'pay_texts_1']);
    const like = dialect === 'sqlite' ? 'LIKE' : 'ILIKE';
    const where = `account_id = ? AND env = ? AND deleted_at IS NULL AND (${['name', 'nick_name', 'company', 'email']
      .map((c) => `${c} ${like} ? ESCAPE '\\'`)
      .join(' OR ')})`;
    const pattern = '%50\\%\\_off%';
    const params = [accountId, 'test', pattern, pattern, pattern, pattern];
    expect(seen[0]).toEqual({ text: `SELECT COUNT(*) AS n FROM payees WHERE ${where}`, params });
    expect(seen[1]?.text).toMatch(/^SELECT id, account_id, env, name, .+ FROM payees WHERE /);
    expect(seen[1]?.text.endsWith(' ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?')).toBe(true);
    expect(seen[1]?.text).toContain(` FROM payees WHERE ${where} ORDER BY`);
    expect(seen[1]?.params).toEqual([...params, 5, 0]);
  });

  it('positive pay layouts: the insert from the table definition, the reads as written before', async () => {
    const layout = { id: 'ppl_texts', name: 'Bank X', layout: '{"fields":[]}', createdBy: 'per_1', createdAt: 77 };
    const { q, seen } = recording(database.db);
    await insertLayout(q, accountId, layout);
    const stored = await database.db.get<Record<string, string | number>>(
      'SELECT id, account_id, name, layout, created_by, created_at FROM positive_pay_layouts WHERE id = ?',
      [layout.id],
    );
    expect({ ...stored, created_at: Number(stored?.created_at) }).toEqual({
      id: 'ppl_texts',
      account_id: accountId,
      name: 'Bank X',
      layout: '{"fields":[]}',
      created_by: 'per_1',
      created_at: 77,
    });
    seen.length = 0;
    expect(await listLayouts(q, accountId)).toEqual([layout]);
    expect(await findLayout(q, accountId, layout.id)).toEqual(layout);
    expect(seen).toEqual([
      {
        text: `SELECT id, name, layout, created_by, created_at FROM positive_pay_layouts
    WHERE account_id = ? ORDER BY created_at, id LIMIT ?`,
        params: [accountId, 100],
      },
      {
        text: `SELECT id, name, layout, created_by, created_at FROM positive_pay_layouts
    WHERE account_id = ? AND id = ?`,
        params: [accountId, layout.id],
      },
    ]);
  });
});
