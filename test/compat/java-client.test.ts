// What a Java test client of the hosted service sends, replayed request by request: the
// `Accept: application/json, text/plain, */*` header, DTOs serialised by Jackson with every
// field present (null when unset) and ids and enums held as Strings (`"shippingTypeId": "1"`),
// and a category created unwrapped and read back as `data.categoryId`. Each request is checked
// against the strict form of the same request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send, shape, type Method } from './support.ts';

describe.each(dialects())('java test client (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let basics: { bankAccountId: string; payeeId: string };
  let headers: Record<string, string>;
  let toAddressId: string;
  let fromAddressId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('java@example.com');
    basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    headers = {
      authorization: `Bearer ${api.key}`,
      accept: 'application/json, text/plain, */*',
      'content-type': 'application/json',
      'user-agent': 'Java-http-client/17.0.9',
    };
    const to = await api.post('/customToAddresses', {
      addresses: [{ name: 'Me', addressLine1: '9 Elm St', city: 'Springfield', state: 'IL', zip: '62702' }],
    });
    toAddressId = to.body.data.addresses[0].customToAddressId;
    const from = await api.post('/customFromAddresses', {
      addresses: [
        {
          name: 'HQ',
          companyName: 'Java Co',
          addressLine1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
        },
      ],
    });
    fromAddressId = from.body.data.addresses[0].customFromAddressId;
  });
  afterAll(() => t.close());

  const java = (method: Method, url: string, body?: unknown) =>
    send(t.app, { method, url, headers, body: body === undefined ? '' : JSON.stringify(body) });
  const newChecks = async (n: number): Promise<string[]> => {
    const made = await api.post('/checks', {
      checks: Array.from({ length: n }, () => ({ ...basics, amount: '25.00' })),
    });
    return made.body.data.checks.map((c: { checkId: string }) => c.checkId);
  };

  it('creates a category unwrapped and reads data.categoryId; the batch form still works', async () => {
    const single = await java('POST', '/categories', { name: 'Office supplies', type: 'expense' });
    expect(single.status, single.raw).toBe(201);
    expect(single.body).toEqual({
      success: true,
      message: 'Category created successfully.',
      data: { categoryId: expect.stringMatching(/^cat_/), name: 'Office supplies', type: 'expense' },
    });
    const batch = await api.post('/categories', { categories: [{ name: 'Office supplies', type: 'expense' }] });
    expect(batch.status).toBe(201);
    expect(shape(batch.body.data.categories[0])).toEqual(shape(single.body.data));
    // Both are stored with their type, and listed with it.
    const listed = await api.get('/categories?term=expense');
    expect(listed.body.data.categories).toEqual([batch.body.data.categories[0], single.body.data]);
    // The category is usable at once, as the client goes on to do.
    const check = await java('POST', '/checks', {
      checks: [
        {
          ...basics,
          amount: '5.00',
          categoryId: single.body.data.categoryId,
          serialNumber: null,
          issueDate: null,
          memo: null,
        },
      ],
    });
    expect(check.status, check.raw).toBe(201);
    // No type is an empty type; a null type is no type.
    const untyped = await java('POST', '/categories', { name: 'Misc', type: null });
    expect(untyped.body.data).toMatchObject({ name: 'Misc', type: '' });
  });

  it('category creates stay strict where it matters', async () => {
    for (const [body, message] of [
      [{ name: '' }, 'The name field is required.'],
      [{ type: 'expense' }, 'The name field is required.'],
      [{ name: 'x'.repeat(101) }, 'The name field must not be greater than 100 characters.'],
      [{ name: 'Rent', type: 'x'.repeat(51) }, 'The type field must not be greater than 50 characters.'],
      [{ name: 'Rent', colour: 'red' }, 'The colour field is not allowed.'],
      [{ categories: [{ name: 'Rent', kind: 'x' }] }, 'The categories.0.kind field is not allowed.'],
      [{ categories: [] }, 'The categories field must have at least 1 item.'],
      [{ categories: [{ name: 'Rent' }], name: 'Rent' }, 'The name field is not allowed.'],
      [{}, 'The categories field is required.'],
    ] as const) {
      const res = await java('POST', '/categories', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual({ success: false, errorMsg: message });
    }
  });

  it('mails checks with ids and enums as strings, exactly as with numbers', async () => {
    const [a, b] = await newChecks(2);
    const item = {
      shippingTypeId: '3',
      paperTypeId: '8',
      informTypeId: '10',
      enableSmsInform: null,
      enableEmailInform: null,
      payeeEmail: null,
      payeePhone: null,
      customToAddressId: null,
    };
    const tolerated = await java('POST', '/mailchecks', { mailChecks: [{ checkId: a, ...item }] });
    expect(tolerated.status, tolerated.raw).toBe(200);
    const strict = await api.post('/mailchecks', {
      mailChecks: [{ checkId: b, shippingTypeId: 3, paperTypeId: 8, informTypeId: 10 }],
    });
    expect(strict.status, strict.raw).toBe(200);
    expect(shape(tolerated.body)).toEqual(shape(strict.body));
    expect(tolerated.body.data.mailings[0]).toMatchObject({
      shippingTypeId: 3,
      paperTypeId: 8,
      informTypeId: 10,
      enableSmsInform: true,
      payeePhone: '+14155552671',
      status: 'queued',
    });
  });

  it('every hosted POST /mailchecks field is accepted, validated, stored and returned', async () => {
    const [a] = await newChecks(1);
    const res = await java('POST', '/mailchecks', {
      isShippingToCustomAddress: true,
      customToAddressId: toAddressId,
      customFromAddressId: fromAddressId,
      customShippingTypeId: '12',
      mailChecks: [
        {
          checkId: a,
          shippingTypeId: 20,
          paperTypeId: 9,
          enableSmsInform: 1,
          enableEmailInform: 1,
          payeeEmail: 'payee@example.com',
          payeePhone: '(415) 555-0100',
        },
      ],
    });
    expect(res.status, res.raw).toBe(200);
    const expected = {
      checkId: a,
      shippingTypeId: 20,
      paperTypeId: 9,
      customToAddressId: toAddressId,
      status: 'queued',
      informTypeId: null,
      enableSmsInform: true,
      enableEmailInform: true,
      payeeEmail: 'payee@example.com',
      payeePhone: '+14155550100',
      isShippingToCustomAddress: true,
      customFromAddressId: fromAddressId,
      customShippingTypeId: 12,
    };
    expect(res.body.data.mailings[0]).toEqual({ mailingId: expect.stringMatching(/^mail_/), ...expected });
    // Stored, not only echoed: cancelling reads the mailing back from the database.
    const cancelled = await java('POST', `/mailchecks/${res.body.data.mailings[0].mailingId}/cancel`);
    expect(cancelled.status, cancelled.raw).toBe(200);
    expect(cancelled.body.data).toEqual({
      mailingId: res.body.data.mailings[0].mailingId,
      ...expected,
      status: 'cancelled',
    });
  });

  it("mailing options name the hosted service's shipping, paper and inform types", async () => {
    const res = await java('GET', '/mailchecks/mailingOptions');
    expect(res.body.data.shippingTypes.map((s: { shippingTypeId: number }) => s.shippingTypeId)).toEqual([
      1, 3, 4, 5, 12, 20,
    ]);
    expect(res.body.data.paperTypes).toEqual([
      { paperTypeId: 7, name: 'Regular Check Paper' },
      { paperTypeId: 8, name: 'Hologram Check Paper' },
      { paperTypeId: 9, name: 'Ultra Hologram Check Paper' },
    ]);
    expect(res.body.data.informTypes).toEqual([{ informTypeId: 10, name: 'Notify Receiver by SMS' }]);
  });

  it('string ids are still checked: unknown values, non-digits, foreign addresses and missing contacts are 422', async () => {
    const [a] = await newChecks(1);
    const other = await t.client('other-java@example.com');
    const foreignTo = await other.post('/customToAddresses', {
      addresses: [{ name: 'Them', addressLine1: '2 Oak St', city: 'Shelbyville', state: 'IL', zip: '62565' }],
    });
    const foreignToId = foreignTo.body.data.addresses[0].customToAddressId as string;
    const noContact = await api.post('/payees', {
      payees: [{ name: 'No Contact', address1: '3 Pine St', city: 'Springfield', state: 'IL', zip: '62703' }],
    });
    const quiet = await api.post('/checks', {
      checks: [{ ...basics, payeeId: noContact.body.data.payees[0].payeeId, amount: 1 }],
    });
    const quietId = quiet.body.data.checks[0].checkId as string;
    for (const [body, message] of [
      [{ mailChecks: [{ checkId: a, shippingTypeId: '2' }] }, 'The selected mailChecks.0.shippingTypeId is invalid.'],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: '1', paperTypeId: '1' }] },
        'The selected mailChecks.0.paperTypeId is invalid.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: '1', informTypeId: '11' }] },
        'The selected mailChecks.0.informTypeId is invalid.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 'one' }] },
        'The mailChecks.0.shippingTypeId field must be an integer.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: '1.0' }] },
        'The mailChecks.0.shippingTypeId field must be an integer.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: ' 1' }] },
        'The mailChecks.0.shippingTypeId field must be an integer.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 1, enableSmsInform: 'yes' }] },
        'The mailChecks.0.enableSmsInform field must be true or false.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 1, payeeEmail: 'nope' }] },
        'The mailChecks.0.payeeEmail field must be a valid email address.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 1, payeePhone: '123' }] },
        'The mailChecks.0.payeePhone field must be a valid phone number.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 1, customToAddressId: foreignToId }] },
        'The selected mailChecks.0.customToAddressId is invalid.',
      ],
      [
        { isShippingToCustomAddress: true, mailChecks: [{ checkId: a, shippingTypeId: 1 }] },
        'The customToAddressId field is required when isShippingToCustomAddress is true.',
      ],
      [
        { customToAddressId: foreignToId, mailChecks: [{ checkId: a, shippingTypeId: 1 }] },
        'The selected customToAddressId is invalid.',
      ],
      [
        { customFromAddressId: 'from_missing', mailChecks: [{ checkId: a, shippingTypeId: 1 }] },
        'The selected customFromAddressId is invalid.',
      ],
      [
        { customShippingTypeId: '2', mailChecks: [{ checkId: a, shippingTypeId: 1 }] },
        'The selected customShippingTypeId is invalid.',
      ],
      [
        { mailChecks: [{ checkId: quietId, shippingTypeId: 1, enableSmsInform: true }] },
        'The mailChecks.0.payeePhone field is required when enableSmsInform is true and the payee has no phone on record.',
      ],
      [
        { mailChecks: [{ checkId: quietId, shippingTypeId: 1, enableEmailInform: '1' }] },
        'The mailChecks.0.payeeEmail field is required when enableEmailInform is true and the payee has no email on record.',
      ],
      [
        { mailChecks: [{ checkId: a, shippingTypeId: 1, trackingNumber: 'x' }] },
        'The mailChecks.0.trackingNumber field is not allowed.',
      ],
      [{ mailChecks: [{ checkId: a, shippingTypeId: 1 }], priority: 1 }, 'The priority field is not allowed.'],
    ] as const) {
      const res = await java('POST', '/mailchecks', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body, JSON.stringify(body)).toEqual({ success: false, errorMsg: message });
    }
    // Nothing was queued by any of them.
    expect((await api.post(`/checks/${a}/void`)).status).toBe(200);
  });

  it('sends serial numbers back as it reads them, as strings', async () => {
    const created = await java('POST', '/bankAccounts', {
      bankAccounts: [
        {
          name: 'Payroll',
          routingNumber: '011000015',
          accountNumber: '987654321',
          startingSerial: '5001',
          bankName: null,
          customFromAddressId: null,
        },
      ],
    });
    expect(created.status, created.raw).toBe(201);
    const strict = await api.post('/bankAccounts', {
      // Another real account with the same last four digits: the same account twice is a duplicate (docs/api-notes.md).
      bankAccounts: [{ name: 'Payroll', routingNumber: '011000015', accountNumber: '111654321', startingSerial: 5001 }],
    });
    expect(
      shape({
        ...created.body,
        data: {
          bankAccounts: [
            { ...created.body.data.bankAccounts[0], nextSerial: created.body.data.bankAccounts[0].nextSerial },
          ],
        },
      }),
    ).toEqual(shape(strict.body));
    const account = created.body.data.bankAccounts[0];
    expect(account.nextSerial).toBe('5001');
    const moved = await java('PUT', `/bankAccounts/${account.bankAccountId}`, { nextSerial: '7000' });
    expect(moved.status, moved.raw).toBe(200);
    expect(moved.body.data.nextSerial).toBe('7000');
    for (const [nextSerial, message] of [
      ['0', 'The nextSerial field must be at least 1.'],
      ['12.5', 'The nextSerial field must be an integer.'],
      ['1000000000000', 'The nextSerial field must be an integer.'],
      [0, 'The nextSerial field must be at least 1.'],
      [-3, 'The nextSerial field must be an integer.'],
    ] as const) {
      const res = await java('PUT', `/bankAccounts/${account.bankAccountId}`, { nextSerial });
      expect(res.status, String(nextSerial)).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
  });

  it('answers JSON to the Java Accept header on reads, and voids with an empty body', async () => {
    const [a, b] = await newChecks(2);
    const read = await java('GET', `/checks/${a}`);
    expect(read.status).toBe(200);
    expect(read.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(read.body).toEqual((await api.get(`/checks/${a}`)).body);
    const voided = await java('POST', `/checks/${a}/void`);
    expect(voided.status, voided.raw).toBe(200);
    expect(shape(voided.body)).toEqual(shape((await api.post(`/checks/${b}/void`)).body));
  });
});
