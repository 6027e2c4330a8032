import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { pageText, parsePdf, type ParsedPage } from '../render/support/pdf.ts';
import { signaturePng } from '../render/support/png.ts';

describe.each(dialects())('checks on paper over the API (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  const pdfOf = async (client: Client, path: string, body?: unknown) => {
    const res = await t.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url: `${BASE}${path}`,
      headers: {
        authorization: `Bearer ${client.key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return {
      status: res.statusCode,
      type: res.headers['content-type'],
      bytes: res.rawPayload,
      json: res.headers['content-type']?.toString().startsWith('application/json') ? JSON.parse(res.body) : null,
    };
  };
  const newCheck = async (
    client: Client,
    basics: { bankAccountId: string; payeeId: string },
    extra: Record<string, unknown> = {},
  ): Promise<string> =>
    (await client.post('/checks', { checks: [{ ...basics, amount: '1234.56', memo: 'October repairs', ...extra }] }))
      .body.data.checks[0].checkId;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('printer@example.com');
    ids = await seedBasics(api, { address1: '88 Riverside Drive', city: 'Peoria', state: 'IL', zip: '61602' });
  });
  afterAll(() => t.close());

  it('with no company name set, the drawer block shows the bank account holder, not a blank', async () => {
    const nameless = await t.client('nameless@example.com');
    const bank = await nameless.post('/bankAccounts', {
      bankAccounts: [
        {
          name: 'Jane Q. Holder',
          bankName: 'First Test Bank',
          routingNumber: '011000015',
          accountNumber: '123456789',
          addressLine1: '5 Elm Street',
          city: 'Peoria',
          state: 'IL',
          zip: '61602',
        },
      ],
    });
    expect(bank.status, bank.raw).toBe(201);
    const payee = await nameless.post('/payees', { payees: [{ name: 'Acme Supplies' }] });
    const basics = {
      bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
      payeeId: payee.body.data.payees[0].payeeId,
    };
    const res = await pdfOf(nameless, `/checks/${await newCheck(nameless, basics)}/pdf`);
    expect(res.status).toBe(200);
    const [page] = await parsePdf(res.bytes);
    const text = pageText(page ?? { width: 0, height: 0, texts: [], paths: [], images: [] });
    expect(text).toContain('Jane Q. Holder');
    expect(text).toContain('5 Elm Street');
    expect(text).toContain('Peoria, IL 61602');
  });

  it('GET /checks/{id}/pdf answers a real PDF with the check and a VOID — TEST mark for test keys', async () => {
    const checkId = await newCheck(api, ids);
    const res = await pdfOf(api, `/checks/${checkId}/pdf`);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await parsePdf(res.bytes);
    expect(pages).toHaveLength(1);
    const text = pageText(pages[0] ?? { width: 0, height: 0, texts: [], paths: [], images: [] });
    expect(text).toContain('Acme Supplies');
    expect(text).toContain('1,234.56');
    expect(text).toContain('One Thousand Two Hundred Thirty-Four and 56/100');
    expect(text).toContain('October repairs');
    expect(text).toContain('88 Riverside Drive');
    expect(text).toMatch(/VOID\s*[—-]\s*TEST/);
    // A preview does not print: the status stays New.
    expect((await api.get(`/checks/${checkId}`)).body.data.status).toBe(0);
  });

  it('live checks carry no VOID mark, and the uploaded signature is drawn', async () => {
    const live = await t.client('printer@example.com', { env: 'live' });
    const basics = await seedBasics(live);
    const signature = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/bankAccounts/${basics.bankAccountId}/signature`,
      headers: { authorization: `Bearer ${live.key}`, 'content-type': 'image/png' },
      payload: signaturePng(),
    });
    expect(signature.statusCode).toBe(200);
    expect(JSON.parse(signature.body).data.hasSignature).toBe(true);
    const res = await pdfOf(live, `/checks/${await newCheck(live, basics)}/pdf`);
    const [page] = await parsePdf(res.bytes);
    expect(page?.images.length).toBeGreaterThanOrEqual(1);
    expect(pageText(page ?? { width: 0, height: 0, texts: [], paths: [], images: [] })).not.toMatch(
      /VOID\s*[—-]\s*TEST/,
    );
    const bad = await t.app.inject({
      method: 'PUT',
      url: `${BASE}/bankAccounts/${basics.bankAccountId}/signature`,
      headers: { authorization: `Bearer ${live.key}`, 'content-type': 'image/png' },
      payload: Buffer.from('not an image at all'),
    });
    expect(bad.statusCode).toBe(422);
    expect(JSON.parse(bad.body)).toEqual({
      success: false,
      errorMsg: 'The signature field must be a PNG or JPEG image.',
    });
  });

  it('POST /checks/print: one PDF, one page per check, each check printed with its statement', async () => {
    const first = await newCheck(api, ids);
    const second = await newCheck(api, ids, { amount: 20, memo: 'Second' });
    const res = await pdfOf(api, '/checks/print', { checkIds: [first, second] });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const pages = await parsePdf(res.bytes);
    expect(pages).toHaveLength(2);
    expect(pageText(pages[1] ?? { width: 0, height: 0, texts: [], paths: [], images: [] })).toContain(
      'Twenty and 00/100',
    );
    for (const id of [first, second]) {
      const check = (await api.get(`/checks/${id}`)).body.data;
      expect(check.checkStatus).toEqual({ status: 1, description: 'Printed' });
      expect(check.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'printed']);
    }
  });

  /** Fills in a check's MICR clear band (its bottom 5/8 in); the check's top edge in inches from the paper's top. */
  const clearBandFills = (page: ParsedPage, checkTopIn: number) => {
    const bottom = 792 - (checkTopIn + 3.5) * 72;
    return page.paths.filter((p) => p.paint === 'fill' && p.box.y2 > bottom + 0.01 && p.box.y1 < bottom + 45);
  };
  const statementsOf = async (client: Client, id: string): Promise<string[]> =>
    (await client.get(`/checks/${id}`)).body.data.checkStatements.map((s: { status: string }) => s.status);

  it('POST /checks/print with stock "preprinted" and layout "three-per-page": 20 checks on 7 pages, no MICR line or number, each printed', async () => {
    const made = await api.post('/checks', {
      checks: Array.from({ length: 20 }, (_, i) => ({ ...ids, amount: `${i + 1}.25`, memo: `Batch memo ${i + 1}` })),
    });
    expect(made.status).toBe(201);
    const checks: { checkId: string; serialNumber: string }[] = made.body.data.checks;
    const res = await pdfOf(api, '/checks/print', {
      checkIds: checks.map((c) => c.checkId),
      stock: 'preprinted',
      layout: 'three-per-page',
    });
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    const pages = await parsePdf(res.bytes);
    expect(pages).toHaveLength(7);
    pages.forEach((page, p) => {
      const onPage = p < 6 ? 3 : 2;
      for (let slot = 0; slot < onPage; slot += 1) {
        const n = p * 3 + slot + 1;
        const top = slot * 3.5;
        const memo = page.texts.filter((t) => t.str === `Batch memo ${n}`);
        expect(memo, `check ${n}`).toHaveLength(1);
        const fromTop = (792 - (memo[0]?.y ?? 0)) / 72;
        expect(fromTop, `check ${n} memo in its third`).toBeGreaterThan(top);
        expect(fromTop, `check ${n} memo in its third`).toBeLessThan(top + 3.5);
        expect(clearBandFills(page, top), `check ${n}: no MICR line`).toEqual([]);
        expect(pageText(page), `check ${n}: no check number`).not.toContain(checks[n - 1]?.serialNumber ?? '?');
      }
      expect(pageText(page)).not.toContain('First Test Bank');
    });
    for (const c of checks) {
      const read = (await api.get(`/checks/${c.checkId}`)).body.data;
      expect(read.checkStatus).toEqual({ status: 1, description: 'Printed' });
      expect(read.serialNumber).toBe(c.serialNumber);
    }
  });

  it('without stock and layout it prints as it always did: blank stock, check on top, MICR line drawn', async () => {
    const id = await newCheck(api, ids);
    const res = await pdfOf(api, '/checks/print', { checkIds: [id] });
    const [page] = await parsePdf(res.bytes);
    if (page === undefined) throw new Error('no page');
    expect(clearBandFills(page, 0).length).toBeGreaterThan(20);
    expect(page.texts.filter((t) => /^Check No\. \d+$/.test(t.str))).toHaveLength(2);
    const bottom = await pdfOf(api, '/checks/print', { checkIds: [id], layout: 'bottom' });
    const [low] = await parsePdf(bottom.bytes);
    if (low === undefined) throw new Error('no page');
    expect(clearBandFills(low, 7.5).length).toBe(clearBandFills(page, 0).length);
    expect(clearBandFills(low, 0)).toEqual([]);
  });

  it('reprints a printed check: the same number, a "reprinted" statement, status printed; a void check is refused', async () => {
    // An endpoint, so events are kept (nothing needs to receive them here).
    const hook = await api.post('/webhooks', { url: 'https://hooks.example/print', events: ['check.printed'] });
    expect(hook.status, hook.raw).toBe(201);
    const id = await newCheck(api, ids);
    const number = (await api.get(`/checks/${id}`)).body.data.serialNumber;
    expect((await pdfOf(api, '/checks/print', { checkIds: [id] })).status).toBe(200);
    const again = await pdfOf(api, '/checks/print', { checkIds: [id], stock: 'preprinted', layout: 'middle' });
    expect(again.status).toBe(200);
    expect(await parsePdf(again.bytes)).toHaveLength(1);
    const read = (await api.get(`/checks/${id}`)).body.data;
    expect(read.serialNumber).toBe(number);
    expect(read.checkStatus).toEqual({ status: 1, description: 'Printed' });
    expect(await statementsOf(api, id)).toEqual(['created', 'printed', 'reprinted']);
    // Each print, the reprint too, is a check.printed event for webhooks.
    const events = await t.database.db.all<{ data: string }>(
      "SELECT data FROM events WHERE type = 'check.printed' ORDER BY created_at, id",
    );
    expect(events.filter((e) => e.data.includes(id))).toHaveLength(2);
    // The bank account's next number did not move for the reprint.
    const next = await newCheck(api, ids);
    expect(BigInt((await api.get(`/checks/${next}`)).body.data.serialNumber)).toBe(BigInt(number) + 1n);
    expect((await api.post(`/checks/${id}/void`)).status).toBe(200);
    const refused = await pdfOf(api, '/checks/print', { checkIds: [id] });
    expect(refused.json).toEqual({
      success: false,
      errorMsg: 'The checkIds.0 field names a check that cannot be printed: its status is void.',
    });
  });

  it("refuses an unknown stock or layout, pre-printed stock across bank accounts, and other environments' ids: nothing printed", async () => {
    const id = await newCheck(api, ids);
    const second = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Payroll', bankName: 'Second Bank', routingNumber: '011000015', accountNumber: '55501' }],
    });
    const otherBank = await newCheck(api, {
      bankAccountId: second.body.data.bankAccounts[0].bankAccountId,
      payeeId: ids.payeeId,
    });
    const live = await t.client('printer@example.com', { env: 'live' });
    const liveId = await newCheck(live, await seedBasics(live));
    for (const [body, message] of [
      [{ checkIds: [id], stock: 'glossy' }, 'The stock field must be one of blank, preprinted.'],
      [{ checkIds: [id], layout: 'left' }, 'The layout field must be one of top, middle, bottom, three-per-page.'],
      [
        { checkIds: [id, otherBank], stock: 'preprinted' },
        'The checkIds.1 field names a check of another bank account: pre-printed stock carries one bank account, so print each bank account separately.',
      ],
      [{ checkIds: [id, liveId] }, 'The selected checkIds.1 is invalid.'],
    ] as const) {
      const res = await pdfOf(api, '/checks/print', body);
      expect(res.status, message).toBe(422);
      expect(res.json).toEqual({ success: false, errorMsg: message });
    }
    for (const [client, checkId] of [
      [api, id],
      [api, otherBank],
      [live, liveId],
    ] as const)
      expect(await statementsOf(client, checkId)).toEqual(['created']);
    // Blank stock may mix bank accounts, as it always could.
    expect((await pdfOf(api, '/checks/print', { checkIds: [id, otherBank], layout: 'three-per-page' })).status).toBe(
      200,
    );
  });

  it("prints the bank account's custom 'from' address as the drawer", async () => {
    const from = await api.post('/customFromAddresses', {
      addresses: [
        {
          name: 'Bluebird Garden Supply',
          addressLine1: '1200 Orchard Lane',
          city: 'Springfield',
          state: 'IL',
          zip: '62704',
        },
      ],
    });
    const fromId = from.body.data.addresses[0].customFromAddressId;
    expect(
      (await api.put(`/bankAccounts/${ids.bankAccountId}`, { customFromAddressId: fromId })).body.data
        .customFromAddressId,
    ).toBe(fromId);
    const res = await pdfOf(api, `/checks/${await newCheck(api, ids)}/pdf`);
    const text = pageText((await parsePdf(res.bytes))[0] ?? { width: 0, height: 0, texts: [], paths: [], images: [] });
    expect(text).toContain('Bluebird Garden Supply');
    expect(text).toContain('Springfield, IL 62704');
    await api.put(`/bankAccounts/${ids.bankAccountId}`, { customFromAddressId: null });
  });

  it('refuses void, emailed, unknown and foreign checks, all or nothing', async () => {
    const good = await newCheck(api, ids);
    const voided = await newCheck(api, ids);
    await t.database.db.run('UPDATE checks SET status = 5 WHERE id = ?', [voided]);
    const emailed = await newCheck(api, ids);
    expect((await api.post('/emailchecks', { emailChecks: [{ checkId: emailed }] })).status).toBe(200);
    const stranger = await t.client('other-printer@example.com');
    const theirs = await newCheck(stranger, await seedBasics(stranger));

    for (const [checkIds, message] of [
      [[good, voided], 'The checkIds.1 field names a check that cannot be printed: its status is void.'],
      [[good, emailed], 'The checkIds.1 field names a check that cannot be printed: its status is emailed.'],
      [[good, 'chk_missing'], 'The selected checkIds.1 is invalid.'],
      [[good, theirs], 'The selected checkIds.1 is invalid.'],
      [[good, good], 'The checkIds.1 field has a duplicate value.'],
      [[], 'The checkIds field must have at least 1 item.'],
    ] as const) {
      const res = await pdfOf(api, '/checks/print', { checkIds });
      expect(res.status, message).toBe(422);
      expect(res.json).toEqual({ success: false, errorMsg: message });
    }
    expect((await api.get(`/checks/${good}`)).body.data.status).toBe(0);
    expect((await pdfOf(api, `/checks/${voided}/pdf`)).status).toBe(422);
    expect((await pdfOf(api, `/checks/${theirs}/pdf`)).status).toBe(404);
    expect((await pdfOf(api, '/checks/chk_missing/pdf')).json).toEqual({
      success: false,
      errorMsg: 'Check not found.',
    });
  });

  it('a check the renderer refuses (stored routing number fails its checksum) refuses the whole print, all or nothing', async () => {
    const good = await newCheck(api, ids);
    const bank = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Broken routing', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '987654321' },
      ],
    });
    expect(bank.status).toBe(201);
    const badBankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    // Only a stored value can be wrong: the API itself refuses a bad routing number.
    expect(
      await t.database.db.run('UPDATE bank_accounts SET routing_number = ? WHERE id = ?', [
        '123456789',
        badBankAccountId,
      ]),
    ).toBe(1);
    const bad = await newCheck(api, { bankAccountId: badBankAccountId, payeeId: ids.payeeId });
    const eventsBefore = Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'))?.n);

    const res = await pdfOf(api, '/checks/print', { checkIds: [good, bad] });
    expect(res.status).toBe(422);
    expect(res.type?.toString()).toMatch(/^application\/json/);
    expect(res.json).toEqual({
      success: false,
      errorMsg:
        'The check in checkIds.1 cannot be printed: routing number must be nine digits with a valid ABA checksum.',
    });
    for (const id of [good, bad]) {
      const check = (await api.get(`/checks/${id}`)).body.data;
      expect(check.status, id).toBe(0);
      expect(check.checkStatus, id).toEqual({ status: 0, description: 'New' });
      expect(
        check.checkStatements.map((s: { status: string }) => s.status),
        id,
      ).toEqual(['created']);
    }
    expect(Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'))?.n)).toBe(eventsBefore);
  });

  it('the longest memo and payee name the API accepts still print; a longer memo is refused at creation', async () => {
    const longPayee = await api.post('/payees', {
      payees: [{ name: 'The Extremely Long Named Municipal Water And Sewer Utility District Of Springfield' }],
    });
    const checkId = await newCheck(
      api,
      { bankAccountId: ids.bankAccountId, payeeId: longPayee.body.data.payees[0].payeeId },
      { memo: 'W'.repeat(150) },
    );
    const res = await pdfOf(api, `/checks/${checkId}/pdf`);
    expect(res.status).toBe(200);
    expect(await parsePdf(res.bytes)).toHaveLength(1);
    const tooLong = await api.post('/checks', { checks: [{ ...ids, amount: 1, memo: 'W'.repeat(151) }] });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errorMsg).toBe('The checks.0.memo field must not be greater than 150 characters.');
  });

  it('a stored routing number that fails its checksum is a 422, never a broken PDF', async () => {
    const own = await t.client('badrouting@example.com');
    const basics = await seedBasics(own);
    await t.database.db.run('UPDATE bank_accounts SET routing_number = ? WHERE id = ?', [
      '123456789',
      basics.bankAccountId,
    ]);
    const checkId = await newCheck(own, basics);
    const res = await pdfOf(own, `/checks/${checkId}/pdf`);
    expect(res.status).toBe(422);
    expect(res.json.errorMsg).toMatch(/^The check cannot be printed: .*routing/i);
    const print = await pdfOf(own, '/checks/print', { checkIds: [checkId] });
    expect(print.status).toBe(422);
    expect((await own.get(`/checks/${checkId}`)).body.data.status).toBe(0);
  });
});
