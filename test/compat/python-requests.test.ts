// What a Python script built on `requests` sends to the hosted service, replayed request by
// request: requests' default headers (`Accept: */*`, its User-Agent), a session that sets
// `Content-Type: application/json` for every call (so DELETE and body-less POSTs carry it with
// an empty body and Content-Length: 0), `json.dumps` bodies where None is `null`, and a key pasted
// with a trailing space. Each request is checked against the strict form of the same request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send, shape, type Method } from './support.ts';

/** Python's json.dumps default separators: ", " and ": ". */
const dumps = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/,(?=["{[\]0-9nft-])/g, ', ')
    .replace(/":(?=[^\s])/g, '": ');

describe.each(dialects())('python requests script (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let basics: { bankAccountId: string; payeeId: string };
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('python@example.com');
    basics = await seedBasics(api);
    headers = {
      'user-agent': 'python-requests/2.31.0',
      'accept-encoding': 'gzip, deflate',
      accept: '*/*',
      connection: 'keep-alive',
      'content-type': 'application/json',
      authorization: `Bearer ${api.key} `,
    };
  });
  afterAll(() => t.close());

  const py = (method: Method, url: string, body?: unknown) =>
    send(t.app, {
      method,
      url,
      headers: { ...headers, ...(body === undefined && method !== 'GET' ? { 'content-length': '0' } : {}) },
      body: body === undefined ? (method === 'GET' ? undefined : '') : dumps(body),
    });

  it('creates its 100 checks with None for the fields it leaves unset', async () => {
    const rows = Array.from({ length: 100 }, (_, i) => ({
      bankAccountId: basics.bankAccountId,
      payeeId: basics.payeeId,
      categoryId: null,
      serialNumber: null,
      issueDate: null,
      amount: 100 + i / 4,
      memo: `Invoice ${i}`,
      note: null,
      accountNumber: null,
      invoiceNumber: null,
      referenceId: `py-${i}`,
      noSign: 0,
      voucherId: null,
      customElements: { element1: null, element2: 'x' },
    }));
    const tolerated = await py('POST', '/checks', { checks: rows });
    expect(tolerated.status, tolerated.raw).toBe(201);
    expect(tolerated.body.data.checks).toHaveLength(100);
    expect(tolerated.body.data.checks[1].amount).toBe('100.25');
    const strictRows = rows.map(
      ({
        categoryId: _c,
        serialNumber: _s,
        issueDate: _d,
        note: _n,
        accountNumber: _a,
        invoiceNumber: _i,
        voucherId: _v,
        referenceId,
        customElements: _e,
        ...rest
      }) => ({
        ...rest,
        referenceId: `${referenceId}-strict`,
        categoryId: null,
        voucherId: null,
        customElements: { element2: 'x' },
      }),
    );
    const strict = await api.post('/checks', { checks: strictRows });
    expect(strict.status).toBe(201);
    expect(shape(tolerated.body)).toEqual(shape(strict.body));
    const read = await py('GET', `/checks?referenceId=py-7`);
    const strictRead = await api.get('/checks?referenceId=py-7-strict');
    expect(read.body.data.checks[0]).toMatchObject({
      memo: 'Invoice 7',
      accountNumber: null,
      invoiceNumber: null,
      amount: 101.75,
    });
    expect(shape({ ...read.body.data.checks[0], referenceId: '' })).toEqual(
      shape({ ...strictRead.body.data.checks[0], referenceId: '' }),
    );
  });

  it('a null required field is "required", a null unknown field is still not allowed', async () => {
    const missing = await py('POST', '/checks', { checks: [{ ...basics, bankAccountId: null, amount: 5 }] });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ success: false, errorMsg: 'The checks.0.bankAccountId field is required.' });
    const unknown = await py('POST', '/checks', { checks: [{ ...basics, amount: 5, favourite: null }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toEqual({ success: false, errorMsg: 'The checks.0.favourite field is not allowed.' });
  });

  it('creates a payee with None for the fields it has not got, and null on update leaves a field alone', async () => {
    const tolerated = await py('POST', '/payees', {
      payees: [
        {
          name: 'Initech',
          nickName: null,
          company: null,
          email: 'ap@initech.test',
          phone: null,
          address1: null,
          address2: null,
          city: null,
          state: null,
          zip: null,
          country: null,
        },
      ],
    });
    const strict = await api.post('/payees', { payees: [{ name: 'Initech', email: 'ap@initech.test' }] });
    expect(tolerated.status, tolerated.raw).toBe(201);
    expect(shape(tolerated.body)).toEqual(shape(strict.body));
    const payeeId = tolerated.body.data.payees[0].payeeId as string;
    const update = await py('PUT', `/payees/${payeeId}`, { name: 'Initech LLC', email: null, phone: null });
    expect(update.status, update.raw).toBe(200);
    expect((await api.get(`/payees/${payeeId}`)).body.data).toMatchObject({
      name: 'Initech LLC',
      email: 'ap@initech.test',
      phone: '',
    });
    // Nothing but nulls changes nothing and answers as the empty body does: 200.
    const before = (await api.get(`/payees/${payeeId}`)).body.data;
    const empty = await py('PUT', `/payees/${payeeId}`, { name: null });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual((await api.put(`/payees/${payeeId}`, {})).body);
    expect((await api.get(`/payees/${payeeId}`)).body.data).toEqual(before);
  });

  it("a field whose null is a value keeps its meaning: null clears a check's category", async () => {
    const category = await api.post('/categories', { categories: [{ name: 'Rent' }] });
    const categoryId = category.body.data.categories[0].categoryId as string;
    const made = await py('POST', '/checks', {
      checks: [{ ...basics, amount: '10.00', categoryId, serialNumber: null }],
    });
    const checkId = made.body.data.checks[0].checkId as string;
    const cleared = await py('PUT', `/checks/${checkId}`, { categoryId: null, memo: null });
    expect(cleared.status, cleared.raw).toBe(200);
    const row = await t.database.db.get<{ category_id: string | null }>('SELECT category_id FROM checks WHERE id = ?', [
      checkId,
    ]);
    expect(row?.category_id ?? null).toBeNull();
  });

  it('nothing gets looser where money or ownership is at stake', async () => {
    // Amounts still parse exactly: a float the script computed is refused, not rounded.
    for (const amount of ['12.345', '1.0000000000000000001', 'abc', '1e400']) {
      const res = await send(t.app, {
        method: 'POST',
        url: '/checks',
        headers,
        body: `{"checks": [{"bankAccountId": "${basics.bankAccountId}", "payeeId": "${basics.payeeId}", "amount": ${amount}}]}`,
      });
      expect(res.status, amount).toBe(amount === 'abc' ? 400 : 422);
    }
    // Another account's ids: 404 in the path, 422 in a body, whatever the headers.
    const other = await t.client('other-python@example.com');
    const theirs = await seedBasics(other);
    expect((await py('DELETE', `/payees/${theirs.payeeId}`)).status).toBe(404);
    const foreign = await py('POST', '/checks', {
      checks: [{ ...basics, bankAccountId: theirs.bankAccountId, amount: 1, serialNumber: null }],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({ success: false, errorMsg: 'The selected checks.0.bankAccountId is invalid.' });
    expect((await other.get('/payees')).body.data.meta.total).toBe(1);
  });

  it('voids and deletes with Content-Type: application/json and an empty body', async () => {
    const made = await api.post('/checks', {
      checks: [
        { ...basics, amount: 3 },
        { ...basics, amount: 3 },
        { ...basics, amount: 3 },
        { ...basics, amount: 3 },
      ],
    });
    const [a, b, c, d] = made.body.data.checks.map((x: { checkId: string }) => x.checkId);
    const voided = await py('POST', `/checks/${a}/void`);
    expect(voided.status, voided.raw).toBe(200);
    expect(shape(voided.body)).toEqual(shape((await api.post(`/checks/${b}/void`)).body));
    const deleted = await py('DELETE', `/checks/${c}`);
    expect(deleted.status, deleted.raw).toBe(200);
    expect(deleted.body).toEqual((await api.delete(`/checks/${d}`)).body);
    const payee = await api.post('/payees', { payees: [{ name: 'Gone' }, { name: 'Gone too' }] });
    const [p1, p2] = payee.body.data.payees.map((x: { payeeId: string }) => x.payeeId);
    const gone = await py('DELETE', `/payees/${p1}`);
    expect(gone.status).toBe(200);
    expect(gone.body).toEqual((await api.delete(`/payees/${p2}`)).body);
    // Whitespace alone is no body either (a client that writes a newline).
    const blank = await send(t.app, { method: 'DELETE', url: `/payees/${p1}`, headers, body: ' \r\n' });
    expect(blank.status).toBe(404);
  });

  it('answers JSON to Accept: */*, a missing or misspelled Accept, and a key with a trailing space', async () => {
    const strict = await api.get('/payees');
    for (const variant of [
      { accept: '*/*' },
      { accept: 'application/jsn' },
      { accpet: 'application/json' },
      { accept: 'text/html' },
      {},
    ] as Record<string, string>[]) {
      const { accept: _drop, ...rest } = headers;
      const res = await send(t.app, { method: 'GET', url: '/payees', headers: { ...rest, ...variant } });
      expect(res.status, JSON.stringify(variant)).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual(strict.body);
    }
    for (const authorization of [
      `Bearer ${api.key} `,
      `Bearer  ${api.key}`,
      `bearer ${api.key}`,
      `BEARER ${api.key}\t`,
    ]) {
      const res = await send(t.app, { method: 'GET', url: '/payees', headers: { authorization } });
      expect(res.status, JSON.stringify(authorization)).toBe(200);
      expect(res.body).toEqual(strict.body);
    }
    // Leniency about spacing is not leniency about the key.
    for (const authorization of [`Bearer ${api.key}x`, `Bearer ${api.key} x`, `Token ${api.key}`, api.key]) {
      const res = await send(t.app, { method: 'GET', url: '/payees', headers: { authorization } });
      expect(res.status, authorization).toBe(401);
      expect(res.body).toEqual({ message: 'Unauthenticated.' });
    }
  });
});
