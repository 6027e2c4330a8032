// What a workflow-automation connector for the hosted service sends (its dropdowns page through
// the lists with a page counter that starts at 0, and a page size built from a count that can be
// 0), replayed request by request, beside the strict form of the same request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send, shape } from './support.ts';

describe.each(dialects())('workflow connector (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let headers: Record<string, string>;
  let basics: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('connector@example.com');
    basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    // The connector's own header set: JSON both ways, on every request, GETs included.
    headers = {
      authorization: `Bearer ${api.key}`,
      'content-type': 'application/json',
      accept: 'application/json',
      'user-agent': 'axios/1.6.7',
    };
    const more = await api.post('/payees', { payees: Array.from({ length: 11 }, (_, i) => ({ name: `Payee ${i}` })) });
    expect(more.status).toBe(201);
  });
  afterAll(() => t.close());

  const get = (url: string) => send(t.app, { method: 'GET', url, headers });

  it('pages counted from 0: page=0 is the first page, and meta says page 1 was served', async () => {
    for (const list of [
      '/payees',
      '/bankAccounts',
      '/categories',
      '/customFromAddresses',
      '/customToAddresses',
      '/checks',
      '/sandbox/messages',
    ]) {
      const tolerated = await get(`${list}?page=0`);
      const strict = await get(`${list}?page=1`);
      expect(tolerated.status, list).toBe(200);
      expect(tolerated.body, list).toEqual(strict.body);
      expect(tolerated.body.data.meta.currentPage, list).toBe(1);
    }
  });

  it("perPage=0, negative and empty paging values clamp as Laravel's paginator does", async () => {
    const strict = await get('/payees?page=1&perPage=10');
    expect(strict.body.data.meta).toEqual({ total: 12, currentPage: 1, perPage: 10 });
    for (const query of [
      'perPage=0',
      'perPage=-3',
      'perPage=',
      'page=-1',
      'page=',
      'page=0&perPage=0',
      'page=-0&perPage=%2B10',
      'page=0001',
    ]) {
      const tolerated = await get(`/payees?${query}`);
      expect(tolerated.status, query).toBe(200);
      expect(tolerated.body, query).toEqual(strict.body);
    }
    const big = await get('/payees?perPage=100000');
    expect(big.body.data.meta).toEqual({ total: 12, currentPage: 1, perPage: 500 });
    expect(big.body.data.payees).toHaveLength(12);
  });

  it('walks every page from 0 until an empty one, as the dropdowns do, and sees each payee once', async () => {
    const seen: string[] = [];
    for (let page = 0; page < 10; page += 1) {
      const res = await get(`/payees?page=${page}&perPage=5`);
      expect(res.status).toBe(200);
      if (res.body.data.payees.length === 0) break;
      // page 0 and page 1 are the same page; a connector that starts at 0 sees page 1 twice.
      if (page === 0) continue;
      seen.push(...res.body.data.payees.map((p: { payeeId: string }) => p.payeeId));
    }
    expect(new Set(seen).size).toBe(12);
    expect(seen).toHaveLength(12);
  });

  it('numbers too large for SQL clamp (page) or are refused (not decimal), never a 500', async () => {
    for (const list of [
      '/payees',
      '/bankAccounts',
      '/categories',
      '/customFromAddresses',
      '/customToAddresses',
      '/checks',
      '/sandbox/messages',
    ]) {
      const huge = await get(`${list}?page=99999999999999999999&perPage=99999999999999999999`);
      expect(huge.status, list).toBe(200);
      expect(huge.body.data.meta, list).toMatchObject({ currentPage: 1_000_000_000, perPage: 500 });
      expect(Object.values(huge.body.data).find(Array.isArray), list).toEqual([]);
      for (const bad of ['page=1e300', 'perPage=1e3', 'page=1.5', 'page=abc', 'page=0x10', 'page=%201']) {
        const res = await get(`${list}?${bad}`);
        expect(res.status, `${list}?${bad}`).toBe(422);
        expect(res.body.errorMsg, `${list}?${bad}`).toMatch(/^The (page|perPage) field must be a whole number\.$/);
      }
    }
  });

  it('creates a mail check as the connector does: string ids, 0/1 flags, unset inputs left out', async () => {
    const made = await api.post('/checks', {
      checks: [
        { ...basics, amount: '40.00' },
        { ...basics, amount: '40.00' },
      ],
    });
    const [a, b] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    // The connector spreads `+enableSmsInform` (a number) and passes its string dropdown values as they are.
    const tolerated = await send(t.app, {
      method: 'POST',
      url: '/mailchecks',
      headers,
      body: JSON.stringify({
        isShippingToCustomAddress: false,
        mailChecks: [
          {
            checkId: a,
            shippingTypeId: '1',
            paperTypeId: '7',
            informTypeId: '10',
            enableSmsInform: 1,
            enableEmailInform: 0,
          },
        ],
      }),
    });
    expect(tolerated.status, tolerated.raw).toBe(200);
    const strict = await api.post('/mailchecks', {
      mailChecks: [
        {
          checkId: b,
          shippingTypeId: 1,
          paperTypeId: 7,
          informTypeId: 10,
          enableSmsInform: true,
          enableEmailInform: false,
        },
      ],
    });
    expect(strict.status, strict.raw).toBe(200);
    expect(shape(tolerated.body)).toEqual(shape(strict.body));
    expect(tolerated.body.data.mailings[0]).toMatchObject({
      shippingTypeId: 1,
      paperTypeId: 7,
      enableSmsInform: true,
      enableEmailInform: false,
      payeePhone: '+14155552671',
      isShippingToCustomAddress: false,
    });
  });

  it('sends JSON headers on a body-less POST and DELETE: an empty body is no body', async () => {
    const made = await api.post('/checks', {
      checks: [
        { ...basics, amount: '12.00' },
        { ...basics, amount: '12.00' },
      ],
    });
    const [a, b] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    const tolerated = await send(t.app, { method: 'POST', url: `/checks/${a}/void`, headers, body: '' });
    const strict = await api.post(`/checks/${b}/void`);
    expect(tolerated.status).toBe(200);
    expect(shape(tolerated.body)).toEqual(shape(strict.body));
    // A route that needs a body still refuses an empty one, as it refuses a missing one.
    const noBody = await send(t.app, { method: 'POST', url: '/checks', headers, body: '' });
    expect(noBody.status).toBe(400);
    expect(noBody.body).toEqual((await api.post('/checks')).body);
  });
});
