import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { Vault } from '../../src/domain/sealed.ts';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { KEEP_MS, purgeExpired, requestHash, runOnce } from '../../src/services/idempotency.service.ts';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

describe.each(dialects())('idempotency records (%s)', (dialect) => {
  let database: TestDatabase;
  let clock = Date.UTC(2026, 10, 21, 12, 0);
  let ctx: ServiceContext;
  let owner: { accountId: string; env: 'test' };
  const ok = (text: string) => async () => ({ status: 201, type: 'application/json', body: Buffer.from(text) });
  const rows = async (): Promise<number> =>
    Number((await database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM idempotency_keys'))?.n);

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    ctx = {
      db: database.db,
      config: loadConfig({}),
      now: () => clock,
      secret: Buffer.from('s'),
      vault: new Vault(Buffer.from('s')),
      // Idempotency records hold no heavy work; the inline runner has no threads to stop.
      heavyWork: new InlineHeavyWork(),
    };
    owner = {
      accountId: (await ensureAccount(database.db, { email: 'idem-store@example.com', verified: true })).account.id,
      env: 'test',
    };
  });
  afterAll(() => database.drop());

  it('replays within the day; after it, the key is free again and purged records are gone', async () => {
    const first = await runOnce(ctx, owner, 'daily', requestHash('POST', '/x', { a: 1 }), ok('{"ok":1}'));
    expect(first).toEqual({
      replayed: false,
      response: { status: 201, type: 'application/json', body: Buffer.from('{"ok":1}') },
    });

    clock += KEEP_MS - 1000;
    const replay = await runOnce(ctx, owner, 'daily', requestHash('POST', '/x', { a: 1 }), ok('{"ok":2}'));
    expect(replay).toEqual({
      replayed: true,
      response: { status: 201, type: 'application/json', body: Buffer.from('{"ok":1}') },
    });
    await expect(runOnce(ctx, owner, 'daily', requestHash('POST', '/x', { a: 2 }), ok('{}'))).rejects.toThrow(
      'already used with a different request',
    );
    expect(await purgeExpired(ctx)).toBe(0);

    clock += 2000;
    expect(await purgeExpired(ctx)).toBe(1);
    const again = await runOnce(ctx, owner, 'daily', requestHash('POST', '/x', { a: 2 }), ok('{"ok":3}'));
    expect(again.replayed).toBe(false);
  });

  it('work that throws leaves no record and none of its writes: the key stays free', async () => {
    const before = await rows();
    const failing = async (): Promise<never> => {
      await database.db.run('INSERT INTO settings (name, value) VALUES (?, ?)', ['idem-probe', 'x']);
      throw new Error('boom');
    };
    await expect(runOnce(ctx, owner, 'fails', requestHash('POST', '/y', {}), failing)).rejects.toThrow('boom');
    expect(await rows()).toBe(before);
    expect(await database.db.get('SELECT value FROM settings WHERE name = ?', ['idem-probe'])).toBeUndefined();
    expect((await runOnce(ctx, owner, 'fails', requestHash('POST', '/y', {}), ok('{}'))).replayed).toBe(false);
  });

  it('work joins the transaction: its writes (plain and nested transactions) commit with the record', async () => {
    await runOnce(ctx, owner, 'joined', requestHash('POST', '/z', {}), async () => {
      await database.db.run('INSERT INTO settings (name, value) VALUES (?, ?)', ['joined-plain', '1']);
      await database.db.transaction(async (tx) => {
        await tx.run('INSERT INTO settings (name, value) VALUES (?, ?)', ['joined-nested', '1']);
      });
      // A nested transaction that fails is undone alone (a savepoint); the rest goes on.
      await expect(
        database.db.transaction(async (tx) => {
          await tx.run('INSERT INTO settings (name, value) VALUES (?, ?)', ['joined-undone', '1']);
          throw new Error('inner');
        }),
      ).rejects.toThrow('inner');
      // Inside the work, its own uncommitted writes are visible to plain reads.
      expect(await database.db.get('SELECT value FROM settings WHERE name = ?', ['joined-plain'])).toEqual({
        value: '1',
      });
      return { status: 200, type: 'application/json', body: Buffer.from('{}') };
    });
    const names = (
      await database.db.all<{ name: string }>("SELECT name FROM settings WHERE name LIKE 'joined-%' ORDER BY name")
    ).map((r) => r.name);
    expect(names).toEqual(['joined-nested', 'joined-plain']);
  });

  it('keeps a response (gzip-compressed on SQLite) and replays its exact bytes; a plain record of an older version replays too', async () => {
    const items = Array.from({ length: 100 }, (_, i) => ({ checkId: `chk_${i}`, amount: 12.34, memo: 'Office rent' }));
    const body = Buffer.from(JSON.stringify({ success: true, data: { checks: items } }));
    const hash = requestHash('POST', '/big', {});
    await runOnce(ctx, owner, 'big', hash, async () => ({ status: 201, type: 'application/json', body }));
    const raw = await database.db.get<{ response_body: Buffer }>(
      'SELECT response_body FROM idempotency_keys WHERE idem_key = ?',
      ['big'],
    );
    const kept = Buffer.from(raw?.response_body ?? Buffer.alloc(0));
    if (dialect === 'sqlite') {
      expect([kept[0], kept[1]]).toEqual([0x1f, 0x8b]);
      expect(kept.length).toBeLessThan(body.length / 5);
      expect(gunzipSync(kept).equals(body)).toBe(true);
    } else {
      // PostgreSQL compresses large values itself (TOAST): kept as they are.
      expect(kept.equals(body)).toBe(true);
    }
    const replay = await runOnce(ctx, owner, 'big', hash, ok('{"other":1}'));
    expect(replay.replayed).toBe(true);
    expect(replay.response.body.equals(body)).toBe(true);

    // Written by a version that kept bodies as they were.
    await database.db.run(
      "INSERT INTO idempotency_keys (account_id, env, idem_key, request_hash, state, response_status, response_type, response_body, created_at) VALUES (?, ?, ?, ?, 'done', 201, 'application/json', ?, ?)",
      [owner.accountId, owner.env, 'plain', hash, Buffer.from('{"old":true}'), clock],
    );
    const old = await runOnce(ctx, owner, 'plain', hash, ok('{"new":true}'));
    expect(old).toMatchObject({ replayed: true });
    expect(old.response.body.toString()).toBe('{"old":true}');
  });
});

// The request hash is compared with hashes stored by earlier versions for 24 hours: its text must
// not change. Computed here from its definition: "METHOD URL\n" + the body as JSON, a file's bytes
// replaced by their SHA-256.
describe('the request hash', () => {
  const sha = (text: string | Buffer) => createHash('sha256').update(text).digest('hex');
  const body = { checks: [{ bankAccountId: 'bank_1', amount: '12.34', memo: 'Rent "May"', voucher: null }], n: 1 };

  it('is the SHA-256 of the method, URL and body as JSON, the same on the JSON fast path', () => {
    const expected = sha(`POST /api/v3/checks\n${JSON.stringify(body)}`);
    expect(requestHash('POST', '/api/v3/checks', body)).toBe(expected);
    expect(requestHash('POST', '/api/v3/checks', body, true)).toBe(expected);
    expect(requestHash('DELETE', '/api/v3/payees/pay_1', undefined)).toBe(sha('DELETE /api/v3/payees/pay_1\nnull'));
  });

  it("counts a file by its bytes' digest, wherever it sits in the body", () => {
    const file = Buffer.from('%PDF-1.4 a small file');
    const nested = { file: { data: file, name: 'a.pdf' }, kind: 'x' };
    expect(requestHash('POST', '/u', nested)).toBe(
      sha(`POST /u\n${JSON.stringify({ file: { data: { sha256: sha(file) }, name: 'a.pdf' }, kind: 'x' })}`),
    );
    expect(requestHash('PUT', '/s', file)).toBe(sha(`PUT /s\n${JSON.stringify({ sha256: sha(file) })}`));
    // Different bytes, different hash.
    expect(requestHash('PUT', '/s', Buffer.from('other'))).not.toBe(requestHash('PUT', '/s', file));
  });
});
