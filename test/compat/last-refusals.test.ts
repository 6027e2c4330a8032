// The last refusals a client of the hosted service met, each replayed beside
// its strict twin: empty strings for values the client does not have (the hosted framework turns
// them into null), sendAttachment as true/false, a date-time where a date belongs, a compressed
// body, a PUT that changes nothing, and an HTTP/1.1 request without Host.
import { connect } from 'node:net';
import { deflateSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { send, shape } from './support.ts';

describe.each(dialects())('the last refusals (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let basics: { bankAccountId: string; payeeId: string };
  let headers: Record<string, string>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('last@example.com');
    basics = await seedBasics(api);
    headers = { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' };
  });
  afterAll(() => t.close());

  const post = (url: string, body: unknown) =>
    send(t.app, { method: 'POST', url, headers, body: JSON.stringify(body) });
  const newCheck = async () =>
    (await api.post('/checks', { checks: [{ ...basics, amount: '10.00' }] })).body.data.checks[0].checkId as string;

  it('numbers as strings: a voucher line\'s quantity, unit cost and total take "4.00" as amounts do (Laravel\'s numeric rule); what is no number is still refused', async () => {
    const asStrings = await post('/checks', {
      checks: [
        {
          ...basics,
          amount: '12.00',
          voucher: { voucherItems: [{ description: 'Bolts', quantity: '4.00', unitCost: '3', total: '12.00' }] },
        },
      ],
    });
    expect(asStrings.status, asStrings.raw).toBe(201);
    const asNumbers = await post('/checks', {
      checks: [
        {
          ...basics,
          amount: 12,
          voucher: { voucherItems: [{ description: 'Bolts', quantity: 4, unitCost: 3, total: 12 }] },
        },
      ],
    });
    expect(asNumbers.status, asNumbers.raw).toBe(201);
    const lines = async (reply: typeof asStrings) =>
      (await api.get(`/checks/${reply.body.data.checks[0].checkId}/voucher`)).body.data.voucherItems;
    expect(await lines(asStrings)).toEqual([
      { invoiceNumber: '', name: '', description: 'Bolts', quantity: 4, unitCost: '3.00', total: '12.00' },
    ]);
    expect(await lines(asStrings)).toEqual(await lines(asNumbers));
    const total = (await api.get('/checks?perPage=1')).body.data.meta.total;
    for (const [quantity, message] of [
      ['4,00', 'The checks.0.voucher.voucherItems.0.quantity field must be a number.'],
      ['four', 'The checks.0.voucher.voucherItems.0.quantity field must be a number.'],
      ['-1', 'The checks.0.voucher.voucherItems.0.quantity field must be between 0 and 1000000.'],
      [1_000_001, 'The checks.0.voucher.voucherItems.0.quantity field must be between 0 and 1000000.'],
    ] as const) {
      const refused = await post('/checks', {
        checks: [{ ...basics, amount: '1.00', voucher: { voucherItems: [{ quantity, total: '1.00' }] } }],
      });
      expect(refused.status, String(quantity)).toBe(422);
      expect(refused.body, String(quantity)).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get('/checks?perPage=1')).body.data.meta.total).toBe(total);
  });

  it('"" on an optional field is not given: payeePhone and payeeEmail on /emailchecks, issueDate on checks', async () => {
    const [a, b] = [await newCheck(), await newCheck()];
    const tolerated = await post('/emailchecks', {
      emailChecks: [{ checkId: a, payeeEmail: '', payeePhone: '', enableSmsInform: true }],
    });
    expect(tolerated.status, tolerated.raw).toBe(200);
    const strict = await post('/emailchecks', { emailChecks: [{ checkId: b, enableSmsInform: true }] });
    expect(shape(tolerated.body)).toEqual(shape(strict.body));

    const dated = await post('/checks', { checks: [{ ...basics, amount: '1.00', issueDate: '', memo: '' }] });
    expect(dated.status, dated.raw).toBe(201);
    const check = (await api.get(`/checks/${dated.body.data.checks[0].checkId}`)).body.data;
    expect(check.date).toBe(new Date().toISOString().slice(0, 10));
    // A required field sent empty is still "required", and "" stays a value where it is one.
    const required = await post('/checks', { checks: [{ ...basics, bankAccountId: '', amount: '1.00' }] });
    expect(required.body).toEqual({ success: false, errorMsg: 'The checks.0.bankAccountId field is required.' });
    const emptied = await send(t.app, {
      method: 'PUT',
      url: `/payees/${basics.payeeId}`,
      headers,
      body: JSON.stringify({ company: 'Acme Inc' }),
    });
    expect(emptied.status).toBe(200);
    await send(t.app, {
      method: 'PUT',
      url: `/payees/${basics.payeeId}`,
      headers,
      body: JSON.stringify({ company: '' }),
    });
    expect((await api.get(`/payees/${basics.payeeId}`)).body.data.company).toBe('');
  });

  it('sendAttachment takes true and false as it takes 1/0 and "1"/"0"', async () => {
    for (const [given, twin] of [
      [true, 1],
      [false, 0],
    ] as const) {
      const [a, b] = [await newCheck(), await newCheck()];
      const tolerated = await post('/emailchecks', { emailChecks: [{ checkId: a, sendAttachment: given }] });
      expect(tolerated.status, tolerated.raw).toBe(200);
      const strict = await post('/emailchecks', { emailChecks: [{ checkId: b, sendAttachment: twin }] });
      expect(shape(tolerated.body)).toEqual(shape(strict.body));
    }
    const bad = await post('/emailchecks', { emailChecks: [{ checkId: await newCheck(), sendAttachment: 'yes' }] });
    expect(bad.body).toEqual({
      success: false,
      errorMsg: 'The emailChecks.0.sendAttachment field must be 0 or 1 (or true or false).',
    });
  });

  it('a date-time where a date belongs is told YYYY-MM-DD', async () => {
    const iso = '2026-11-26T00:00:00.000Z';
    const res = await post('/checks', { checks: [{ ...basics, amount: '1.00', issueDate: iso }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      errorMsg:
        'The checks.0.issueDate field must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time).',
    });
    const edit = await send(t.app, {
      method: 'PUT',
      url: `/checks/${await newCheck()}`,
      headers,
      body: JSON.stringify({ issueDate: iso }),
    });
    expect(edit.body.errorMsg).toBe(
      'The issueDate field must be a date in the format YYYY-MM-DD or MM/DD/YYYY (a date without a time).',
    );
  });

  it('a gzip or deflate body gets 415 naming Content-Encoding; nothing is written', async () => {
    const before = (await api.get('/checks')).body.data.meta.total;
    const body = Buffer.from(JSON.stringify({ checks: [{ ...basics, amount: '1.00' }] }));
    for (const [encoding, packed] of [
      ['gzip', gzipSync(body)],
      ['deflate', deflateSync(body)],
      ['br', body],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v3/checks',
        headers: { ...headers, 'content-encoding': encoding },
        payload: packed,
      });
      expect(res.statusCode, encoding).toBe(415);
      expect(JSON.parse(res.body)).toEqual({
        success: false,
        errorMsg: `The request body has Content-Encoding: ${encoding}, which is not accepted: send it uncompressed (without a Content-Encoding header).`,
      });
    }
    const identity = await t.app.inject({
      method: 'POST',
      url: '/api/v3/checks',
      headers: { ...headers, 'content-encoding': 'identity' },
      payload: body,
    });
    expect(identity.statusCode).toBe(201);
    expect((await api.get('/checks')).body.data.meta.total).toBe(before + 1);
  });

  it('PUT /payees/{id} with every field null or absent: 200, the payee unchanged', async () => {
    const before = (await api.get(`/payees/${basics.payeeId}`)).body.data;
    const res = await send(t.app, {
      method: 'PUT',
      url: `/payees/${basics.payeeId}`,
      headers,
      body: JSON.stringify({ name: null, email: null, phone: null, address1: null }),
    });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toEqual({
      success: true,
      message: 'Payee updated successfully.',
      data: { payeeId: basics.payeeId },
    });
    expect((await api.get(`/payees/${basics.payeeId}`)).body.data).toEqual(before);
  });

  it('an HTTP/1.1 request without Host gets its 400 in the error shape', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => {
        socket.write(`GET /api/v3/checks HTTP/1.1\r\nAuthorization: Bearer ${api.key}\r\nConnection: close\r\n\r\n`);
      });
      let text = '';
      socket.on('data', (chunk) => {
        text += chunk.toString();
      });
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(raw).toMatch(/content-type: application\/json/i);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({
      success: false,
      errorMsg: 'The request has no Host header, which HTTP/1.1 requires.',
    });
  });
});
