// GET /checks?term= on the trigram indexes and the remembered totals (migration 011).
// The expected answer of every search is worked out here from what the API itself reports: the
// whole unfiltered list (the order every filtered list keeps) and each check's own read shape,
// matched by the rule the API decisions state (a case-insensitive substring of the check's text
// fields or its payee's current name, or the amount when the term reads as one). Enough checks
// are made that one search has more matches than the service keeps ids for, so both ways of
// finding a page (slices of a remembered list, and walking the checks) are exercised.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

const CHECKS = 2_600;
const PER_PAGE = 100;

interface Listed {
  checkId: string;
  serialNumber: string;
  amount: number | string;
  status: number;
  memo: string | null;
  invoiceNumber: string | null;
  referenceId: string | null;
  payee: { payeeId: string; name: string } | null;
}

/** Every check of the account, in list order, with the fields a term looks at. */
async function wholeList(api: Client): Promise<Listed[]> {
  const all: Listed[] = [];
  for (let page = 1; ; page += 1) {
    const res = await api.get(`/checks?perPage=${PER_PAGE}&page=${page}`);
    expect(res.status).toBe(200);
    all.push(...res.body.data.checks);
    if (res.body.data.checks.length < PER_PAGE) return all;
  }
}

function matches(check: Listed, term: string, cents: number | null): boolean {
  const t = term.toLowerCase();
  const text = [check.serialNumber, check.memo, check.invoiceNumber, check.referenceId]
    .filter((v): v is string => v !== null && v !== undefined)
    .some((v) => v.toLowerCase().includes(t));
  return (
    text ||
    (check.payee?.name.toLowerCase().includes(t) ?? false) ||
    (cents !== null && Math.round(Number(check.amount) * 100) === cents)
  );
}

describe.each(dialects())('check search at %s', (dialect) => {
  let t: TestApp;
  let api: Client;
  let list: Listed[];
  let payees: string[];
  let bankAccountId = '';

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('search@example.com');
    const basics = await seedBasics(api, { name: 'Harbor Freight' });
    const more = await api.post('/payees', {
      payees: [{ name: 'Crème Brûlée Café' }, { name: 'Blue Ridge Supplies' }],
    });
    bankAccountId = basics.bankAccountId;
    expect(more.status, more.raw.slice(0, 300)).toBe(201);
    payees = [basics.payeeId, ...more.body.data.payees.map((p: { payeeId: string }) => p.payeeId)];
    const memos = ['Consulting services', 'IT services', 'Legal SERVICES', 'Rent', '100% paid', 'snake_case memo'];
    for (let start = 0; start < CHECKS; start += 500) {
      const batch = [];
      for (let i = start; i < Math.min(CHECKS, start + 500); i += 1)
        batch.push({
          bankAccountId: basics.bankAccountId,
          payeeId: payees[i % 3],
          amount: i % 7 === 0 ? '15' : ((100 + (i % 500)) / 100).toFixed(2),
          // Five of six memos in ten are "services": more matches than the service keeps ids for.
          memo: i % 10 < 9 ? memos[i % 3] : memos[3 + (i % 3)],
          invoiceNumber: `INV-${String(i).padStart(5, '0')}`,
          referenceId: `ref-${i}`,
        });
      const res = await api.post('/checks', { checks: batch });
      expect(res.status, res.raw.slice(0, 300)).toBe(201);
    }
    list = await wholeList(api);
    expect(list).toHaveLength(CHECKS);
    // Checks that match every term above but belong to other owners (another account, this
    // account's live environment): never counted or listed here. On SQLite the broad text count is
    // the whole index minus these (store/checks/search.ts), so they must be subtracted exactly.
    for (const other of [
      await t.client('search-other@example.com'),
      await t.client('search@example.com', { env: 'live' }),
    ]) {
      const theirs = await seedBasics(other, { name: 'Harbor Freight' });
      const res = await other.post('/checks', {
        checks: Array.from({ length: 30 }, (_, i) => ({
          bankAccountId: theirs.bankAccountId,
          payeeId: theirs.payeeId,
          amount: '15',
          memo: `Consulting services, Crème Brûlée 100% e_c snake_case ${i}`,
          invoiceNumber: `INV-0012${i}`,
          ...(i === 0 ? { referenceId: 'ref-7' } : {}),
        })),
      });
      expect(res.status, res.raw.slice(0, 300)).toBe(201);
    }
  }, 240_000);
  afterAll(() => t.close());

  async function expectSearch(
    query: string,
    term: string,
    cents: number | null,
    only: { status?: number; referenceId?: string } = {},
  ) {
    const expected = list.filter(
      (c) =>
        matches(c, term, cents) &&
        (only.status === undefined || c.status === only.status) &&
        (only.referenceId === undefined || c.referenceId === only.referenceId),
    );
    const first = await api.get(`/checks?${query}&perPage=${PER_PAGE}&page=1`);
    expect(first.status).toBe(200);
    expect(first.body.data.meta.total).toBe(expected.length);
    const pages = Math.max(1, Math.ceil(expected.length / PER_PAGE));
    for (const page of new Set([1, 2, Math.ceil(pages / 2), pages, pages + 1])) {
      const res = await api.get(`/checks?${query}&perPage=${PER_PAGE}&page=${page}`);
      expect(res.body.data.meta.total).toBe(expected.length);
      expect(res.body.data.checks.map((c: Listed) => c.checkId)).toEqual(
        expected.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((c) => c.checkId),
      );
    }
    return expected.length;
  }

  it('a broad term (more matches than are remembered) pages like the unfiltered list, any case', async () => {
    expect(await expectSearch('term=services', 'services', null)).toBeGreaterThan(2_000);
    expect(await expectSearch('term=SeRvIcEs', 'services', null)).toBeGreaterThan(2_000);
    expect(await expectSearch('term=vices&status=new', 'vices', null, { status: 0 })).toBeGreaterThan(2_000);
  });

  it('narrow terms, short terms, payee names with accents, and LIKE wildcards taken literally', async () => {
    expect(await expectSearch('term=INV-0012', 'INV-0012', null)).toBe(10);
    expect(await expectSearch('term=inv-02599', 'inv-02599', null)).toBe(1);
    expect(await expectSearch('term=%C3%BBl', 'ûl', null)).toBeGreaterThan(800);
    expect(await expectSearch('term=br%C3%BBl%C3%A9e', 'brûlée', null)).toBeGreaterThan(800);
    expect(await expectSearch('term=100%25', '100%', null)).toBeGreaterThan(0);
    expect(await expectSearch('term=e_c', 'e_c', null)).toBeGreaterThan(0);
    expect(await expectSearch('term=e%25c', 'e%c', null)).toBe(0);
    expect(await expectSearch('term=%22quoted%22', '"quoted"', null)).toBe(0);
    expect(await expectSearch('term=zz', 'zz', null)).toBe(0);
  });

  it('a term that reads as an amount matches the amount as well as the text', async () => {
    const n = await expectSearch('term=15', '15', 1500);
    expect(n).toBeGreaterThan(list.filter((c) => Number(c.amount) === 15).length);
    expect(await expectSearch('term=15.00&referenceId=ref-7', '15.00', 1500, { referenceId: 'ref-7' })).toBe(1);
    // Three characters or more: the amount counted as a difference, from the amount's own index
    // alone, and with a status (each check of the amount read).
    expect(await expectSearch('term=15.00', '15.00', 1500)).toBeGreaterThanOrEqual(
      list.filter((c) => Number(c.amount) === 15).length,
    );
    expect(await expectSearch('term=15.00&status=new', '15.00', 1500, { status: 0 })).toBeGreaterThan(0);
  });

  it('a remembered total moves at once with a new check, an edit, a payee rename, a void and a delete', async () => {
    const total = async (query: string) => (await api.get(`/checks?${query}`)).body.data.meta.total as number;
    const before = await total('term=services');
    const voidBefore = await total('term=services&status=void');

    const created = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId: payees[0], amount: 3, memo: 'More services' }],
    });
    expect(created.status).toBe(201);
    const newId = created.body.data.checks[0].checkId as string;
    expect(await total('term=services')).toBe(before + 1);

    expect((await api.put(`/checks/${newId}`, { memo: 'Plain memo' })).status).toBe(200);
    expect(await total('term=services')).toBe(before);
    expect((await api.put(`/checks/${newId}`, { memo: 'Back to services' })).status).toBe(200);
    expect(await total('term=services')).toBe(before + 1);

    const harbor = await total('term=harbor');
    expect((await api.put(`/payees/${payees[0]}`, { name: 'Quay Haulage' })).status).toBe(200);
    expect(await total('term=harbor')).toBe(0);
    expect(await total('term=haulage')).toBe(harbor);

    expect((await api.post(`/checks/${newId}/void`)).status).toBe(200);
    expect(await total('term=services&status=void')).toBe(voidBefore + 1);

    const another = await api.post('/checks', {
      checks: [{ bankAccountId, payeeId: payees[0], amount: 4, memo: 'services again' }],
    });
    const anotherId = another.body.data.checks[0].checkId as string;
    expect(await total('term=services')).toBe(before + 2);
    expect((await api.delete(`/checks/${anotherId}`)).status).toBe(200);
    expect(await total('term=services')).toBe(before + 1);
  });
});
