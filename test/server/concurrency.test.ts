import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { createKeyWithCli, http, startServerProcess, type ServerProcess } from '../support/processes.ts';

// Two server processes on one database: automatic serial numbers must stay unique per bank
// account however the requests interleave (PostgreSQL is the multi-server deployment; SQLite
// shares a file between processes through its write lock).
describe.each(dialects())('two server processes on one %s database', (dialect) => {
  let servers: ServerProcess[] = [];
  let cleanup: () => Promise<void>;
  let key = '';
  let env: Record<string, string>;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    env = fresh.env;
    cleanup = fresh.cleanup;
    // Both start (and migrate) at once: the advisory lock / write lock keeps that safe.
    servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    key = await createKeyWithCli('race@example.com', env);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanup();
  });

  it('hands out unique serial numbers to concurrent batches on both servers', async () => {
    const [a, b] = servers;
    if (a === undefined || b === undefined) throw new Error('servers did not start');
    const bank = await http(`${a.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Race', routingNumber: '011000015', accountNumber: '1234' }] },
    });
    const payee = await http(`${b.url}/api/v3/payees`, { method: 'POST', key, body: { payees: [{ name: 'Runner' }] } });
    const item = {
      bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
      payeeId: payee.body.data.payees[0].payeeId,
      amount: '1.00',
    };
    const requests = Array.from({ length: 40 }, (_, i) =>
      http(`${(i % 2 === 0 ? a : b).url}/api/v3/checks`, {
        method: 'POST',
        key,
        body: { checks: Array.from({ length: 5 }, () => item) },
      }),
    );
    const responses = await Promise.all(requests);
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    const serials = responses.flatMap((r) =>
      r.body.data.checks.map((c: { serialNumber: string }) => Number(c.serialNumber)),
    );
    expect(serials).toHaveLength(200);
    expect(new Set(serials).size).toBe(200);
    expect(Math.min(...serials)).toBe(10001);
    expect(Math.max(...serials)).toBe(10200);
    const list = await http(`${b.url}/api/v3/checks?perPage=1`, { key });
    expect(list.body.data.meta.total).toBe(200);
  });

  it('lets exactly one of two concurrent requests take an explicit serial number', async () => {
    const [a, b] = servers;
    if (a === undefined || b === undefined) throw new Error('servers did not start');
    const bank = await http(`${a.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Race 2', routingNumber: '011000015', accountNumber: '5678' }] },
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    for (let round = 0; round < 10; round += 1) {
      const body = { checks: [{ bankAccountId, noPayee: true, amount: 2, serialNumber: String(5000 + round) }] };
      const [first, second] = await Promise.all([
        http(`${a.url}/api/v3/checks`, { method: 'POST', key, body }),
        http(`${b.url}/api/v3/checks`, { method: 'POST', key, body }),
      ]);
      expect([first.status, second.status].sort()).toEqual([201, 422]);
      const loser = first.status === 422 ? first : second;
      expect(loser.body.errorMsg).toMatch(/serialNumber has already been taken\.$/);
    }
  });

  it('100 concurrent POST /checks with one Idempotency-Key on both servers create exactly one batch', async () => {
    const [a, b] = servers;
    if (a === undefined || b === undefined) throw new Error('servers did not start');
    const bank = await http(`${a.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Idem', routingNumber: '011000015', accountNumber: '7777' }] },
    });
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const body = { checks: Array.from({ length: 10 }, () => ({ bankAccountId, noPayee: true, amount: '9.99' })) };
    const responses = await Promise.all(
      Array.from({ length: 100 }, async (_, i) => {
        const response = await fetch(`${(i % 2 === 0 ? a : b).url}/api/v3/checks`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${key}`,
            'content-type': 'application/json',
            'idempotency-key': 'one-batch-please',
          },
          body: JSON.stringify(body),
        });
        return {
          status: response.status,
          text: await response.text(),
          replayed: response.headers.get('idempotent-replayed'),
        };
      }),
    );
    expect(responses.map((r) => r.status)).toEqual(responses.map(() => 201));
    expect(new Set(responses.map((r) => r.text)).size).toBe(1);
    expect(responses.filter((r) => r.replayed === null)).toHaveLength(1);
    const list = await http(`${a.url}/api/v3/checks?perPage=500`, { key });
    expect(
      list.body.data.checks.filter(
        (c: { bankAccount: { bankAccountId: string } }) => c.bankAccount.bankAccountId === bankAccountId,
      ),
    ).toHaveLength(10);
  });

  it('concurrent transitions on one check: exactly one void wins, the rest are told it is void', async () => {
    const [a, b] = servers;
    if (a === undefined || b === undefined) throw new Error('servers did not start');
    const bank = await http(`${a.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Void race', routingNumber: '011000015', accountNumber: '8888' }] },
    });
    const created = await http(`${a.url}/api/v3/checks`, {
      method: 'POST',
      key,
      body: { checks: [{ bankAccountId: bank.body.data.bankAccounts[0].bankAccountId, noPayee: true, amount: 1 }] },
    });
    const checkId = created.body.data.checks[0].checkId;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        http(`${(i % 2 === 0 ? a : b).url}/api/v3/checks/${checkId}/void`, { method: 'POST', key }),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      expect(r.status).toBe(422);
      expect(r.body.errorMsg).toBe('The check cannot be voided: its status is void.');
    }
    const check = await http(`${b.url}/api/v3/checks/${checkId}`, { key });
    expect(check.body.data.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'void']);
  });
});
