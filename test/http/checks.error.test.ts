import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('checks, errors (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };
  const countChecks = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'))?.n);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('errors@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  const cases: [string, unknown, string][] = [
    [
      'missing amount names the item index',
      { checks: [{ ...{}, amount: 1 }, {}] },
      'The checks.0.bankAccountId field is required.',
    ],
    ['empty batch', { checks: [] }, 'The checks field must have at least 1 item.'],
    ['no checks key', {}, 'The checks field is required.'],
    ['unknown top-level field', { checks: [], extra: 1 }, 'The extra field is not allowed.'],
  ];

  it.each(cases)('422: %s', async (_name, body, message) => {
    const res = await api.post('/checks', body);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ success: false, errorMsg: message });
  });

  it('422 with Laravel-style messages for each rule, writing nothing', async () => {
    const before = await countChecks();
    const item = { ...ids, amount: 10 };
    const expectations: [unknown, string][] = [
      [{ ...item, amount: undefined }, 'The checks.1.amount field is required.'],
      [{ ...item, payeeId: undefined }, 'The checks.1.payeeId field is required.'],
      [{ ...item, amount: -5 }, 'The checks.1.amount field must be greater than 0.'],
      [{ ...item, amount: 0 }, 'The checks.1.amount field must be greater than 0.'],
      [{ ...item, amount: 1.005 }, 'The checks.1.amount field must have at most 2 decimal places.'],
      [{ ...item, amount: '12abc' }, 'The checks.1.amount field must be a number.'],
      [{ ...item, amount: 100000000 }, 'The checks.1.amount field must not be greater than 99999999.99.'],
      [{ ...item, amount: true }, 'The checks.1.amount field must be a number.'],
      [{ ...item, memo: 'x'.repeat(151) }, 'The checks.1.memo field must not be greater than 150 characters.'],
      [
        { ...item, accountNumber: 'x'.repeat(51) },
        'The checks.1.accountNumber field must not be greater than 50 characters.',
      ],
      [
        { ...item, issueDate: '2026-02-30' },
        'The checks.1.issueDate field must be a valid date: February 2026 has 28 days.',
      ],
      [{ ...item, serialNumber: '12a' }, 'The checks.1.serialNumber field must contain digits only (at most 15).'],
      [{ ...item, noSign: 'yes' }, 'The checks.1.noSign field must be true or false.'],
      [{ ...item, customElements: { element11: 'x' } }, 'The checks.1.customElements.element11 field is not allowed.'],
      [
        { ...item, customElements: { element1: 'x'.repeat(101) } },
        'The checks.1.customElements.element1 field must not be greater than 100 characters.',
      ],
      [{ ...item, colour: 'blue' }, 'The checks.1.colour field is not allowed.'],
      [{ ...item, bankAccountId: 'bank_unknown' }, 'The selected checks.1.bankAccountId is invalid.'],
      [{ ...item, payeeId: 'pay_unknown' }, 'The selected checks.1.payeeId is invalid.'],
      [{ ...item, categoryId: 'cat_unknown' }, 'The selected checks.1.categoryId is invalid.'],
      [{ ...item, voucherId: 'vch_unknown' }, 'The selected checks.1.voucherId is invalid.'],
    ];
    for (const [bad, message] of expectations) {
      const res = await api.post('/checks', { checks: [item, bad] });
      expect(res.status, message).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect(await countChecks()).toBe(before);
  });

  it('refuses duplicate serial numbers and reference ids, in the batch and against stored checks', async () => {
    const first = await api.post('/checks', {
      checks: [{ ...ids, amount: 1, serialNumber: '9001', referenceId: 'dup-ref' }],
    });
    expect(first.status).toBe(201);
    const before = await countChecks();
    const again = [
      [{ checks: [{ ...ids, amount: 1, serialNumber: '9001' }] }, 'The checks.0.serialNumber has already been taken.'],
      [
        { checks: [{ ...ids, amount: 1, serialNumber: '009001' }] },
        'The checks.0.serialNumber has already been taken.',
      ],
      [{ checks: [{ ...ids, amount: 1, referenceId: 'dup-ref' }] }, 'The checks.0.referenceId has already been taken.'],
      [
        {
          checks: [
            { ...ids, amount: 1, serialNumber: '9100' },
            { ...ids, amount: 1, serialNumber: '9100' },
          ],
        },
        'The checks.1.serialNumber field has a duplicate value.',
      ],
      [
        {
          checks: [
            { ...ids, amount: 1, referenceId: 'x' },
            { ...ids, amount: 1, referenceId: 'x' },
          ],
        },
        'The checks.1.referenceId field has a duplicate value.',
      ],
    ] as const;
    for (const [body, message] of again) {
      const res = await api.post('/checks', body);
      // A referenceId already used is answered with the check holding it (docs/api-notes.md, "Duplicates").
      const existing = message.includes('referenceId has already')
        ? { checkId: first.body.data.checks[0].checkId }
        : {};
      expect(res.body).toEqual({ success: false, errorMsg: message, ...existing });
      expect(res.status).toBe(422);
    }
    expect(await countChecks()).toBe(before);
  });

  it('caps a batch at 500 items', async () => {
    const res = await api.post('/checks', { checks: Array.from({ length: 501 }, () => ({ ...ids, amount: 1 })) });
    expect(res.status).toBe(422);
    expect(res.body.errorMsg).toBe('The checks field must not have more than 500 items.');
  });

  it('400 for bodies that are not JSON', async () => {
    for (const payload of ['{"checks": [', 'not json', '']) {
      const res = await t.app.inject({
        method: 'POST',
        url: `${BASE}/checks`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(JSON.parse(res.body)).toEqual({
        success: false,
        errorMsg: expect.stringContaining('could not be parsed'),
      });
    }
    const wrongType = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(wrongType.statusCode).toBe(400);
    const noBody = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(noBody.statusCode).toBe(400);
    const array = await api.post('/checks', []);
    expect(array.status).toBe(422);
    expect(array.body).toEqual({ success: false, errorMsg: 'The body field must be an object.' });
  });

  it('413 for a body over the limit', async () => {
    const small = await startTestApp(dialect, { BODY_LIMIT_BYTES: '2048' });
    try {
      const client = await small.client('big@example.com');
      const res = await client.post('/checks', { checks: [{ ...ids, memo: 'x'.repeat(4000) }] });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ success: false, errorMsg: 'The request body is too large.' });
    } finally {
      await small.close();
    }
  });

  it('422 for bad list queries, 404 for unknown checks', async () => {
    for (const [query, message] of [
      ['perPage=abc', 'The perPage field must be a whole number.'],
      ['page=1e300', 'The page field must be a whole number.'],
      ['page=1.5', 'The page field must be a whole number.'],
      ['status=lost', 'The status field must be one of new, printed, mailed, emailed, eprinted, void, refunded.'],
    ]) {
      const res = await api.get(`/checks?${query}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    const missing = await api.get('/checks/chk_doesnotexist');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, errorMsg: 'Check not found.' });
    expect((await api.get('/checks/chk_doesnotexist/voucher')).status).toBe(404);
    expect((await api.post('/checks/chk_doesnotexist/voucher', {})).status).toBe(404);
  });

  it('429 with Retry-After past the per-key rate', async () => {
    const limited = await startTestApp(dialect, { RATE_LIMIT_PER_KEY: '2' });
    try {
      const client = await limited.client('fast@example.com');
      const statuses: number[] = [];
      let retryAfter: unknown;
      for (let i = 0; i < 8; i += 1) {
        const res = await client.get('/checks');
        statuses.push(res.status);
        if (res.status === 429) {
          retryAfter = res.headers['retry-after'];
          expect(res.body).toEqual({ success: false, errorMsg: expect.stringContaining('Too many requests') });
        }
      }
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(4);
      expect(statuses).toContain(429);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    } finally {
      await limited.close();
    }
  });
});
