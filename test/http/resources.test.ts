import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { pngClaiming, signaturePng } from '../render/support/png.ts';
import { deflateSync } from 'node:zlib';

describe.each(dialects())('bank accounts, categories and addresses (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('resources@example.com');
  });
  afterAll(() => t.close());

  it('bank accounts: create, read masked, update, delete; routing numbers are checksum-validated', async () => {
    const created = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Operating', bankName: 'First Bank', routingNumber: '011000015', accountNumber: '000123456789' },
      ],
    });
    expect(created.status).toBe(201);
    const account = created.body.data.bankAccounts[0];
    expect(account).toEqual({
      bankAccountId: expect.stringMatching(/^bank_/),
      name: 'Operating',
      bankName: 'First Bank',
      bankAddress: '',
      routingNumber: '011000015',
      accountNumber: '****6789',
      nextSerial: '10001',
      customFromAddressId: null,
      hasSignature: false,
      printOffsetX: 0,
      printOffsetY: 0,
      // The hosted service's names: ours again, and its detail fields, empty.
      bankRoutingNumber: '011000015',
      bankAddress1: '',
      nickName: '',
      addressLine1: '',
      addressLine2: '',
      phone: '',
      city: '',
      state: '',
      zip: '',
      bankCity: '',
      bankState: '',
      bankZip: '',
    });
    expect(JSON.stringify(await api.get(`/bankAccounts/${account.bankAccountId}`))).not.toContain('000123456789');
    const updated = await api.put(`/bankAccounts/${account.bankAccountId}`, { name: 'Main', nextSerial: 2000 });
    expect(updated.body.data).toMatchObject({ name: 'Main', nextSerial: '2000' });
    const empty = await api.put(`/bankAccounts/${account.bankAccountId}`, {});
    expect(empty.body).toEqual({ success: false, errorMsg: 'The body must contain at least 1 field.' });
    const unknownFrom = await api.put(`/bankAccounts/${account.bankAccountId}`, {
      customFromAddressId: 'from_missing',
    });
    expect(unknownFrom.body).toEqual({ success: false, errorMsg: 'The selected customFromAddressId is invalid.' });
    const bad = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'X', routingNumber: '123456789', accountNumber: '1234' }],
    });
    expect(bad.body).toEqual({
      success: false,
      errorMsg: 'The bankAccounts.0.routingNumber field must be a valid 9-digit ABA routing number.',
    });
    const short = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'X', routingNumber: '12345', accountNumber: '1234' }],
    });
    expect(short.body).toEqual({
      success: false,
      errorMsg: 'The bankAccounts.0.routingNumber field must be 9 digits.',
    });
    const list = await api.get('/bankAccounts');
    expect(list.body.data.meta.total).toBe(1);
    expect((await api.delete(`/bankAccounts/${account.bankAccountId}`)).status).toBe(200);
    expect((await api.get(`/bankAccounts/${account.bankAccountId}`)).status).toBe(404);
    expect((await api.get('/bankAccounts')).body.data.meta.total).toBe(0);
  });

  it('signatures: upload, refuse an image too large to be a signature, remove', async () => {
    const created = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Signed', routingNumber: '011000015', accountNumber: '5555' }],
    });
    const id = created.body.data.bankAccounts[0].bankAccountId as string;
    const upload = async (payload: Buffer) =>
      t.app.inject({
        method: 'PUT',
        url: `${BASE}/bankAccounts/${id}/signature`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'image/png' },
        payload,
      });
    const huge = await upload(pngClaiming(10_000, 10_000, deflateSync(Buffer.alloc(16))));
    expect(huge.statusCode).toBe(422);
    expect(JSON.parse(huge.body)).toEqual({
      success: false,
      errorMsg: 'The signature field must be at most 25,000,000 pixels (this one is 10000x10000).',
    });
    expect((await api.get(`/bankAccounts/${id}`)).body.data.hasSignature).toBe(false);
    const ok = await upload(signaturePng());
    expect(ok.statusCode).toBe(200);
    expect((await api.get(`/bankAccounts/${id}`)).body.data.hasSignature).toBe(true);
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${BASE}/bankAccounts/${id}/signature`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(removed.statusCode).toBe(200);
    expect((await api.get(`/bankAccounts/${id}`)).body.data.hasSignature).toBe(false);
  });

  it('categories: create and list; a check may name one', async () => {
    const created = await api.post('/categories', { categories: [{ name: 'Rent' }, { name: 'Utilities' }] });
    expect(created.status).toBe(201);
    expect(created.body.data.categories.map((c: { name: string }) => c.name)).toEqual(['Rent', 'Utilities']);
    expect(created.body.data.categories[0].categoryId).toMatch(/^cat_/);
    const list = await api.get('/categories?term=rent');
    expect(list.body.data).toEqual({
      meta: { total: 1, currentPage: 1, perPage: 10 },
      categories: [{ categoryId: created.body.data.categories[0].categoryId, name: 'Rent', type: '' }],
    });
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Ops', routingNumber: '011000015', accountNumber: '9999' }],
    });
    const check = await api.post('/checks', {
      checks: [
        {
          bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
          noPayee: true,
          amount: 1,
          categoryId: created.body.data.categories[0].categoryId,
        },
      ],
    });
    expect(check.status).toBe(201);
  });

  it("custom 'from' addresses: the single read keeps the spec's shape with id", async () => {
    const created = await api.post('/customFromAddresses', {
      addresses: [
        {
          name: 'Head office',
          companyName: 'Resources Inc',
          addressLine1: '1 Main St',
          addressLine2: 'Suite 5',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
          email: 'ap@resources.test',
        },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.addresses[0].customFromAddressId;
    const read = await api.get(`/customFromAddresses/${id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual({
      success: true,
      data: {
        id,
        name: 'Head office',
        companyName: 'Resources Inc',
        addressLine1: '1 Main St',
        addressLine2: 'Suite 5',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        country: '',
        phone: '',
        email: 'ap@resources.test',
        note: '',
      },
    });
    const list = await api.get('/customFromAddresses');
    expect(list.body.data.addresses[0]).toMatchObject({ customFromAddressId: id, name: 'Head office' });
    const missing = await api.get('/customFromAddresses/from_missing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ success: false, errorMsg: 'Address not found.' });
  });

  it("custom 'to' addresses are their own collection", async () => {
    const created = await api.post('/customToAddresses', {
      addresses: [{ name: 'Payee home', addressLine1: '9 Elm St' }],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.addresses[0].customToAddressId;
    expect(id).toMatch(/^to_/);
    expect(
      (await api.get('/customToAddresses')).body.data.addresses.map(
        (a: { customToAddressId: string }) => a.customToAddressId,
      ),
    ).toEqual([id]);
    // A 'to' address is not a 'from' address.
    expect((await api.get(`/customFromAddresses/${id}`)).status).toBe(404);
  });
});
