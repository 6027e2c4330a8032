// Deep pages of GET /checks start from remembered page anchors, so a deep page costs what a first
// page does. The expected pages come from the order the checks were made in, as the create
// responses report them (the list is newest first), not from the list itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureAccount } from '../../src/services/api-key.service.ts';
import { listChecks } from '../../src/services/checks/list.service.ts';
import { type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const CHECKS = 12_500;
const PER_PAGE = 100;

describe.each(dialects())('deep pages at %s', (dialect) => {
  let t: TestApp;
  let api: Client;
  /** Newest first, as the list shows them. */
  let expected: string[] = [];
  let basics: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('deep@example.com');
    basics = await seedBasics(api);
    const made: string[] = [];
    for (let start = 0; start < CHECKS; start += 500) {
      const batch = Array.from({ length: 500 }, (_, i) => ({ ...basics, amount: '1.00', memo: `m${start + i}` }));
      const res = await api.post('/checks', { checks: batch });
      expect(res.status, res.raw.slice(0, 300)).toBe(201);
      made.push(...res.body.data.checks.map((c: { checkId: string }) => c.checkId));
    }
    expected = made.reverse();
  }, 240_000);
  afterAll(() => t.close());

  async function expectPage(page: number, query = ''): Promise<void> {
    const res = await api.get(`/checks?perPage=${PER_PAGE}&page=${page}${query}`);
    expect(res.status).toBe(200);
    expect(res.body.data.meta.total).toBe(expected.length);
    expect(res.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual(
      expected.slice((page - 1) * PER_PAGE, page * PER_PAGE),
    );
  }

  it('every page past the anchored depth holds exactly the checks the create order says, all and by status', async () => {
    const pages = Math.ceil(CHECKS / PER_PAGE);
    for (let page = 95; page <= pages + 1; page += 1) await expectPage(page);
    for (const page of [101, 110, 125]) await expectPage(page, '&status=new');
    // A perPage that does not divide the anchor spacing: pages straddle two anchors.
    const res = await api.get('/checks?perPage=300&page=35');
    expect(res.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual(expected.slice(10_200, 10_500));
  });

  it('after a new check, a delete and a void, deep pages move with the list at once', async () => {
    const created = await api.post('/checks', { checks: [{ ...basics, amount: '2.00' }] });
    expected.unshift(created.body.data.checks[0].checkId);
    await expectPage(120);
    const gone = expected[11_000] ?? '';
    expect((await api.delete(`/checks/${gone}`)).status).toBe(200);
    expected.splice(11_000, 1);
    await expectPage(111);
    await expectPage(112);
    const voided = expected[10_500] ?? '';
    expect((await api.post(`/checks/${voided}/void`)).status).toBe(200);
    const byStatus = await api.get(`/checks?perPage=${PER_PAGE}&page=106&status=new`);
    const stillNew = expected.filter((id) => id !== voided);
    expect(byStatus.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual(
      stillNew.slice(10_500, 10_600),
    );
  });

  it('once the recount interval has passed, a changed list is anchored afresh and its deep pages still hold', async () => {
    // The service itself, with a clock 11 s ahead: the anchors counted before the changes above
    // are stale and old enough to be counted again (the API path within 10 s skips instead).
    const { account } = await ensureAccount(t.database.db, { email: 'deep@example.com', verified: true });
    const owner = { accountId: account.id, env: 'test' as const };
    const later = { db: t.database.db, now: () => Date.now() + 11_000 };
    const created = await api.post('/checks', { checks: [{ ...basics, amount: '3.00' }] });
    expected.unshift(created.body.data.checks[0].checkId);
    for (const page of [105, 118, 126]) {
      const listed = await listChecks(later, owner, {
        perPage: PER_PAGE,
        page,
        term: null,
        status: null,
        referenceId: null,
      });
      expect(listed.total).toBe(expected.length);
      expect(listed.checks.map((c) => c.id)).toEqual(expected.slice((page - 1) * PER_PAGE, page * PER_PAGE));
    }
  });
});
