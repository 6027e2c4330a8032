// A delete racing a request that uses the same record: over real HTTP, many pairs at once, the
// use or the delete wins and the loser is told so in the spec's error shape (409 or 422), never
// a 500, and nothing is left naming a record that is gone. On PostgreSQL two transactions run
// truly at once, so the check that the record is unused and the write must not be separable.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, type Reply, replyOf, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

/** Pairs raced per case; the pairs of one case run all at the same time. */
const PAIRS = 36;

interface HttpClient {
  post(url: string, body: unknown): Promise<Reply>;
  put(url: string, body: unknown): Promise<Reply>;
  delete(url: string): Promise<Reply>;
}

/** A client over a real socket to the listening server (not inject), as the race was reported. */
function httpClient(origin: string, key: string): HttpClient {
  const call = async (method: string, url: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(`${origin}${BASE}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const headers: Reply['headers'] = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return replyOf({ statusCode: response.status, headers, body: await response.text() });
  };
  return {
    post: (url, body) => call('POST', url, body),
    put: (url, body) => call('PUT', url, body),
    delete: (url) => call('DELETE', url),
  };
}

/** A loser's answer: the spec's error body with a message, and the status expected. */
function expectRefusal(reply: Reply, status: number, label: string): void {
  expect(reply.status, `${label}: ${reply.raw}`).toBe(status);
  expect(reply.body, label).toEqual({ success: false, errorMsg: expect.any(String) });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Pair `i` sends its delete from 3 ms before the use to 12 ms after it: some deletes land before
 * the use looks, some while it writes, some after it committed, so every interleaving is tried.
 */
async function race(i: number, remove: () => Promise<Reply>, use: () => Promise<Reply>): Promise<[Reply, Reply]> {
  const offset = (i % 16) - 3;
  if (offset <= 0) {
    const removed = remove();
    await pause(-offset);
    return [await removed, await use()];
  }
  const used = use();
  await pause(offset);
  return [await remove(), await used];
}

/** Each pair: exactly one side won, the other was refused cleanly. */
function expectOneWinner(
  pairs: readonly [Reply, Reply][],
  won: { deleted: number; used: number },
  refused: { deleted: number; used: number },
): { deleteWon: number; useWon: number } {
  let deleteWon = 0;
  let useWon = 0;
  for (const [i, [deleted, used]] of pairs.entries()) {
    const label = `pair ${i}: delete ${deleted.status}, use ${used.status}`;
    expect([deleted.status, used.status], label).not.toContain(500);
    if (deleted.status === won.deleted) {
      deleteWon++;
      expectRefusal(used, refused.used, label);
    } else {
      useWon++;
      expectRefusal(deleted, refused.deleted, label);
      expect(used.status, `${label}: ${used.raw}`).toBe(won.used);
    }
  }
  // Both outcomes seen: the race was really run, not won by one side every time.
  expect(deleteWon, 'pairs the delete won').toBeGreaterThan(0);
  expect(useWon, 'pairs the use won').toBeGreaterThan(0);
  return { deleteWon, useWon };
}

describe.each(dialects())('a delete racing a use (%s)', (dialect) => {
  let t: TestApp;
  let api: HttpClient;
  let basics: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const injected = await t.client('delete-races@example.com', { verified: true });
    basics = await seedBasics(injected, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('not listening on a port');
    api = httpClient(`http://127.0.0.1:${address.port}`, injected.key);
  });
  afterAll(() => t.close());

  const addresses = async (kind: 'From' | 'To', n: number): Promise<string[]> => {
    const made = await api.post(`/custom${kind}Addresses`, {
      addresses: Array.from({ length: n }, (_, i) => ({ name: `Race ${kind} ${i}`, addressLine1: `${i} Elm St` })),
    });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.addresses.map((a: Record<string, string>) => a[`custom${kind}AddressId`]);
  };

  const newChecks = async (n: number, extra: Record<string, unknown> = {}): Promise<string[]> => {
    const made = await api.post('/checks', {
      checks: Array.from({ length: n }, () => ({ ...basics, amount: '10.00', ...extra })),
    });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks.map((c: { checkId: string }) => c.checkId);
  };

  it('DELETE /vouchers/{id} racing POST /checks {voucherId}: one wins, no check names a missing voucher', async () => {
    const vouchers: string[] = [];
    for (let i = 0; i < PAIRS; i++) {
      const made = await api.post('/vouchers', { voucherNumber: `R-${i}`, payeeId: basics.payeeId });
      expect(made.status, made.raw).toBe(201);
      vouchers.push(made.body.data.voucherId);
    }
    const pairs = await Promise.all(
      vouchers.map((voucherId, i) =>
        race(
          i,
          () => api.delete(`/vouchers/${voucherId}`),
          () => api.post('/checks', { checks: [{ ...basics, amount: '10.00', voucherId }] }),
        ),
      ),
    );
    const { useWon } = expectOneWinner(pairs, { deleted: 200, used: 201 }, { deleted: 409, used: 422 });
    const dangling = await t.database.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM checks c WHERE c.voucher_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM vouchers v WHERE v.id = c.voucher_id)`,
    );
    expect(Number(dangling?.n)).toBe(0);
    const written = await t.database.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM checks WHERE voucher_id IN (${vouchers.map(() => '?').join(', ')})`,
      vouchers,
    );
    expect(Number(written?.n)).toBe(useWon);
  });

  it('DELETE /customFromAddresses/{id} racing PUT /bankAccounts/{id} {customFromAddressId}: one wins', async () => {
    const froms = await addresses('From', PAIRS);
    const banks = await api.post('/bankAccounts', {
      bankAccounts: froms.map((_, i) => ({
        name: `Race ${i}`,
        bankName: 'First Test Bank',
        routingNumber: '011000015',
        accountNumber: String(700000000 + i),
      })),
    });
    expect(banks.status, banks.raw).toBe(201);
    const bankIds: string[] = banks.body.data.bankAccounts.map((b: { bankAccountId: string }) => b.bankAccountId);
    // Each pair has its own bank account, so no later PUT frees an address an earlier one took.
    const pairs = await Promise.all(
      froms.map((fromId, i) =>
        race(
          i,
          () => api.delete(`/customFromAddresses/${fromId}`),
          () => api.put(`/bankAccounts/${bankIds[i]}`, { customFromAddressId: fromId }),
        ),
      ),
    );
    const { useWon } = expectOneWinner(pairs, { deleted: 200, used: 200 }, { deleted: 409, used: 422 });
    const dangling = await t.database.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM bank_accounts b WHERE b.custom_from_address_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM addresses a WHERE a.id = b.custom_from_address_id)`,
    );
    expect(Number(dangling?.n)).toBe(0);
    const printing = await t.database.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM bank_accounts WHERE custom_from_address_id IS NOT NULL AND id IN (${bankIds.map(() => '?').join(', ')})`,
      bankIds,
    );
    expect(Number(printing?.n)).toBe(useWon);
  });

  it.each([
    ['To', 'customToAddressId'],
    ['From', 'customFromAddressId'],
  ] as const)(
    'DELETE /custom%sAddresses/{id} racing POST /mailchecks naming it: one wins, no mailing loses its address',
    async (kind, field) => {
      const ids = await addresses(kind, PAIRS);
      const checks = await newChecks(PAIRS);
      const pairs = await Promise.all(
        ids.map((addressId, i) =>
          race(
            i,
            () => api.delete(`/custom${kind}Addresses/${addressId}`),
            () =>
              kind === 'To'
                ? api.post('/mailchecks', {
                    mailChecks: [{ checkId: checks[i], shippingTypeId: 1, customToAddressId: addressId }],
                  })
                : api.post('/mailchecks', {
                    mailChecks: [{ checkId: checks[i], shippingTypeId: 1 }],
                    [field]: addressId,
                  }),
          ),
        ),
      );
      const { useWon } = expectOneWinner(pairs, { deleted: 200, used: 200 }, { deleted: 409, used: 422 });
      const column = kind === 'To' ? 'to_address_id' : 'from_address_id';
      const dangling = await t.database.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM mailings m WHERE m.${column} IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM addresses a WHERE a.id = m.${column})`,
      );
      expect(Number(dangling?.n)).toBe(0);
      const queued = await t.database.db.get<{ n: number }>(
        `SELECT COUNT(*) AS n FROM mailings WHERE ${column} IN (${ids.map(() => '?').join(', ')})`,
        ids,
      );
      expect(Number(queued?.n)).toBe(useWon);
    },
  );
});
