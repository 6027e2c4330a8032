import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('authentication and isolation (%s)', (dialect) => {
  let t: TestApp;
  let owner: Client;
  let ids: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    owner = await t.client('owner@example.com');
    const basics = await seedBasics(owner);
    const check = await owner.post('/checks', { checks: [{ ...basics, amount: 12 }] });
    const from = await owner.post('/customFromAddresses', {
      addresses: [
        {
          name: 'HQ',
          companyName: 'Owner Co',
          addressLine1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
        },
      ],
    });
    ids = {
      ...basics,
      checkId: check.body.data.checks[0].checkId,
      fromId: from.body.data.addresses[0].customFromAddressId,
    };
  });
  afterAll(() => t.close());

  /** The API keys of the account registered under `email`, looked up explicitly in the database. */
  const keysOf = (email: string) =>
    t.database.db.all<{ id: string; account_id: string; env: string; revoked_at: number | null }>(
      'SELECT k.id, k.account_id, k.env, k.revoked_at FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = ? ORDER BY k.created_at, k.id',
      [email],
    );

  it('401 with exactly { message: "Unauthenticated." } for missing, malformed and forged keys', async () => {
    const [header, payload] = owner.key.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'key_x', acc: 'acct_x', env: 'live', iat: 1 })).toString(
      'base64url',
    );
    const attempts: (string | undefined)[] = [
      undefined,
      'Bearer',
      'Bearer ',
      `Basic ${owner.key}`,
      'Bearer not-a-jwt',
      `Bearer ${header}.${payload}.AAAA`,
      `Bearer ${header}.${forgedPayload}.${owner.key.split('.')[2]}`,
      `Bearer ${owner.key}x`,
    ];
    for (const authorization of attempts) {
      const res = await t.app.inject({
        method: 'GET',
        url: `${BASE}/checks`,
        headers: authorization === undefined ? {} : { authorization },
      });
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.body).toBe('{"message":"Unauthenticated."}');
    }
  });

  it('a revoked key is refused at once', async () => {
    const client = await t.client('revoker@example.com');
    expect((await client.get('/checks')).status).toBe(200);
    // The account's one key, found by the account's email, and proved to be the key this client sends.
    const rows = await keysOf('revoker@example.com');
    expect(rows).toHaveLength(1);
    const [record] = rows;
    if (record === undefined) throw new Error('revoker has no key');
    expect(record.revoked_at).toBeNull();
    expect((await t.keys.verify(client.key)).keyId).toBe(record.id);
    await t.keys.revoke(record.id);
    const res = await client.get('/checks');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: 'Unauthenticated.' });
  });

  it("another account's ids answer 404 on every id-taking endpoint, and nothing changes", async () => {
    const stranger = await t.client('stranger@example.com');
    const { checkId, payeeId, bankAccountId, fromId } = ids as Record<string, string>;
    const probes: [string, Promise<{ status: number; body: { errorMsg?: string } }>, string][] = [
      ['GET check', stranger.get(`/checks/${checkId}`), 'Check not found.'],
      ['GET voucher', stranger.get(`/checks/${checkId}/voucher`), 'Check not found.'],
      ['POST voucher', stranger.post(`/checks/${checkId}/voucher`, { voucherNumber: 'X' }), 'Check not found.'],
      ['GET payee', stranger.get(`/payees/${payeeId}`), 'Payee not found.'],
      ['PUT payee', stranger.put(`/payees/${payeeId}`, { name: 'Hijacked' }), 'Payee not found.'],
      ['DELETE payee', stranger.delete(`/payees/${payeeId}`), 'Payee not found.'],
      ['GET bank account', stranger.get(`/bankAccounts/${bankAccountId}`), 'Bank account not found.'],
      ['PUT bank account', stranger.put(`/bankAccounts/${bankAccountId}`, { name: 'Mine' }), 'Bank account not found.'],
      ['DELETE bank account', stranger.delete(`/bankAccounts/${bankAccountId}`), 'Bank account not found.'],
      ['GET from address', stranger.get(`/customFromAddresses/${fromId}`), 'Address not found.'],
    ];
    for (const [name, call, message] of probes) {
      const res = await call;
      expect(res.status, name).toBe(404);
      expect(res.body, name).toEqual({ success: false, errorMsg: message });
    }
    // Ids in bodies are validated the same way: a foreign id is simply not one of yours.
    const foreign = await stranger.post('/checks', { checks: [{ bankAccountId, payeeId, amount: 1 }] });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errorMsg).toBe('The selected checks.0.bankAccountId is invalid.');
    const foreignEmail = await stranger.post('/emailchecks', { emailChecks: [{ checkId }] });
    expect(foreignEmail.body.errorMsg).toBe('The selected emailChecks.0.checkId is invalid.');
    expect((await stranger.get('/checks')).body.data.meta.total).toBe(0);

    const still = await owner.get(`/payees/${payeeId}`);
    expect(still.body.data.name).toBe('Acme Supplies');
    expect((await owner.get(`/bankAccounts/${bankAccountId}`)).status).toBe(200);
  });

  it('test and live data never mix, even for one account', async () => {
    // A live key for the very account that owns `ids` (owner@example.com), next to its test key.
    const live = await t.client('owner@example.com', { env: 'live' });
    const [testPrincipal, livePrincipal] = [await t.keys.verify(owner.key), await t.keys.verify(live.key)];
    expect(testPrincipal.env).toBe('test');
    expect(livePrincipal.env).toBe('live');
    expect(livePrincipal.accountId).toBe(testPrincipal.accountId);
    expect(livePrincipal.keyId).not.toBe(testPrincipal.keyId);
    const ownerKeys = await keysOf('owner@example.com');
    expect(
      ownerKeys
        .map((k) => ({ id: k.id, accountId: k.account_id, env: k.env }))
        .sort((a, b) => a.env.localeCompare(b.env)),
    ).toEqual([
      { id: livePrincipal.keyId, accountId: testPrincipal.accountId, env: 'live' },
      { id: testPrincipal.keyId, accountId: testPrincipal.accountId, env: 'test' },
    ]);
    const { checkId, payeeId, bankAccountId, fromId } = ids as Record<string, string>;
    expect((await live.get(`/checks/${checkId}`)).status).toBe(404);
    expect((await live.get(`/payees/${payeeId}`)).status).toBe(404);
    expect((await live.get(`/bankAccounts/${bankAccountId}`)).status).toBe(404);
    expect((await live.get(`/customFromAddresses/${fromId}`)).status).toBe(404);
    expect((await live.get('/checks')).body.data.meta.total).toBe(0);
    const liveBasics = await seedBasics(live);
    const made = await live.post('/checks', { checks: [{ ...liveBasics, amount: 7 }] });
    expect(made.status).toBe(201);
    expect((await owner.get(`/checks/${made.body.data.checks[0].checkId}`)).status).toBe(404);
    // Serial numbers count per bank account, so the live account starts at the default too.
    expect(made.body.data.checks[0].serialNumber).toBe('10001');
  });
});
