import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
});
