// The calls of the census that answered 404 or 422 (a tool wrapper's reads, the PHP SDK's
// vouchers, unwrapped addresses and print body, a connector's clearing path), made with the field
// names the census gives: vouchers { voucherNumber, memo, date, payeeId, voucherItems: [{
// invoiceNumber, name, description, quantity, unitCost, total }] }; addresses { name, companyName,
// addressLine1, addressLine2, city, state, zip, phone, email, note }; print { paperType, checkId: [...] }.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('the census calls that were missing (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let other: Client;
  let basics: { bankAccountId: string; payeeId: string };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('wrapper@example.com');
    other = await t.client('not-yours@example.com');
    basics = await seedBasics(api);
    await seedBasics(other);
  });
  afterAll(() => t.close());

  const newCheck = async (extra: Record<string, unknown> = {}) => {
    const made = await api.post('/checks', { checks: [{ ...basics, amount: '25.00', ...extra }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks[0].checkId as string;
  };

  it('vouchers: POST, GET, named by a check, DELETE refused while printed with it, then allowed', async () => {
    const body = {
      voucherNumber: 'VCH-100',
      memo: 'November services',
      date: '2026-11-15',
      payeeId: basics.payeeId,
      voucherItems: [
        {
          invoiceNumber: 'INV-7',
          name: 'Consulting',
          description: 'Hours',
          quantity: 4,
          unitCost: 125,
          total: '500.00',
        },
        { invoiceNumber: 'INV-8', name: 'Travel', description: 'Mileage', quantity: 1, unitCost: '42.10', total: 42.1 },
      ],
    };
    const made = await api.post('/vouchers', body);
    expect(made.status, made.raw).toBe(201);
    const voucherId = made.body.data.voucherId;
    expect(voucherId).toMatch(/^vch_/);
    const read = await api.get(`/vouchers/${voucherId}`);
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual({
      voucherId,
      voucherNumber: 'VCH-100',
      date: '2026-11-15',
      memo: 'November services',
      payeeId: basics.payeeId,
      voucherItems: [
        {
          invoiceNumber: 'INV-7',
          name: 'Consulting',
          description: 'Hours',
          quantity: 4,
          unitCost: '125.00',
          total: '500.00',
        },
        {
          invoiceNumber: 'INV-8',
          name: 'Travel',
          description: 'Mileage',
          quantity: 1,
          unitCost: '42.10',
          total: '42.10',
        },
      ],
    });
    // Another account cannot read or delete it; ids that name nothing are 404 too.
    expect((await other.get(`/vouchers/${voucherId}`)).status).toBe(404);
    expect((await other.delete(`/vouchers/${voucherId}`)).status).toBe(404);
    expect((await api.get('/vouchers/vch_nothing')).body).toEqual({ success: false, errorMsg: 'Voucher not found.' });

    const checkId = await newCheck({ voucherId });
    expect((await api.get(`/checks/${checkId}/voucher`)).body.data.voucherId).toBe(voucherId);
    const refused = await api.delete(`/vouchers/${voucherId}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      success: false,
      errorMsg: 'This voucher is printed with a check, so it cannot be deleted.',
    });
    expect((await api.delete(`/checks/${checkId}`)).status).toBe(200);
    expect((await api.delete(`/vouchers/${voucherId}`)).status).toBe(200);
    expect((await api.get(`/vouchers/${voucherId}`)).status).toBe(404);
  });

  it('vouchers: refusals name the field', async () => {
    const cases: [unknown, string][] = [
      [{ payeeId: 'pay_nobody' }, 'The selected payeeId is invalid.'],
      [{ date: '2026-02-30' }, 'The date field must be a valid date: February 2026 has 28 days.'],
      [
        { date: '2026-11-26T00:00:00.000Z' },
        'The date field must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time).',
      ],
      [{ voucherItems: [{ total: '1.234' }] }, 'The voucherItems.0.total field must have at most 2 decimal places.'],
      [{ voucherItems: [{ colour: 'red' }] }, 'The voucherItems.0.colour field is not allowed.'],
    ];
    for (const [body, message] of cases) {
      const res = await api.post('/vouchers', body);
      expect(res.status, res.raw).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    // A voucher of another account cannot be named by a check.
    const theirs = await other.post('/vouchers', { voucherNumber: 'X' });
    const named = await api.post('/checks', {
      checks: [{ ...basics, amount: 1, voucherId: theirs.body.data.voucherId }],
    });
    expect(named.body).toEqual({ success: false, errorMsg: 'The selected checks.0.voucherId is invalid.' });
  });

  it('addresses: one unwrapped, read back by id, deleted unless in use', async () => {
    const address = {
      name: 'Accounts Payable',
      companyName: 'Harbor Co',
      addressLine1: '9 Pier Rd',
      addressLine2: 'Unit 2',
      city: 'Portland',
      state: 'ME',
      zip: '04101',
      phone: '207-555-0100',
      email: 'ap@harbor.test',
      note: 'Back office',
    };
    const to = await api.post('/customToAddresses', address);
    expect(to.status, to.raw).toBe(201);
    const toId = to.body.data.customToAddressId;
    expect(to.body.data).toEqual({ customToAddressId: toId, country: '', ...address });
    const read = await api.get(`/customToAddresses/${toId}`);
    expect(read.body).toEqual({ success: true, data: to.body.data });
    expect((await other.get(`/customToAddresses/${toId}`)).status).toBe(404);

    const from = await api.post('/customFromAddresses', { ...address, name: 'Head Office' });
    expect(from.status, from.raw).toBe(201);
    const fromId = from.body.data.customFromAddressId;
    expect((await api.get(`/customFromAddresses/${fromId}`)).body.data).toMatchObject({
      id: fromId,
      name: 'Head Office',
    });

    // In use: a bank account prints the 'from' address; a mailing goes to the 'to' address.
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Printed from', routingNumber: '011000015', accountNumber: '4444', customFromAddressId: fromId },
      ],
    });
    expect(bank.status).toBe(201);
    const mailed = await newCheck();
    const mailing = await api.post('/mailchecks', {
      mailChecks: [{ checkId: mailed, shippingTypeId: 1, customToAddressId: toId }],
    });
    expect(mailing.status, mailing.raw).toBe(200);
    const fromRefused = await api.delete(`/customFromAddresses/${fromId}`);
    expect(fromRefused.status).toBe(409);
    expect(fromRefused.body.success).toBe(false);
    const toRefused = await api.delete(`/customToAddresses/${toId}`);
    expect(toRefused.body).toEqual({
      success: false,
      errorMsg: 'A mailing was sent to this address, so it cannot be deleted.',
    });
    expect((await other.delete(`/customToAddresses/${toId}`)).status).toBe(404);

    const spare = await api.post('/customToAddresses', { name: 'Spare' });
    const spareId = spare.body.data.customToAddressId;
    expect((await api.delete(`/customToAddresses/${spareId}`)).body).toEqual({
      success: true,
      message: 'Address deleted successfully.',
    });
    expect((await api.get(`/customToAddresses/${spareId}`)).status).toBe(404);
    const spareFrom = await api.post('/customFromAddresses', { addresses: [{ name: 'Spare from' }] });
    const spareFromId = spareFrom.body.data.addresses[0].customFromAddressId;
    expect((await api.delete(`/customFromAddresses/${spareFromId}`)).status).toBe(200);
    // The unwrapped form keeps the batch form's rules.
    const bad = await api.post('/customToAddresses', { companyName: 'No name' });
    expect(bad.body).toEqual({ success: false, errorMsg: 'The name field is required.' });
  });

  it('attachment reads: one attachment by id, and the list under /mailchecks/{checkId}', async () => {
    const checkId = await newCheck();
    const boundary = 'cwboundary';
    const upload = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/${checkId}/attachments`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        Buffer.from('%PDF-1.4\n%%EOF\n'),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const attachment = JSON.parse(upload.body).data;
    const one = await api.get(`/checks/${checkId}/attachments/${attachment.attachmentId}`);
    expect(one.body).toEqual({ success: true, data: attachment });
    expect((await api.get(`/checks/${checkId}/attachments/att_nothing`)).status).toBe(404);
    expect((await other.get(`/checks/${checkId}/attachments/${attachment.attachmentId}`)).status).toBe(404);
    const underMailing = await api.get(`/mailchecks/${checkId}/attachments`);
    expect(underMailing.body).toEqual({ success: true, data: { attachments: [attachment] } });
    expect((await other.get(`/mailchecks/${checkId}/attachments`)).status).toBe(404);
  });

  it('print takes { paperType, checkId: [...] }; mark-as-cleared clears as /clear does', async () => {
    const a = await newCheck();
    const b = await newCheck();
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ paperType: 'blank', checkId: [a, b] }),
    });
    expect(printed.statusCode, printed.body).toBe(200);
    expect(printed.headers['content-type']).toBe('application/pdf');
    expect(printed.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect((await api.get(`/checks/${a}`)).body.data.checkStatus.description).toBe('Printed');
    const c = await newCheck();
    for (const [body, message] of [
      [{ paperType: 'glossy', checkId: [c] }, 'The paperType field must be one of blank, preprinted.'],
      [{ paperType: 'blank' }, 'The checkIds field is required.'],
      [{ checkIds: [c], checkId: [a] }, 'The checkId field must be the same as checkIds when both are given.'],
      [
        { checkId: [c], stock: 'blank', paperType: 'preprinted' },
        'The paperType field must be the same as stock when both are given.',
      ],
    ] as const) {
      const res = await api.post('/checks/print', body);
      expect(res.status, res.raw).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get(`/checks/${c}`)).body.data.checkStatus.description).toBe('New');

    const cleared = await api.post(`/checks/${a}/mark-as-cleared`, {});
    expect(cleared.status, cleared.raw).toBe(200);
    expect(cleared.body.data.clearedDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const viaClear = await api.post(`/checks/${b}/clear`);
    expect(viaClear.body.data.clearedDate).toBe(cleared.body.data.clearedDate);
    expect((await api.post(`/checks/${a}/mark-as-cleared`)).body.success).toBe(false);
    expect((await other.post(`/checks/${a}/mark-as-cleared`)).status).toBe(404);
  });
});
