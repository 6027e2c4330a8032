import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('payees (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let payeeId: string;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('payees@example.com');
    const res = await api.post('/payees', {
      payees: [{ name: 'Globex', email: 'billing@globex.test', city: 'Cypress Creek', country: 'US' }],
    });
    expect(res.status).toBe(201);
    payeeId = res.body.data.payees[0].payeeId;
  });
  afterAll(() => t.close());

  it('PUT updates the fields given and keeps the others', async () => {
    const res = await api.put(`/payees/${payeeId}`, {
      nickName: 'GBX',
      phone: '415-555-2671',
      address1: '1 Globex Way',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: 'Payee updated successfully.', data: { payeeId } });
    const read = await api.get(`/payees/${payeeId}`);
    expect(read.body.data).toEqual({
      payeeId,
      name: 'Globex',
      nickName: 'GBX',
      company: '',
      email: 'billing@globex.test',
      phone: '+14155552671',
      address1: '1 Globex Way',
      address2: '',
      city: 'Cypress Creek',
      state: '',
      zip: '',
      country: 'US',
    });
  });

  it('422 "Validation error..." for bad bodies, 404 for unknown payees', async () => {
    for (const [body, message] of [
      [{ email: 'nope' }, 'Validation error: The email field must be a valid email address.'],
      [{ phone: '123' }, 'Validation error: The phone field must be a valid phone number.'],
      [{ name: 42 }, 'Validation error: The name field must be a string.'],
      [{ name: '  ' }, 'Validation error: The name field is required.'],
      [{ zip: 'x'.repeat(21) }, 'Validation error: The zip field must not be greater than 20 characters.'],
      [{ favourite: 'x' }, 'Validation error: The favourite field is not allowed.'],
    ] as const) {
      const res = await api.put(`/payees/${payeeId}`, body);
      expect(res.status, message).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get(`/payees/${payeeId}`)).body.data.name).toBe('Globex');
    // Nothing given: 200, the payee unchanged; an unknown payee is still 404.
    const before = (await api.get(`/payees/${payeeId}`)).body.data;
    for (const body of [{}, { name: null, email: null }]) {
      const res = await api.put(`/payees/${payeeId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(res.body).toEqual({ success: true, message: 'Payee updated successfully.', data: { payeeId } });
    }
    expect((await api.get(`/payees/${payeeId}`)).body.data).toEqual(before);
    expect((await api.put('/payees/pay_missing', {})).status).toBe(404);
    const missing = await api.put('/payees/pay_missing', { name: 'X' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, errorMsg: 'Payee not found.' });
  });

  it('lists with paging and term, and deletes (checks keep the name)', async () => {
    await api.post('/payees', { payees: [{ name: 'Initech' }, { name: 'Umbrella Corp' }] });
    const list = await api.get('/payees?perPage=2');
    expect(list.body.data.meta).toEqual({ total: 3, currentPage: 1, perPage: 2 });
    expect(list.body.data.payees.map((p: { name: string }) => p.name)).toEqual(['Umbrella Corp', 'Initech']);
    expect((await api.get('/payees?term=umbr')).body.data.payees.map((p: { name: string }) => p.name)).toEqual([
      'Umbrella Corp',
    ]);

    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Ops', routingNumber: '011000015', accountNumber: '9999' }],
    });
    const check = await api.post('/checks', {
      checks: [{ bankAccountId: bank.body.data.bankAccounts[0].bankAccountId, payeeId, amount: 1 }],
    });
    expect((await api.delete(`/payees/${payeeId}`)).status).toBe(200);
    expect((await api.get(`/payees/${payeeId}`)).status).toBe(404);
    expect((await api.delete(`/payees/${payeeId}`)).status).toBe(404);
    expect((await api.get(`/checks/${check.body.data.checks[0].checkId}`)).body.data.payee.name).toBe('Globex');
    const reuse = await api.post('/checks', {
      checks: [{ bankAccountId: bank.body.data.bankAccounts[0].bankAccountId, payeeId, amount: 1 }],
    });
    expect(reuse.body.errorMsg).toBe('The selected checks.0.payeeId is invalid.');
  });
});
