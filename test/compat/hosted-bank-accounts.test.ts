// POST and PUT /bankAccounts with the hosted service's field names, as two independent clients in
// the census (an ERP module and a PHP SDK) send them per item: bankRoutingNumber, nickName,
// addressLine1/2, phone, city, state, zip, bankAddress1, bankCity, bankState, bankZip. Then the
// ERP module's next call, POST /quickpay/mailcheck on the account it made.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send } from './support.ts';

describe.each(dialects())('hosted bank account fields (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('erp@example.com');
    headers = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json', accept: 'application/json' };
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown) =>
    send(t.app, { method: 'POST', url, headers, body: JSON.stringify(body) });
  const put = (url: string, body: unknown) => send(t.app, { method: 'PUT', url, headers, body: JSON.stringify(body) });

  const hosted = {
    name: 'Operating',
    bankName: 'First Test Bank',
    accountNumber: '123456789',
    bankRoutingNumber: '011000015',
    nickName: 'Ops',
    addressLine1: '500 Commerce Way',
    addressLine2: 'Floor 3',
    phone: '555-010-2000',
    city: 'Springfield',
    state: 'IL',
    zip: '62701',
    bankAddress1: '1 Bank Plaza',
    bankCity: 'Boston',
    bankState: 'MA',
    bankZip: '02110',
  };

  it('creates with the hosted names and answers them, and ours, on every read', async () => {
    const made = await post('/bankAccounts', { bankAccounts: [hosted] });
    expect(made.status, made.raw).toBe(201);
    const { accountNumber: _number, ...sent } = hosted;
    const account = made.body.data.bankAccounts[0];
    expect(account).toMatchObject({
      ...sent,
      routingNumber: '011000015',
      bankAddress: '1 Bank Plaza',
      accountNumber: '****6789',
    });
    const read = await api.get(`/bankAccounts/${account.bankAccountId}`);
    expect(read.body.data).toEqual(account);
    const listed = await api.get('/bankAccounts');
    expect(listed.body.data.bankAccounts).toContainEqual(account);
  });

  it('our names alone still work, and the hosted fields read back empty', async () => {
    const made = await post('/bankAccounts', {
      bankAccounts: [{ name: 'Payroll', routingNumber: '011000015', accountNumber: '99887766', bankAddress: '2 Main' }],
    });
    expect(made.status, made.raw).toBe(201);
    expect(made.body.data.bankAccounts[0]).toMatchObject({
      bankRoutingNumber: '011000015',
      bankAddress1: '2 Main',
      nickName: '',
      addressLine1: '',
      bankZip: '',
    });
  });

  it('PUT takes the hosted names; the routing number is accepted only unchanged', async () => {
    const made = await post('/bankAccounts', {
      bankAccounts: [{ ...hosted, name: 'To edit', accountNumber: '22223333' }],
    });
    const id = made.body.data.bankAccounts[0].bankAccountId;
    // The account number is not editable (as before): sent back, it is refused, nothing changes.
    const withNumber = await put(`/bankAccounts/${id}`, { ...hosted, accountNumber: '22223333', nickName: 'Main ops' });
    expect(withNumber.status, withNumber.raw).toBe(422);
    expect(withNumber.body.errorMsg).toBe('The accountNumber field is not allowed.');
    // The rest of the record sent back, the routing number included, unchanged.
    const { accountNumber: _n, ...editable } = hosted;
    const ok = await put(`/bankAccounts/${id}`, {
      ...editable,
      nickName: 'Main ops',
      bankAddress1: '9 Bank Plaza',
      zip: '62702',
    });
    expect(ok.status, ok.raw).toBe(200);
    expect(ok.body.data).toMatchObject({
      nickName: 'Main ops',
      bankAddress: '9 Bank Plaza',
      bankAddress1: '9 Bank Plaza',
      zip: '62702',
    });
    const moved = await put(`/bankAccounts/${id}`, { bankRoutingNumber: '021000021' });
    expect(moved.status).toBe(422);
    expect(moved.body).toEqual({
      success: false,
      errorMsg: 'The bankRoutingNumber field cannot be changed: create a new bank account for another routing number.',
    });
    expect((await api.get(`/bankAccounts/${id}`)).body.data.routingNumber).toBe('011000015');
  });

  it('refusals: neither routing name, two names that disagree, a bad checksum; nothing is made', async () => {
    const before = (await api.get('/bankAccounts')).body.data.meta.total;
    const { bankRoutingNumber: _r, ...noRouting } = hosted;
    const cases: [unknown, string][] = [
      [{ bankAccounts: [noRouting] }, 'The bankAccounts.0.routingNumber field is required.'],
      [
        { bankAccounts: [{ ...hosted, routingNumber: '021000021' }] },
        'The bankAccounts.0.bankRoutingNumber field must be the same as routingNumber when both are given.',
      ],
      [
        { bankAccounts: [{ ...hosted, bankAddress: 'Elsewhere' }] },
        'The bankAccounts.0.bankAddress1 field must be the same as bankAddress when both are given.',
      ],
      [
        { bankAccounts: [{ ...hosted, bankRoutingNumber: '123456789' }] },
        'The bankAccounts.0.bankRoutingNumber field must be a valid 9-digit ABA routing number.',
      ],
      [
        { bankAccounts: [{ ...hosted, bankRoutingNumber: '12345' }] },
        'The bankAccounts.0.bankRoutingNumber field must be 9 digits.',
      ],
      [
        { bankAccounts: [{ ...hosted, nickName: 'x'.repeat(101) }] },
        'The bankAccounts.0.nickName field must not be greater than 100 characters.',
      ],
    ];
    for (const [body, message] of cases) {
      const res = await post('/bankAccounts', body);
      expect(res.status, res.raw).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get('/bankAccounts')).body.data.meta.total).toBe(before);
  });

  it('a bank account created twice answers success false with the existing bankAccountId, as the ERP module expects', async () => {
    const body = { bankAccounts: [{ ...hosted, name: 'Twice', accountNumber: '000987654321' }] };
    const first = await post('/bankAccounts', body);
    expect(first.status, first.raw).toBe(201);
    const before = (await api.get('/bankAccounts')).body.data.meta.total;
    // Same routing and account number, under either name for the routing number: the same account.
    for (const again of [
      body,
      { bankAccounts: [{ name: 'Other name', routingNumber: '011000015', accountNumber: '000987654321' }] },
    ]) {
      const res = await post('/bankAccounts', again);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        success: false,
        errorMsg: 'The bankAccounts.0.accountNumber has already been taken.',
        bankAccountId: first.body.data.bankAccounts[0].bankAccountId,
      });
    }
    // The same last four digits on another number is another account; so is another routing number.
    const near = await post('/bankAccounts', {
      bankAccounts: [{ ...hosted, name: 'Near', accountNumber: '111987654321' }],
    });
    expect(near.status).toBe(201);
    // Twice in one batch: a duplicate value, nothing made.
    const batch = await post('/bankAccounts', {
      bankAccounts: [
        { ...hosted, accountNumber: '31313131' },
        { ...hosted, accountNumber: '31313131' },
      ],
    });
    expect(batch.body).toEqual({
      success: false,
      errorMsg: 'The bankAccounts.1.accountNumber field has a duplicate value.',
    });
    expect((await api.get('/bankAccounts')).body.data.meta.total).toBe(before + 1);
    // Another account's key may create the same numbers: duplicates are per account.
    const stranger = await t.client('stranger@example.com');
    expect((await stranger.post('/bankAccounts', body)).status).toBe(201);
    // Deleted, the number may be used again.
    expect((await api.delete(`/bankAccounts/${first.body.data.bankAccounts[0].bankAccountId}`)).status).toBe(200);
    expect((await post('/bankAccounts', body)).status).toBe(201);
  });

  it("the ERP module's flow: its bank account, then POST /quickpay/mailcheck on it", async () => {
    const made = await post('/bankAccounts', { bankAccounts: [{ ...hosted, name: 'ERP', accountNumber: '55550000' }] });
    const accountId = made.body.data.bankAccounts[0].bankAccountId;
    const paid = await post('/quickpay/mailcheck', {
      source: { accountType: 'bankaccount', accountId },
      destination: {
        name: 'Harbor Freight Co',
        address1: '77 Dock Rd',
        city: 'Portland',
        state: 'ME',
        zip: '04101',
        shippingTypeId: 1,
      },
      payment_details: { amount: '1999.99', memo: 'PO 7781' },
    });
    expect(paid.status, paid.raw).toBe(201);
    const check = (await api.get(`/checks/${paid.body.data.checkId}`)).body.data;
    expect(check).toMatchObject({ amount: 1999.99, bankAccount: { bankAccountId: accountId, name: 'ERP' } });
  });
});
