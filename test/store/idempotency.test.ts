import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { begin, finish, KEEP_MS, purgeExpired, requestHash } from '../../src/services/idempotency.service.ts';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';

describe.each(dialects())('idempotency records expire after 24 hours (%s)', (dialect) => {
  let database: TestDatabase;
  let clock = Date.UTC(2026, 10, 21, 12, 0);
  let ctx: ServiceContext;
  let owner: { accountId: string; env: 'test' };

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    ctx = { db: database.db, config: loadConfig({}), now: () => clock, secret: Buffer.from('s') };
    owner = { accountId: (await ensureAccount(database.db, { email: 'idem-store@example.com', verified: true })).account.id, env: 'test' };
  });
  afterAll(() => database.drop());

  it('replays within the day; after it, the key is free again and purged records are gone', async () => {
    const first = await begin(ctx, owner, 'daily', requestHash('POST', '/x', { a: 1 }));
    expect(first.proceed).toBe(true);
    if (!first.proceed) return;
    await finish(ctx, owner, 'daily', first.createdAt, { status: 201, type: 'application/json', body: Buffer.from('{"ok":1}') });

    clock += KEEP_MS - 1000;
    const replay = await begin(ctx, owner, 'daily', requestHash('POST', '/x', { a: 1 }));
    expect(replay).toEqual({ proceed: false, response: { status: 201, type: 'application/json', body: Buffer.from('{"ok":1}') } });
    await expect(begin(ctx, owner, 'daily', requestHash('POST', '/x', { a: 2 }))).rejects.toThrow('already used with a different request');
    expect(await purgeExpired(ctx)).toBe(0);

    clock += 2000;
    expect(await purgeExpired(ctx)).toBe(1);
    const again = await begin(ctx, owner, 'daily', requestHash('POST', '/x', { a: 2 }));
    expect(again.proceed).toBe(true);
  });
});
