// The hosted service's quickpay envelope, as six of the fifteen clients in the census send it
// (field names from /quickpay/check and /quickpay/mailcheck in the census; no client's code):
// `source` / `destination` / `payment_details`, the check's id read from `data.checkId`,
// `data.checks[0].checkId` or `data.paymentId`. Each write is checked through the API's own reads
// (the check, the payee, the mailing), and every refusal for leaving nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send } from './support.ts';

describe.each(dialects())('quickpay as the field clients call it (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let other: Client;
  let headers: Record<string, string>;
  let bankAccountId: string;
  let othersBankAccountId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('quickpay@example.com');
    other = await t.client('someone-else@example.com');
    bankAccountId = (await seedBasics(api)).bankAccountId;
    othersBankAccountId = (await seedBasics(other)).bankAccountId;
    headers = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json', accept: 'application/json' };
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown, extra: Record<string, string> = {}) =>
    send(t.app, { method: 'POST', url, headers: { ...headers, ...extra }, body: JSON.stringify(body) });

  const destination = {
    name: 'Riverside Plumbing',
    company: 'Riverside Plumbing LLC',
    address1: '12 Water St',
    address2: 'Suite 4',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    phone: '(415) 555-2671',
    email: 'billing@riverside.test',
  };

  const envelope = (payment: Record<string, unknown>, to: Record<string, unknown> = destination) => ({
    source: { accountType: 'bankaccount', accountId: bankAccountId },
    destination: to,
    payment_details: payment,
  });

  /** How many checks and payees the account has: a refusal must leave both unchanged. */
  async function counts(): Promise<{ checks: number; payees: number }> {
    return {
      checks: (await api.get('/checks')).body.data.meta.total,
      payees: (await api.get('/payees')).body.data.meta.total,
    };
  }

  it('POST /quickpay/check writes the check on source.accountId to a payee made from destination', async () => {
    const before = await counts();
    const res = await post(
      '/quickpay/check',
      envelope({ amount: 1250.5, memo: 'Invoice 88', note: 'Net 30', issueDate: '2026-11-20', referenceID: 'qp-1' }),
    );
    expect(res.status, res.raw).toBe(201);
    expect(res.body.success).toBe(true);
    const { checkId, amount, payee, status } = res.body.data;
    expect(checkId).toMatch(/^chk_/);
    expect(amount).toBe('1250.50');
    expect(status).toBe(0);
    expect(payee.name).toBe('Riverside Plumbing');
    expect(res.body.data.paymentId).toBe(checkId);
    expect(res.body.data.checks[0].checkId).toBe(checkId);
    expect(res.body.data.payeeCreated).toBe(true);

    const check = (await api.get(`/checks/${checkId}`)).body.data;
    expect(check).toMatchObject({
      amount: 1250.5,
      date: '2026-11-20',
      memo: 'Invoice 88',
      referenceId: 'qp-1',
      status: 0,
      bankAccount: { bankAccountId },
      payee: { payeeId: payee.payeeId, name: 'Riverside Plumbing' },
    });
    const made = (await api.get(`/payees/${payee.payeeId}`)).body.data;
    expect(made).toMatchObject({ ...destination, phone: '+14155552671' });
    expect(await counts()).toEqual({ checks: before.checks + 1, payees: before.payees + 1 });
  });

  it('the same destination again finds the same payee (name, company and address match exactly)', async () => {
    const first = await post('/quickpay/check', envelope({ amount: '10.00' }));
    // Spaces around values are not part of them; a different phone or email does not make another payee.
    const again = await post(
      '/quickpay/check',
      envelope({ amount: '11.00' }, { ...destination, name: ' Riverside Plumbing ', phone: '', email: 'other@x.test' }),
    );
    expect(again.status, again.raw).toBe(201);
    expect(again.body.data.payeeCreated).toBe(false);
    expect(again.body.data.payee.payeeId).toBe(first.body.data.payee.payeeId);
    // Another address is another payee (a name alone never decides where a mailed check goes).
    const moved = await post(
      '/quickpay/check',
      envelope({ amount: '12.00' }, { ...destination, address1: '14 Water St' }),
    );
    expect(moved.body.data.payeeCreated).toBe(true);
    expect(moved.body.data.payee.payeeId).not.toBe(first.body.data.payee.payeeId);
  });

  it('referenceID is the check referenceId: a repeat writes nothing and answers success false with the check id', async () => {
    const first = await post('/quickpay/check', envelope({ amount: '75.00', referenceID: 'inv-2026-0042' }));
    expect(first.status).toBe(201);
    const before = await counts();
    const repeat = await post(
      '/quickpay/check',
      envelope({ amount: '75.00', referenceID: 'inv-2026-0042' }, { ...destination, name: 'A New Name' }),
    );
    expect(repeat.status).toBe(422);
    expect(repeat.body).toEqual({
      success: false,
      errorMsg: 'The payment_details.referenceID has already been taken.',
      checkId: first.body.data.checkId,
    });
    expect(await counts()).toEqual(before);
    // The check it names is found by the referenceId filter of GET /checks.
    const listed = await api.get('/checks?referenceId=inv-2026-0042');
    expect(listed.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([first.body.data.checkId]);
  });

  it('an Idempotency-Key retry replays the first answer', async () => {
    const body = envelope({ amount: '5.00', referenceID: 'idem-1' });
    const a = await post('/quickpay/check', body, { 'idempotency-key': 'qp-key-1' });
    const b = await post('/quickpay/check', body, { 'idempotency-key': 'qp-key-1' });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.body).toEqual(a.body);
    expect(b.headers['idempotent-replayed']).toBe('true');
  });

  it('refusals name the envelope field and leave no payee or check behind', async () => {
    const before = await counts();
    const fresh = { ...destination, name: 'Never Made' };
    const cases: [unknown, number, string][] = [
      [
        envelope({ amount: 12.345 }, fresh),
        422,
        'The payment_details.amount field must have at most 2 decimal places.',
      ],
      [envelope({ amount: '-3' }, fresh), 422, 'The payment_details.amount field must be greater than 0.'],
      [
        envelope({ amount: '3', issueDate: '2026-02-30' }, fresh),
        422,
        'The payment_details.issueDate field must be a valid date: February 2026 has 28 days.',
      ],
      [
        { ...envelope({ amount: '3' }, fresh), source: { accountType: 'bankaccount', accountId: othersBankAccountId } },
        422,
        'The selected source.accountId is invalid.',
      ],
      [
        { ...envelope({ amount: '3' }, fresh), source: { accountType: 'wallet', accountId: bankAccountId } },
        422,
        'The source.accountType field must be bankaccount (checks are drawn on a bank account).',
      ],
      [
        envelope({ amount: '3' }, { ...fresh, phone: '123' }),
        422,
        'The destination.phone field must be a valid phone number.',
      ],
      [envelope({ amount: '3' }, { ...fresh, name: '' }), 422, 'The destination.name field is required.'],
      [envelope({}, fresh), 422, 'The payment_details.amount field is required.'],
      [{ destination: fresh, payment_details: { amount: '3' } }, 422, 'The source field is required.'],
    ];
    for (const [body, status, message] of cases) {
      const res = await post('/quickpay/check', body);
      expect(res.status, res.raw).toBe(status);
      expect(res.body, JSON.stringify(body)).toEqual({ success: false, errorMsg: message });
    }
    expect(await counts()).toEqual(before);
  });

  it('POST /quickpay/mailcheck writes and queues the check; the id is where every client looks', async () => {
    const res = await post('/quickpay/mailcheck', {
      ...envelope({ amount: '300.00', memo: 'Rent' }, { ...destination, shippingTypeId: '1' }),
    });
    expect(res.status, res.raw).toBe(201);
    const { checkId } = res.body.data;
    expect(res.body.data.checks[0].checkId).toBe(checkId);
    expect(res.body.data.paymentId).toBe(checkId);
    expect(res.body.data.shippingTypeId).toBe(1);
    // Queued: mailing it again is refused, and cancelling the mailing refunds the check.
    const again = await api.post('/mailchecks', { mailChecks: [{ checkId, shippingTypeId: 1 }] });
    expect(again.body.errorMsg).toBe(
      'The mailChecks.0.checkId field names a check that is already queued for mailing.',
    );
    const cancelled = await api.post(`/mailchecks/${res.body.data.mailingId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ checkId, shippingTypeId: 1, status: 'cancelled' });
    expect((await api.get(`/checks/${checkId}`)).body.data.checkStatus.description).toBe('Refunded');
  });

  it('mailcheck takes shipping.method instead of destination.shippingTypeId', async () => {
    const res = await post('/quickpay/mailcheck', {
      ...envelope({ amount: '20.00' }),
      shipping: { method: 'usps_priority' },
    });
    expect(res.status, res.raw).toBe(201);
    expect(res.body.data.shippingTypeId).toBe(4);
    const plain = await post('/quickpay/mailcheck', envelope({ amount: '21.00' }));
    expect(plain.body.data.shippingTypeId).toBe(1);
  });

  it('mailcheck refusals, the mailing step included, leave nothing behind', async () => {
    const before = await counts();
    const fresh = { ...destination, name: 'Never Mailed' };
    const cases: [unknown, string][] = [
      [
        envelope({ amount: '3' }, { ...fresh, address1: '' }),
        'The destination.address1 field is required to mail a check.',
      ],
      [
        envelope({ amount: '3' }, { ...fresh, shippingTypeId: 2 }),
        'The selected destination.shippingTypeId is invalid.',
      ],
      [
        { ...envelope({ amount: '3' }, { ...fresh, shippingTypeId: 1 }), shipping: { method: 'usps_express' } },
        'The shipping.method field does not name the same shipping type as destination.shippingTypeId.',
      ],
      [
        { ...envelope({ amount: '3' }, fresh), shipping: { method: 'pigeon' } },
        'The shipping.method field must be one of usps_first_class, usps_first_class_tracking, usps_priority, usps_express, fedex_overnight, fedex_saturday.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post('/quickpay/mailcheck', body);
      expect(res.status, res.raw).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect(await counts()).toEqual(before);
  });

  it('the other rails answer a 422 naming the two quickpay endpoints that work', async () => {
    for (const rail of ['echeck', 'directdeposit', 'virtualcard', 'wire']) {
      const res = await post(`/quickpay/${rail}`, {
        ...envelope({ amount: '3' }, { ...destination, routing_number: '011000015', account_number: '12345678' }),
      });
      expect(res.status, rail).toBe(422);
      expect(res.body.success).toBe(false);
      expect(res.body.errorMsg).toContain(`/quickpay/${rail} is not offered`);
      expect(res.body.errorMsg).toContain('POST /quickpay/check');
      expect(res.body.errorMsg).toContain('POST /quickpay/mailcheck');
    }
  });

  it("another account's key cannot see the checks quickpay wrote", async () => {
    const res = await post('/quickpay/check', envelope({ amount: '9.00' }));
    expect((await other.get(`/checks/${res.body.data.checkId}`)).status).toBe(404);
  });
});
