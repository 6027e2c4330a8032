// Queueing a check for mailing changes no status, so it cannot rely on a status compare-and-set
// to exclude concurrent printing, emailing or deleting, nor a second mailing: the check's
// row is locked on both sides. These requests race on purpose; whatever the interleaving, a check
// never ends up both moved (or gone) and waiting in the mail queue, nor queued twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

const ROUNDS = 25;

describe.each(dialects())('mailing races (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('races@example.com', { verified: true });
    ids = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
  });
  afterAll(() => t.close());

  const newChecks = async (n: number): Promise<string[]> => {
    const made = await api.post('/checks', { checks: Array.from({ length: n }, () => ({ ...ids, amount: '10.00' })) });
    expect(made.status).toBe(201);
    return made.body.data.checks.map((c: { checkId: string }) => c.checkId);
  };
  const mail = (id: string) => api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 1 }] });
  const queued = async (id: string): Promise<number> =>
    Number(
      (
        await t.database.db.get<{ n: number }>(
          "SELECT COUNT(*) AS n FROM mailings WHERE check_id = ? AND status = 'queued'",
          [id],
        )
      )?.n ?? 0,
    );

  it.each([
    ['printed', (id: string) => api.post('/checks/print', { checkIds: [id] })],
    ['emailed', (id: string) => api.post('/emailchecks', { emailChecks: [{ checkId: id }] })],
  ] as const)('a check is never both %s and queued for mailing', async (what, other) => {
    for (const id of await newChecks(ROUNDS)) {
      const [mailed, moved] = await Promise.all([mail(id), other(id)]);
      // Exactly one of the two wins; the loser is told why with a 422.
      expect([mailed.status, moved.status].sort(), `${what} ${id}`).toEqual([200, 422]);
      const check = (await api.get(`/checks/${id}`)).body.data;
      expect(check.status === 0, `${what} ${id}`).toBe(mailed.status === 200);
      expect(await queued(id)).toBe(mailed.status === 200 ? 1 : 0);
    }
  });

  it('a check is never queued twice, nor deleted while queued', async () => {
    for (const id of await newChecks(ROUNDS)) {
      const results = await Promise.all([mail(id), mail(id)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 422]);
      expect(await queued(id)).toBe(1);
    }
    for (const id of await newChecks(ROUNDS)) {
      const [mailed, deleted] = await Promise.all([mail(id), api.delete(`/checks/${id}`)]);
      expect([mailed.status, deleted.status].sort()).toEqual([200, 422]);
      const exists = (await api.get(`/checks/${id}`)).status === 200;
      expect(exists).toBe(mailed.status === 200);
      expect(await queued(id)).toBe(mailed.status === 200 ? 1 : 0);
    }
  });
});
