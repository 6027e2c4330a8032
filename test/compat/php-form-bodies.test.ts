// What the PHP SDK in the census sends: every body as application/x-www-form-urlencoded with PHP
// bracket keys (`payees[0][name]=…`), as PHP's http_build_query writes them: true and false as 1
// and 0, nulls left out, every value text. Each request is replayed beside its JSON twin and the
// answers compared whole; refusals must be the JSON path's refusals.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send, shape, type Method } from './support.ts';

/** PHP's http_build_query: nested keys in brackets, RFC 1738 encoding (space as +), booleans 1/0, nulls dropped. */
function httpBuildQuery(value: unknown, prefix = ''): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) =>
      httpBuildQuery(item, prefix === '' ? key : `${prefix}[${key}]`),
    );
  }
  const text = value === true ? '1' : value === false ? '0' : String(value);
  const encode = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return [`${encode(prefix)}=${encode(text)}`];
}

describe.each(dialects())('PHP SDK form bodies (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let basics: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('php@example.com');
    basics = await seedBasics(api);
  });
  afterAll(() => t.close());

  const form = (method: Method, url: string, body: unknown) =>
    send(t.app, {
      method,
      url,
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'user-agent': 'GuzzleHttp/7',
      },
      body: httpBuildQuery(body).join('&'),
    });
  const json = (method: Method, url: string, body: unknown) =>
    send(t.app, {
      method,
      url,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('creates payees, bank accounts, categories and addresses as the JSON twin does', async () => {
    const cases: [string, unknown, unknown?][] = [
      [
        '/payees',
        { payees: [{ name: 'Form Payee & Sons', email: 'a@b.test', zip: '02110', country: '' }, { name: 'Second' }] },
      ],
      [
        '/bankAccounts',
        {
          bankAccounts: [
            {
              name: 'Form Bank',
              bankName: 'First',
              accountNumber: '000123456789',
              bankRoutingNumber: '011000015',
              nickName: 'FB',
              bankZip: '02110',
              startingSerial: '7000',
              printOffsetX: '-5',
            },
          ],
        },
        // JSON's twin sends the offset as a number (a form has only text), for another real account
        // with the same last four digits (the same account twice is a duplicate).
        {
          bankAccounts: [
            {
              name: 'Form Bank',
              bankName: 'First',
              accountNumber: '999123456789',
              bankRoutingNumber: '011000015',
              nickName: 'FB',
              bankZip: '02110',
              startingSerial: '7000',
              printOffsetX: -5,
            },
          ],
        },
      ],
      ['/categories', { name: 'Rent', type: 'expense' }],
      ['/categories', { categories: [{ name: 'Utilities' }, { name: 'Travel', type: 'expense' }] }],
    ];
    for (const [url, body, twin] of cases) {
      const viaForm = await form('POST', url, body);
      const viaJson = await json('POST', url, twin ?? body);
      expect(viaForm.status, `${url} ${viaForm.raw}`).toBe(201);
      expect(shape(viaForm.body), url).toEqual(shape(viaJson.body));
    }
  });

  it('writes checks: amounts as text, 1/0 flags, a voucher with a quantity, nulls left out', async () => {
    const body = {
      checks: [
        {
          bankAccountId: basics.bankAccountId,
          payeeId: basics.payeeId,
          amount: '1234.56',
          memo: 'Form check',
          noSign: false,
          noDate: true,
          issueDate: '2026-11-02',
          serialNumber: null,
          voucher: {
            voucherNumber: 'V-9',
            date: '2026-11-01',
            voucherItems: [{ invoiceNumber: 'INV-1', name: 'Widgets', quantity: 3, unitCost: '2.50', total: '7.50' }],
          },
        },
      ],
    };
    const viaForm = await form('POST', '/checks', body);
    expect(viaForm.status, viaForm.raw).toBe(201);
    const viaJson = await json('POST', '/checks', { checks: [{ ...body.checks[0], noSign: 0, noDate: 1 }] });
    expect(shape(viaForm.body)).toEqual(shape(viaJson.body));
    const checkId = viaForm.body.data.checks[0].checkId;
    expect((await api.get(`/checks/${checkId}`)).body.data).toMatchObject({ amount: 1234.56, date: '2026-11-02' });
    const voucher = (await api.get(`/checks/${checkId}/voucher`)).body.data;
    expect(voucher.voucherItems[0]).toMatchObject({ quantity: 3, unitCost: '2.50', total: '7.50' });
  });

  it('quickpay, mailchecks and PUT /payees as forms', async () => {
    const paid = await form('POST', '/quickpay/check', {
      source: { accountType: 'bankaccount', accountId: basics.bankAccountId },
      destination: { name: 'Form Quickpay', address1: '1 Elm', city: 'Salem', state: 'MA', zip: '01970' },
      payment_details: { amount: '88.10', memo: 'via form', referenceID: 'php-1' },
    });
    expect(paid.status, paid.raw).toBe(201);
    expect(paid.body.data.amount).toBe('88.10');
    const mailed = await form('POST', '/mailchecks', {
      mailChecks: [
        { checkId: paid.body.data.checkId, shippingTypeId: 1, enableEmailInform: true, payeeEmail: 'pay@form.test' },
      ],
    });
    expect(mailed.status, mailed.raw).toBe(200);
    expect(mailed.body.data.mailings[0]).toMatchObject({
      shippingTypeId: 1,
      enableEmailInform: true,
      payeeEmail: 'pay@form.test',
    });
    const renamed = await form('PUT', `/payees/${basics.payeeId}`, { nickName: 'Acme', phone: '' });
    expect(renamed.status, renamed.raw).toBe(200);
    expect((await api.get(`/payees/${basics.payeeId}`)).body.data).toMatchObject({ nickName: 'Acme', phone: '' });
  });

  it('refusals are the JSON path refusals, field for field', async () => {
    const cases: [string, unknown][] = [
      ['/payees', { payees: [{ email: 'x@y.test' }] }],
      ['/payees', { payees: [{ name: 'X', unknown: '1' }] }],
      ['/payees', { payees: [{ name: 'X', email: 'not-an-email' }] }],
      ['/checks', { checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payeeId, amount: '1.005' }] }],
      ['/checks', { checks: [{ bankAccountId: 'bank_nope', payeeId: basics.payeeId, amount: '1' }] }],
      [
        '/checks',
        { checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payeeId, amount: '1', noSign: 'yes' }] },
      ],
      [
        '/checks',
        { checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payeeId, amount: '1', memo: 'a\tb' }] },
      ],
      ['/bankAccounts', { bankAccounts: [{ name: 'B', accountNumber: '1234', bankRoutingNumber: '123' }] }],
    ];
    for (const [url, body] of cases) {
      const viaForm = await form('POST', url, body);
      const viaJson = await json('POST', url, body);
      expect(viaForm.status, `${url} ${viaForm.raw}`).toBe(422);
      expect(viaForm.body, JSON.stringify(body)).toEqual(viaJson.body);
    }
    // A number field sent as something that is not one: the same message as JSON's string.
    const offset = await form('POST', '/bankAccounts', {
      bankAccounts: [{ name: 'B', accountNumber: '1234', routingNumber: '011000015', printOffsetX: 'left' }],
    });
    expect(offset.body).toEqual({
      success: false,
      errorMsg: 'The bankAccounts.0.printOffsetX field must be an integer.',
    });
  });

  it('an empty form is no body, and a form on a route without a body is not read', async () => {
    const empty = await form('POST', '/checks', {});
    expect(empty.status).toBe(400);
    expect(empty.body.success).toBe(false);
    const made = await json('POST', '/checks', {
      checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payeeId, amount: 5 }],
    });
    const voided = await form('POST', `/checks/${made.body.data.checks[0].checkId}/void`, { anything: 'x' });
    expect(voided.status, voided.raw).toBe(200);
  });
});
