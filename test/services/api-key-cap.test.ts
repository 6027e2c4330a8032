// At most MAX_ACTIVE_KEYS (50) active API keys per account and environment: each key has its own
// rate limit, so without a cap an account multiplies its rate by making keys. One more is refused
// 422 (the service's AppError, the panel's keys page with the reason); a revoked key frees its
// place; the other environment and other accounts have their own; creates racing each other
// stop at the cap. Real databases, both dialects; the panel over Fastify's inject.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors.ts';
import { ensureAccount, MAX_ACTIVE_KEYS } from '../../src/services/api-key.service.ts';
import { dialects } from '../support/databases.ts';
import { clientFor, startTestApp, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';

describe.each(dialects())('active API keys per account and environment on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  const accountId = async (email: string): Promise<string> =>
    (await ensureAccount(t.database.db, { email, verified: true, phone: '+14155552671' })).account.id;

  it('refuses one key past the cap with a clear 422; a revoked key frees a place; live is counted apart', async () => {
    expect(MAX_ACTIVE_KEYS).toBe(50);
    const id = await accountId('cap@example.com');
    const made = [];
    for (let i = 0; i < MAX_ACTIVE_KEYS; i++) made.push(await t.keys.create(id, 'test', `key ${i}`));
    const refused = await t.keys.create(id, 'test', 'one too many').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).code).toBe('validation');
    expect((refused as AppError).message).toMatch(/50 active test API keys.*revoke one/);
    // Nothing was stored for the refused key, and every earlier key still works.
    const rows = await t.database.db.get<{ n: number | string }>(
      'SELECT count(*) AS n FROM api_keys WHERE account_id = ?',
      [id],
    );
    expect(Number(rows?.n)).toBe(MAX_ACTIVE_KEYS);
    expect((await clientFor(t.app, made[0]?.key ?? '').get('/checks')).status).toBe(200);
    // The live environment has its own 50.
    await t.keys.create(id, 'live', 'live key');
    // Revoking one frees its place.
    await t.keys.revoke(made[0]?.record.id ?? '', id);
    await t.keys.create(id, 'test', 'replacement');
    await expect(t.keys.create(id, 'test', 'again too many')).rejects.toThrow(/50 active test API keys/);
    // Another account is not affected.
    await t.keys.create(await accountId('neighbour@example.com'), 'test', 'its first');
  });

  it('creates racing each other stop at the cap', async () => {
    const id = await accountId('race@example.com');
    for (let i = 0; i < MAX_ACTIVE_KEYS - 3; i++) await t.keys.create(id, 'test', `key ${i}`);
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => t.keys.create(id, 'test', `racer ${i}`)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    for (const r of results.filter((r) => r.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'validation' });
    const active = await t.database.db.get<{ n: number | string }>(
      'SELECT count(*) AS n FROM api_keys WHERE account_id = ? AND revoked_at IS NULL',
      [id],
    );
    expect(Number(active?.n)).toBe(MAX_ACTIVE_KEYS);
  });

  it('the panel answers the 51st key with 422 and the reason on the keys page, and shows no key', async () => {
    const owner = new Visitor(t.app);
    const signedUp = await owner.signUp({
      company: 'Many Keys Ltd',
      email: 'panel-cap@example.com',
      phone: '+14155550142',
      password: 'a long enough password 42',
    });
    expect(signedUp.status).toBe(303);
    const id = await accountId('panel-cap@example.com');
    for (let i = 0; i < MAX_ACTIVE_KEYS - 1; i++) await t.keys.create(id, 'test', `key ${i}`);
    expect(await owner.createKey('the fiftieth')).toMatch(/^ey/);
    const refused = await owner.submit('/panel/keys', '/panel/keys', { name: 'the fifty-first', env: 'test' });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('50 active test API keys');
    expect(refused.body).not.toContain('id="new-key"');
  });
});
