// Records and account settings in the panel, on both databases: every create,
// edit and delete form, refused deletes, the API's rules shown next to the fields, masked account
// numbers, image uploads, settings that reach the API, a real SMTP email and the payee page, other
// accounts' and environments' ids, CSRF, and GET pages that write nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { verifyAccount } from '../../src/services/api-key.service.ts';
import { testWorker } from '../support/worker.ts';
import { dialects } from '../support/databases.ts';
import { type Client, startTestApp, type TestApp } from '../support/app.ts';
import { parseMail, peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { csrfOf, type PanelResponse, Visitor } from '../support/panel-visitor.ts';
import { snapshotTables } from '../support/table-snapshot.ts';
import sharp from 'sharp';
import { signaturePng } from '../render/support/png.ts';
import { chunksNotWritten, pngHeaderSize } from '../support/hostile-images.ts';
import { type ParsedPage, pageText, parsePdf } from '../render/support/pdf.ts';

const PASSWORD = 'correct horse battery';
/** A real ABA routing number (checksum valid) and one that fails the checksum. */
const ROUTING = '011000015';
const BAD_ROUTING = '011000016';

/** The message shown under a field (record-form.ts draws it as <p class="field-error" id="f-NAME-error">). */
function fieldError(body: string, name: string): string | undefined {
  return new RegExp(`<p class="field-error" id="f-${name}-error">([^<]*)</p>`).exec(body)?.[1];
}

/** Every field of an address form, empty (an edit form sends them all). */
const EMPTY_ADDRESS = Object.fromEntries(
  [
    'name',
    'companyName',
    'addressLine1',
    'addressLine2',
    'city',
    'state',
    'zip',
    'country',
    'phone',
    'email',
    'note',
  ].map((f) => [f, '']),
);

/** The id in a redirect to a record's page: /panel/payees/pay_… */
function idFrom(location: string): string {
  const id = /\/panel\/[a-z-]+\/([A-Za-z0-9_]+)/.exec(location)?.[1];
  if (id === undefined) throw new Error(`no id in ${location}`);
  return id;
}

/** A multipart/form-data body as a browser sends a file form. */
function multipart(fields: Record<string, string>, file: { name: string; type: string; bytes: Buffer } | null) {
  const boundary = `----cwtest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file !== null) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

describe.each(dialects())('panel records and settings (%s)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let sms: SmsPeer;
  let worker: DeliveryWorker;
  let closeWorker: () => void;
  let v: Visitor;
  let api: Client;
  let emailSeq = 0;

  const signedUp = async (email: string): Promise<Visitor> => {
    const visitor = new Visitor(t.app);
    const r = await visitor.signUp({ company: 'Acme Payables', email, phone: '+14155552671', password: PASSWORD });
    expect(r.status).toBe(303);
    return visitor;
  };

  /** Uploads `file` with the page's CSRF token, as the browser posts the file form. */
  const upload = async (
    visitor: Visitor,
    pageUrl: string,
    action: string,
    file: { name: string; type: string; bytes: Buffer } | null,
    fields: Record<string, string> = {},
  ): Promise<PanelResponse> => {
    const pageBody = (await visitor.get(pageUrl)).body;
    const { payload, contentType } = multipart({ _csrf: csrfOf(pageBody), ...fields }, file);
    const response = await t.app.inject({
      method: 'POST',
      url: action,
      remoteAddress: visitor.address,
      headers: {
        cookie: [...visitor.cookies].map(([k, val]) => `${k}=${val}`).join('; '),
        'content-type': contentType,
      },
      payload,
    });
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      location: String(response.headers.location ?? ''),
      setCookies: [],
    };
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    sms = await startSmsPeer();
    t = await startTestApp(dialect, { ...peerEnv(smtp, sms), PUBLIC_URL: 'https://checks.example' });
    ({ worker, close: closeWorker } = testWorker(t));
    v = await signedUp('records@acme.test');
    // The same account through the API (a test key, as the panel's default environment).
    api = await t.client('records@acme.test');
  });

  afterAll(async () => {
    closeWorker();
    await t.close();
    await smtp.close();
    await sms.close();
  });

  it('payees: create, edit and delete by form, each visible through the API, and API edits visible here', async () => {
    const created = await v.submit('/panel/payees/new', '/panel/payees', {
      name: 'Globex Corporation',
      company: 'Globex',
      email: 'ap@globex.test',
      phone: '(415) 555-2671',
      city: 'Springfield',
    });
    expect(created.status).toBe(303);
    const payeeId = idFrom(created.location);
    const read = await api.get(`/payees/${payeeId}`);
    expect(read.status).toBe(200);
    // The API's rule normalises the phone to E.164: the panel went through the same service.
    expect(read.body.data).toMatchObject({
      name: 'Globex Corporation',
      email: 'ap@globex.test',
      phone: '+14155552671',
    });

    const payeeForm = {
      name: 'Globex Corp.',
      nickName: '',
      company: 'Globex',
      email: 'billing@globex.test',
      phone: '+14155552671',
      address1: '',
      address2: '',
      city: 'Shelbyville',
      state: '',
      zip: '',
      country: '',
    };
    const edited = await v.submit(`/panel/payees/${payeeId}`, `/panel/payees/${payeeId}`, payeeForm);
    expect(edited.status).toBe(303);
    expect((await api.get(`/payees/${payeeId}`)).body.data).toMatchObject({
      name: 'Globex Corp.',
      email: 'billing@globex.test',
      city: 'Shelbyville',
    });
    // A body without a field the form draws is refused at that field, not saved as '' (clearing it).
    const { email: _email, ...withoutEmail } = payeeForm;
    const unsent = await v.submit(`/panel/payees/${payeeId}`, `/panel/payees/${payeeId}`, withoutEmail);
    expect(unsent.status).toBe(422);
    expect(fieldError(unsent.body, 'email')).toBe(
      'The email field was not sent with the form: reload the page and try again.',
    );
    expect((await api.get(`/payees/${payeeId}`)).body.data.email).toBe('billing@globex.test');

    expect((await api.put(`/payees/${payeeId}`, { nickName: 'GLX' })).status).toBe(200);
    expect((await v.get(`/panel/payees/${payeeId}`)).body).toContain('value="GLX"');

    const deleted = await v.submit(`/panel/payees/${payeeId}`, `/panel/payees/${payeeId}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/panel/payees?notice=record-deleted');
    expect((await api.get(`/payees/${payeeId}`)).status).toBe(404);
  });

  it('payee forms: the API rules, each message under its field, and nothing written', async () => {
    const before = (await api.get('/payees')).body.data.meta.total;
    const bad = await v.submit('/panel/payees/new', '/panel/payees', {
      name: '',
      email: 'not-an-email',
      zip: 'z'.repeat(21),
    });
    expect(bad.status).toBe(422);
    expect(fieldError(bad.body, 'name')).toBe('The name field is required.');
    expect(fieldError(bad.body, 'email')).toBe('The email field must be a valid email address.');
    expect(fieldError(bad.body, 'zip')).toBe('The ZIP code field must not be greater than 20 characters.');
    expect(bad.body).toContain('value="not-an-email"');
    expect(bad.body).toContain('aria-invalid="true" aria-describedby="f-email-error"');
    // The service's own rule (a phone that cannot be a number) lands under the phone field.
    const badPhone = await v.submit('/panel/payees/new', '/panel/payees', { name: 'Initech', phone: '12' });
    expect(badPhone.status).toBe(422);
    expect(fieldError(badPhone.body, 'phone')).toBe('The phone field must be a valid phone number.');
    expect((await api.get('/payees')).body.data.meta.total).toBe(before);
  });

  it('bank accounts: masked number only, routing checksum under its field, next check number used by the API', async () => {
    const refused = await v.submit('/panel/bank-accounts/new', '/panel/bank-accounts', {
      name: 'Operating',
      routingNumber: BAD_ROUTING,
      accountNumber: '9876543210',
    });
    expect(refused.status).toBe(422);
    expect(fieldError(refused.body, 'routingNumber')).toBe(
      'The routing number field must be a valid 9-digit ABA routing number.',
    );
    // The full number typed is not drawn back, even into the refused form.
    expect(refused.body).not.toContain('9876543210');
    const shortNumber = await v.submit('/panel/bank-accounts/new', '/panel/bank-accounts', {
      name: 'Operating',
      routingNumber: ROUTING,
      accountNumber: '12',
    });
    expect(fieldError(shortNumber.body, 'accountNumber')).toBe('The account number field must be 4 to 17 digits.');

    const created = await v.submit('/panel/bank-accounts/new', '/panel/bank-accounts', {
      name: 'Operating',
      bankName: 'First Test Bank',
      routingNumber: ROUTING,
      accountNumber: '9876543210',
      startingSerial: '2500',
    });
    expect(created.status).toBe(303);
    const bankId = idFrom(created.location);
    for (const url of [`/panel/bank-accounts/${bankId}`, '/panel/bank-accounts']) {
      const body = (await v.get(url)).body;
      expect(body).toContain('****3210');
      expect(body).not.toContain('9876543210');
    }
    const read = (await api.get(`/bankAccounts/${bankId}`)).body.data;
    expect(read).toMatchObject({ accountNumber: '****3210', nextSerial: '2500', routingNumber: ROUTING });

    // The next check number, edited here, is the serial the API gives the next check.
    const bankForm = {
      name: 'Operating (main)',
      bankName: 'First Test Bank',
      bankAddress: '',
      nextSerial: '7001',
      customFromAddressId: '',
      printOffsetX: '5',
      printOffsetY: '-3',
    };
    const edited = await v.submit(`/panel/bank-accounts/${bankId}`, `/panel/bank-accounts/${bankId}`, bankForm);
    expect(edited.status).toBe(303);
    const payee = (await api.post('/payees', { payees: [{ name: 'Hooli' }] })).body.data.payees[0].payeeId;
    const check = await api.post('/checks', { checks: [{ bankAccountId: bankId, payeeId: payee, amount: '10.00' }] });
    expect(check.body.data.checks[0].serialNumber).toBe('7001');
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data).toMatchObject({
      name: 'Operating (main)',
      printOffsetX: 5,
      printOffsetY: -3,
    });

    // Without its offsets, the form is refused, not saved with 0 (the printer's calibration lost).
    const { printOffsetX: _x, printOffsetY: _y, ...withoutOffsets } = bankForm;
    const unsent = await v.submit(`/panel/bank-accounts/${bankId}`, `/panel/bank-accounts/${bankId}`, {
      ...withoutOffsets,
      nextSerial: '7002',
    });
    expect(unsent.status).toBe(422);
    expect(fieldError(unsent.body, 'printOffsetY')).toBe(
      'The printer offset down field was not sent with the form: reload the page and try again.',
    );
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data).toMatchObject({ printOffsetX: 5, printOffsetY: -3 });

    const badEdit = await v.submit(`/panel/bank-accounts/${bankId}`, `/panel/bank-accounts/${bankId}`, {
      ...bankForm,
      nextSerial: 'abc',
      printOffsetX: '99',
    });
    expect(badEdit.status).toBe(422);
    expect(fieldError(badEdit.body, 'nextSerial')).toBe('The next check number field must be an integer.');
    expect(fieldError(badEdit.body, 'printOffsetX')).toBe(
      'The printer offset right field must not be greater than 50.',
    );
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.nextSerial).toBe('7002');

    // A check is drawn on it and names the payee: neither can be deleted, and nothing changes.
    const keepBank = await v.submit(`/panel/bank-accounts/${bankId}`, `/panel/bank-accounts/${bankId}/delete`, {});
    expect(keepBank.status).toBe(409);
    expect(keepBank.body).toContain('Checks are drawn on this bank account, so it cannot be deleted.');
    expect((await api.get(`/bankAccounts/${bankId}`)).status).toBe(200);
    const keepPayee = await v.submit(`/panel/payees/${payee}`, `/panel/payees/${payee}/delete`, {});
    expect(keepPayee.status).toBe(409);
    expect(keepPayee.body).toContain('This payee has checks, so it cannot be deleted.');
    expect((await api.get(`/payees/${payee}`)).status).toBe(200);

    // One with no checks goes.
    const spare = await v.submit('/panel/bank-accounts/new', '/panel/bank-accounts', {
      name: 'Spare',
      routingNumber: ROUTING,
      accountNumber: '55554444',
    });
    const spareId = idFrom(spare.location);
    expect(
      (await v.submit(`/panel/bank-accounts/${spareId}`, `/panel/bank-accounts/${spareId}/delete`, {})).status,
    ).toBe(303);
    expect((await api.get(`/bankAccounts/${spareId}`)).status).toBe(404);
  });

  it('signature and logo uploads: real PNG bytes kept; a large or non-image file refused with its message', async () => {
    const bankId = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Uploads', routingNumber: ROUTING, accountNumber: '11112222' }],
      })
    ).body.data.bankAccounts[0].bankAccountId as string;
    const pageUrl = `/panel/bank-accounts/${bankId}`;
    const png = signaturePng(120, 40);

    const notImage = await upload(v, pageUrl, `${pageUrl}/signature`, {
      name: 'sig.txt',
      type: 'image/png',
      bytes: Buffer.from('this is not an image at all'),
    });
    expect(notImage.status).toBe(422);
    expect(notImage.body).toContain('The signature field must be a PNG or JPEG image.');
    expect(notImage.body).toContain('id="upload-signature-error"');
    const tooLarge = await upload(v, pageUrl, `${pageUrl}/signature`, {
      name: 'big.png',
      type: 'image/png',
      bytes: Buffer.concat([png, Buffer.alloc(600 * 1024)]),
    });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.body).toContain('The file is larger than 512 KB');
    expect(tooLarge.body).toContain('id="upload-signature-error"');
    // Far over the limit: refused from its Content-Length, before the body is read.
    const huge = await upload(v, pageUrl, `${pageUrl}/signature`, {
      name: 'huge.png',
      type: 'image/png',
      bytes: Buffer.concat([png, Buffer.alloc(3 * 1024 * 1024)]),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toContain('The file is larger than 512 KB');
    const none = await upload(v, pageUrl, `${pageUrl}/signature`, null);
    expect(none.status).toBe(422);
    expect(none.body).toContain('Choose a PNG or JPEG file to upload.');
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.hasSignature).toBe(false);

    const saved = await upload(v, pageUrl, `${pageUrl}/signature`, { name: 'sig.png', type: 'image/png', bytes: png });
    expect(saved.status).toBe(303);
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.hasSignature).toBe(true);
    const stored = await t.database.db.get<{ signature: Buffer }>('SELECT signature FROM bank_accounts WHERE id = ?', [
      bankId,
    ]);
    // Not the uploaded bytes: the image as the server wrote it again (same size, same pixels, no metadata).
    const kept = Buffer.from(stored?.signature ?? Buffer.alloc(0));
    expect(kept.equals(png)).toBe(false);
    expect(pngHeaderSize(kept)).toEqual({ width: 120, height: 40 });
    expect(chunksNotWritten(kept)).toEqual([]);
    expect((await sharp(kept).raw().toBuffer()).equals(await sharp(png).raw().toBuffer())).toBe(true);
    // The page previews it as a check prints it: the stored bytes, in the signature box.
    const withSignature = (await v.get(pageUrl)).body;
    expect(withSignature).toContain(
      `<div class="signature-box"><img src="${pageUrl}/signature" alt="The signature on file for`,
    );
    expect(withSignature).toContain('<figcaption>AUTHORIZED SIGNATURE</figcaption>');
    const cookie = [...v.cookies].map(([k, value]) => `${k}=${value}`).join('; ');
    const image = await t.app.inject({
      method: 'GET',
      url: `${pageUrl}/signature`,
      remoteAddress: v.address,
      headers: { cookie },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(kept)).toBe(true);

    // The logo's limit is 256 KB: a 300 KB PNG fits the signature's limit but not the logo's.
    const bigLogo = await upload(v, pageUrl, `${pageUrl}/logo`, {
      name: 'logo.png',
      type: 'image/png',
      bytes: Buffer.concat([png, Buffer.alloc(300 * 1024)]),
    });
    expect(bigLogo.status).toBe(413);
    expect(bigLogo.body).toContain('The logo field must not be larger than 256 KB.');
    const logo = await upload(v, pageUrl, `${pageUrl}/logo`, { name: 'logo.png', type: 'image/png', bytes: png });
    expect(logo.status).toBe(303);
    expect((await v.get(pageUrl)).body).toMatch(/Logo<\/h2>\s*<p><span class="status ok">On file/);

    const removed = await v.submit(pageUrl, `${pageUrl}/signature/delete`, {});
    expect(removed.status).toBe(303);
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.hasSignature).toBe(false);
    expect((await v.get(`${pageUrl}/signature`)).status).toBe(404);
    expect((await v.get(pageUrl)).body).not.toContain('class="signature-box"');
  });

  it('categories: create, edit, delete; one a check is filed under is kept', async () => {
    const created = await v.submit('/panel/categories/new', '/panel/categories', { name: 'Rent', type: 'expense' });
    expect(created.status).toBe(303);
    const categoryId = idFrom(created.location);
    const listed = (await api.get('/categories')).body.data.categories;
    expect(listed).toContainEqual({ categoryId, name: 'Rent', type: 'expense' });
    await v.submit(`/panel/categories/${categoryId}`, `/panel/categories/${categoryId}`, {
      name: 'Office rent',
      type: 'expense',
    });
    expect((await api.get('/categories')).body.data.categories).toContainEqual({
      categoryId,
      name: 'Office rent',
      type: 'expense',
    });
    const long = await v.submit('/panel/categories/new', '/panel/categories', { name: 'x'.repeat(101) });
    expect(fieldError(long.body, 'name')).toBe('The name field must not be greater than 100 characters.');

    const bank = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Cat', routingNumber: ROUTING, accountNumber: '3333' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
    const payee = (await api.post('/payees', { payees: [{ name: 'Landlord' }] })).body.data.payees[0].payeeId;
    expect(
      (await api.post('/checks', { checks: [{ bankAccountId: bank, payeeId: payee, categoryId, amount: '900.00' }] }))
        .status,
    ).toBe(201);
    const kept = await v.submit(`/panel/categories/${categoryId}`, `/panel/categories/${categoryId}/delete`, {});
    expect(kept.status).toBe(409);
    expect(kept.body).toContain('Checks are filed under this category, so it cannot be deleted.');

    const unused = idFrom((await v.submit('/panel/categories/new', '/panel/categories', { name: 'Misc' })).location);
    expect((await v.submit(`/panel/categories/${unused}`, `/panel/categories/${unused}/delete`, {})).status).toBe(303);
    const ids = (await api.get('/categories')).body.data.categories.map((c: { categoryId: string }) => c.categoryId);
    expect(ids).toContain(categoryId);
    expect(ids).not.toContain(unused);
  });

  it('from and to addresses: create, edit, delete; a from address a bank account prints is kept', async () => {
    const from = await v.submit('/panel/from-addresses/new', '/panel/from-addresses', {
      name: 'Acme HQ',
      addressLine1: '1 Main St',
      city: 'Springfield',
      email: 'bad@',
    });
    expect(fieldError(from.body, 'email')).toBe('The email field must be a valid email address.');
    const fromOk = await v.submit('/panel/from-addresses/new', '/panel/from-addresses', {
      name: 'Acme HQ',
      addressLine1: '1 Main St',
      city: 'Springfield',
    });
    const fromId = idFrom(fromOk.location);
    await v.submit(`/panel/from-addresses/${fromId}`, `/panel/from-addresses/${fromId}`, {
      ...EMPTY_ADDRESS,
      name: 'Acme HQ',
      addressLine1: '2 Main St',
      city: 'Springfield',
    });
    expect((await api.get(`/customFromAddresses/${fromId}`)).body.data).toMatchObject({
      id: fromId,
      addressLine1: '2 Main St',
    });
    // A bank account made here prints it: the address cannot go while that is so.
    const bank = await v.submit('/panel/bank-accounts/new', '/panel/bank-accounts', {
      name: 'Printed from HQ',
      routingNumber: ROUTING,
      accountNumber: '44445555',
      customFromAddressId: fromId,
    });
    expect((await api.get(`/bankAccounts/${idFrom(bank.location)}`)).body.data.customFromAddressId).toBe(fromId);
    const kept = await v.submit(`/panel/from-addresses/${fromId}`, `/panel/from-addresses/${fromId}/delete`, {});
    expect(kept.status).toBe(409);
    expect((await api.get(`/customFromAddresses/${fromId}`)).status).toBe(200);

    const to = await v.submit('/panel/to-addresses/new', '/panel/to-addresses', {
      name: 'Warehouse',
      city: 'Ogdenville',
    });
    const toId = idFrom(to.location);
    await v.submit(`/panel/to-addresses/${toId}`, `/panel/to-addresses/${toId}`, {
      ...EMPTY_ADDRESS,
      name: 'Warehouse 2',
      city: 'Ogdenville',
    });
    const toList = (await api.get('/customToAddresses')).body.data.addresses;
    expect(toList.find((a: { customToAddressId: string }) => a.customToAddressId === toId)?.name).toBe('Warehouse 2');
    expect((await v.submit(`/panel/to-addresses/${toId}`, `/panel/to-addresses/${toId}/delete`, {})).status).toBe(303);
    const after = (await api.get('/customToAddresses')).body.data.addresses;
    expect(after.some((a: { customToAddressId: string }) => a.customToAddressId === toId)).toBe(false);
  });

  it("another account's ids and the other environment's ids are 404, and nothing changes", async () => {
    const payeeId = (await api.post('/payees', { payees: [{ name: 'Private Payee' }] })).body.data.payees[0].payeeId;
    const catId = (await api.post('/categories', { name: 'Private' })).body.data.categoryId;
    const bankId = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Private bank', routingNumber: ROUTING, accountNumber: '24682468' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
    const fromId = (await api.post('/customFromAddresses', { addresses: [{ name: 'Private HQ' }] })).body.data
      .addresses[0].customFromAddressId;
    const stranger = await signedUp('stranger@other.test');
    const strangerUpload = await upload(stranger, '/panel/settings', `/panel/bank-accounts/${bankId}/signature`, {
      name: 's.png',
      type: 'image/png',
      bytes: signaturePng(40, 20),
    });
    expect(strangerUpload.status).toBe(404);
    expect((await stranger.get(`/panel/bank-accounts/${bankId}/signature`)).status).toBe(404);
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.hasSignature).toBe(false);
    for (const url of [
      `/panel/payees/${payeeId}`,
      `/panel/categories/${catId}`,
      `/panel/bank-accounts/${bankId}`,
      `/panel/from-addresses/${fromId}`,
    ]) {
      expect((await stranger.get(url)).status).toBe(404);
      const csrf = csrfOf((await stranger.get('/panel/payees')).body);
      expect((await stranger.post(url, { _csrf: csrf, name: 'Stolen' })).status).toBe(404);
      expect((await stranger.post(`${url}/delete`, { _csrf: csrf })).status).toBe(404);
    }
    // The same account's live view does not see test records.
    expect((await v.get(`/panel/payees/${payeeId}?env=live`)).status).toBe(404);
    const csrf = csrfOf((await v.get('/panel/payees')).body);
    expect((await v.post(`/panel/payees/${payeeId}/delete`, { _csrf: csrf, env: 'live' })).status).toBe(404);
    expect((await api.get(`/payees/${payeeId}`)).body.data.name).toBe('Private Payee');
    expect((await api.get(`/bankAccounts/${bankId}`)).body.data.name).toBe('Private bank');
    expect((await api.get(`/customFromAddresses/${fromId}`)).body.data.name).toBe('Private HQ');
    expect((await api.get('/categories')).body.data.categories.map((c: { name: string }) => c.name)).toContain(
      'Private',
    );
  });

  it('refuses forms without the CSRF token, and GET pages write nothing', async () => {
    const payeeId = (await api.post('/payees', { payees: [{ name: 'Csrf Target' }] })).body.data.payees[0].payeeId;
    const base = await snapshotTables(t.database.db);
    expect((await v.post('/panel/payees', { name: 'No token' })).status).toBe(403);
    expect((await v.post(`/panel/payees/${payeeId}/delete`, {})).status).toBe(403);
    expect((await v.post('/panel/settings', { company: 'Hijacked', timeZone: 'UTC' })).status).toBe(403);
    // An upload with a token that is not this session's is refused too (the file is read, then checked).
    const { payload, contentType } = multipart(
      { _csrf: 'forged-token-forged-token' },
      { name: 'l.png', type: 'image/png', bytes: signaturePng(20, 10) },
    );
    const refused = await t.app.inject({
      method: 'POST',
      url: '/panel/settings/logo',
      remoteAddress: v.address,
      headers: { cookie: [...v.cookies].map(([k, val]) => `${k}=${val}`).join('; '), 'content-type': contentType },
      payload,
    });
    expect(refused.statusCode).toBe(403);
    for (const url of [
      '/panel/payees',
      '/panel/payees/new',
      `/panel/payees/${payeeId}`,
      '/panel/bank-accounts',
      '/panel/bank-accounts/new',
      '/panel/categories',
      '/panel/categories/new',
      '/panel/from-addresses',
      '/panel/from-addresses/new',
      '/panel/to-addresses',
      '/panel/to-addresses/new',
      '/panel/settings',
      '/panel/payees?env=live',
    ]) {
      const res = await v.get(url);
      expect(res.status, url).toBe(200);
      // Every form control has a label.
      for (const id of res.body.matchAll(/<(?:input|select|textarea)[^>]*\bid="([^"]+)"/g))
        expect(res.body, `${url}: label for ${id[1]}`).toContain(`for="${id[1]}"`);
    }
    expect(await snapshotTables(t.database.db)).toEqual(base);
  });

  it('settings: company, address, phone and time zone saved; checked like the API; seen by payees and the API', async () => {
    const bad = await v.submit('/panel/settings', '/panel/settings', {
      company: '',
      companyAddress: '1 Main St',
      companyPhone: '555',
      timeZone: 'Mars/Olympus_Mons',
    });
    expect(bad.status).toBe(422);
    expect(fieldError(bad.body, 'company')).toBe('The company name field is required.');
    expect(fieldError(bad.body, 'companyPhone')).toBe('The phone field must be a valid phone number.');
    expect(fieldError(bad.body, 'timeZone')).toContain('must be an IANA time zone name');
    expect(
      fieldError(
        (
          await v.submit('/panel/settings', '/panel/settings', {
            company: 'X',
            companyAddress: '',
            companyPhone: '',
            timeZone: '+05:00',
          })
        ).body,
        'timeZone',
      ),
    ).toContain('IANA');

    // A check made while the account is on UTC: its statement time moves with the zone.
    const bank = (
      await api.post('/bankAccounts', { bankAccounts: [{ name: 'Tz', routingNumber: ROUTING, accountNumber: '7777' }] })
    ).body.data.bankAccounts[0].bankAccountId;
    const payee = (await api.post('/payees', { payees: [{ name: 'Tz Payee' }] })).body.data.payees[0].payeeId;
    const checkId = (await api.post('/checks', { checks: [{ bankAccountId: bank, payeeId: payee, amount: '1.00' }] }))
      .body.data.checks[0].checkId;
    const createdAt = (
      await t.database.db.get<{ created_at: number }>('SELECT created_at FROM checks WHERE id = ?', [checkId])
    )?.created_at;

    const saved = await v.submit('/panel/settings', '/panel/settings', {
      company: 'Acme Widgets LLC',
      companyAddress: '1 Main St, Springfield, IL 62701',
      companyPhone: '(415) 555-2671',
      timeZone: 'Asia/Kolkata',
    });
    expect(saved.status).toBe(303);
    const page = (await v.get('/panel/settings')).body;
    expect(page).toContain('value="Acme Widgets LLC"');
    expect(page).toContain('value="+14155552671"');
    expect(page).toContain('value="1 Main St, Springfield, IL 62701"');
    // A body without the phone is refused at its field, not saved as '' (clearing it).
    const unsent = await v.submit('/panel/settings', '/panel/settings', {
      company: 'Acme Widgets LLC',
      companyAddress: '1 Main St, Springfield, IL 62701',
      timeZone: 'Asia/Kolkata',
    });
    expect(unsent.status).toBe(422);
    expect(fieldError(unsent.body, 'companyPhone')).toBe(
      'The phone field was not sent with the form: reload the page and try again.',
    );
    expect((await v.get('/panel/settings')).body).toContain('value="+14155552671"');
    // India is UTC+5:30 all year: the statement's clock time is the UTC time plus 5 h 30 min.
    const statement = (await api.get(`/checks/${checkId}`)).body.data.checkStatements[0];
    const local = new Date(Number(createdAt) + 5.5 * 3600_000);
    const hour = local.getUTCHours() % 12 === 0 ? 12 : local.getUTCHours() % 12;
    expect(statement.time).toBe(
      `${String(hour).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')} ${local.getUTCHours() < 12 ? 'am' : 'pm'}`,
    );
  });

  it('the company name set in settings is the sender of a real SMTP email and on the payee page', async () => {
    emailSeq += 1;
    const email = `sender${emailSeq}@acme.test`;
    const owner = await signedUp(email);
    await verifyAccount(t.database.db, email, { email: true, phone: true });
    await owner.submit('/panel/settings', '/panel/settings', {
      company: 'Springfield Nuclear LLC',
      companyAddress: '100 Industrial Way, Springfield',
      companyPhone: '415 555 0100',
      timeZone: 'UTC',
    });
    const live = await t.client(email, { env: 'live' });
    const bank = (
      await live.post('/bankAccounts', { bankAccounts: [{ name: 'L', routingNumber: ROUTING, accountNumber: '8888' }] })
    ).body.data.bankAccounts[0].bankAccountId;
    const payee = (await live.post('/payees', { payees: [{ name: 'Homer', email: 'homer@payee.test' }] })).body.data
      .payees[0].payeeId;
    const checkId = (
      await live.post('/checks', { checks: [{ bankAccountId: bank, payeeId: payee, amount: '1234.56' }] })
    ).body.data.checks[0].checkId;
    expect((await live.post('/emailchecks', { emailChecks: [{ checkId }] })).status).toBe(200);
    await worker.drain();
    const mails = await Promise.all(smtp.received.map((m) => parseMail(m.raw)));
    const mail = mails.find((m) => m.to?.some((a) => a.address === 'homer@payee.test'));
    expect(mail?.subject).toBe('Springfield Nuclear LLC sent you a check for $1,234.56');
    const link = /https:\/\/checks\.example(\/c\/[A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1] ?? '';
    expect(link).not.toBe('');
    const payeePage = await t.app.inject({ method: 'GET', url: link });
    expect(payeePage.body).toContain('<h1>Springfield Nuclear LLC sent you a check</h1>');
    expect(payeePage.body).toContain('<dt>Sender</dt><dd>100 Industrial Way, Springfield · +14155550100</dd>');
  });

  it('logos print at the top left of the check (bank account first, else the account), the drawer text beside them', async () => {
    emailSeq += 1;
    const email = `logo${emailSeq}@acme.test`;
    const owner = await signedUp(email);
    await owner.submit('/panel/settings', '/panel/settings', {
      company: 'Logo Works Inc',
      companyAddress: '9 Elm St, Shelbyville, IL 62565',
      companyPhone: '',
      timeZone: 'UTC',
    });
    const client = await t.client(email);
    const bank = (
      await client.post('/bankAccounts', {
        bankAccounts: [{ name: 'L', routingNumber: ROUTING, accountNumber: '6666' }],
      })
    ).body.data.bankAccounts[0].bankAccountId as string;
    const payee = (await client.post('/payees', { payees: [{ name: 'Pat' }] })).body.data.payees[0].payeeId;
    const checkId = (
      await client.post('/checks', { checks: [{ bankAccountId: bank, payeeId: payee, amount: '5.00' }] })
    ).body.data.checks[0].checkId as string;
    const preview = async (): Promise<ParsedPage> => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/v3/checks/${checkId}/pdf`,
        headers: { authorization: `Bearer ${client.key}` },
      });
      expect(res.statusCode).toBe(200);
      const [first] = await parsePdf(res.rawPayload);
      if (first === undefined) throw new Error('no page');
      return first;
    };
    const nameX = (p: ParsedPage): number => p.texts.find((x) => x.str === 'Logo Works Inc')?.x ?? Number.NaN;
    const top = (p: ParsedPage) => p.images.filter((b) => b.y2 > p.height - 0.9 * 72 && b.x2 < 1.5 * 72);

    const plain = await preview();
    // The settings' address completes the drawer block when the bank account has no from address.
    expect(pageText(plain)).toContain('9 Elm St, Shelbyville, IL 62565');
    expect(top(plain)).toHaveLength(0);
    expect(nameX(plain)).toBeCloseTo(0.5 * 72, 0);

    // The account's logo (settings) is printed on a bank account that has none of its own.
    const logo = signaturePng(160, 110);
    expect(
      (
        await upload(owner, '/panel/settings', '/panel/settings/logo', {
          name: 'l.png',
          type: 'image/png',
          bytes: logo,
        })
      ).status,
    ).toBe(303);
    const withLogo = await preview();
    const [box] = top(withLogo);
    expect(top(withLogo)).toHaveLength(1);
    // Inside the 0.8 x 0.55 in box at the left margin, 0.22 in from the top.
    expect(box?.x1 ?? 0).toBeGreaterThanOrEqual(0.5 * 72 - 0.5);
    expect(box?.x2 ?? 0).toBeLessThanOrEqual(1.3 * 72 + 0.5);
    expect(box?.y2 ?? 0).toBeLessThanOrEqual(withLogo.height - 0.22 * 72 + 0.5);
    expect(nameX(withLogo)).toBeCloseTo(1.4 * 72, 0);

    // The bank account's own logo replaces it; removing it brings the account's back.
    const wide = signaturePng(300, 60);
    const bankPage = `/panel/bank-accounts/${bank}`;
    expect(
      (await upload(owner, bankPage, `${bankPage}/logo`, { name: 'w.png', type: 'image/png', bytes: wide })).status,
    ).toBe(303);
    const own = top(await preview());
    expect(own).toHaveLength(1);
    // A 5:1 image fills the box's width: 0.8 in wide, 0.16 in high.
    expect(((own[0]?.x2 ?? 0) - (own[0]?.x1 ?? 0)) / 72).toBeCloseTo(0.8, 2);
    expect(((own[0]?.y2 ?? 0) - (own[0]?.y1 ?? 0)) / 72).toBeCloseTo(0.16, 2);
    expect((await owner.submit(bankPage, `${bankPage}/logo/delete`, {})).status).toBe(303);
    const back = top(await preview());
    expect(((back[0]?.x2 ?? 0) - (back[0]?.x1 ?? 0)) / 72).toBeCloseTo((0.55 * 160) / 110, 2);
  });
});
