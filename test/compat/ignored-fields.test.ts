// Fields the hosted service takes and this service does not use are accepted, removed and named in
// X-Ignored-Fields; any other unknown field is still refused, with "Did you mean …?" when it is a
// slip of one of our own names. Each refusal leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send } from './support.ts';
import { closestField } from '../../src/schemas/did-you-mean.ts';

describe.each(dialects())('fields accepted and ignored (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let headers: Record<string, string>;
  let bankAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('ignored@example.com');
    bankAccountId = (await seedBasics(api)).bankAccountId;
    headers = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' };
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown) =>
    send(t.app, { method: 'POST', url, headers, body: JSON.stringify(body) });
  const checkCount = async (): Promise<number> => (await api.get('/checks')).body.data.meta.total;
  const destination = {
    name: 'Lakeside Supply',
    address1: '3 Shore Rd',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
  };

  it('the other rails’ fields on /quickpay/check are ignored and named in X-Ignored-Fields', async () => {
    const res = await post('/quickpay/check', {
      source: { accountType: 'bankaccount', accountId: bankAccountId },
      destination: { ...destination, routing_number: '011000015', account_number: '123456789', shippingTypeId: 1 },
      payment_details: { amount: '20.00' },
      shipping: { method: 'usps_first_class' },
    });
    expect(res.status, res.raw).toBe(201);
    expect(res.headers['x-ignored-fields']).toBe(
      'destination.routing_number, destination.account_number, destination.shippingTypeId, shipping',
    );
    // Nothing of them is kept: the account number is not echoed anywhere in the answer.
    expect(res.raw).not.toContain('123456789');
  });

  it('a body with nothing to ignore has no X-Ignored-Fields', async () => {
    const res = await post('/quickpay/check', {
      source: { accountId: bankAccountId },
      destination,
      payment_details: { amount: '21.00' },
    });
    expect(res.status, res.raw).toBe(201);
    expect(res.headers['x-ignored-fields']).toBeUndefined();
  });

  it('a misspelling of one of our fields is a 422 that names the field meant, and writes nothing', async () => {
    const before = await checkCount();
    const res = await post('/quickpay/check', {
      source: { accountId: bankAccountId },
      destination: { ...destination, adress2: 'Unit 1' },
      payment_details: { amount: '22.00' },
    });
    expect(res.status).toBe(422);
    expect(res.body.errorMsg).toBe('The destination.adress2 field is not allowed. Did you mean address2?');
    const wrongCase = await post('/quickpay/check', {
      source: { accountId: bankAccountId },
      destination,
      payment_details: { amount: '22.00', referenceId: 'x' },
    });
    expect(wrongCase.body.errorMsg).toBe(
      'The payment_details.referenceId field is not allowed. Did you mean referenceID?',
    );
    const payee = await post('/payees', { payees: [{ name: 'A', nikName: 'B' }] });
    expect(payee.body.errorMsg).toBe('The payees.0.nikName field is not allowed. Did you mean nickName?');
    expect(await checkCount()).toBe(before);
  });

  it('an unknown field far from all of ours is still refused, without a guess', async () => {
    const res = await post('/payees', { payees: [{ name: 'A', favouriteColour: 'blue' }] });
    expect(res.status).toBe(422);
    expect(res.body.errorMsg).toBe('The payees.0.favouriteColour field is not allowed.');
  });
});

describe('closestField', () => {
  it('guesses only within two edits and a third of the name', () => {
    expect(closestField('adress1', ['address1', 'address2'])).toBe('address1');
    expect(closestField('ZIP', ['zip'])).toBe('zip');
    expect(closestField('id', ['to'])).toBeUndefined();
    expect(closestField('memoo', ['memo', 'note'])).toBe('memo');
    expect(closestField('colour', ['city', 'state'])).toBeUndefined();
    expect(closestField('element11', ['element1', 'element10'])).toBeUndefined();
  });
});
