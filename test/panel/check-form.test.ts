// Writing checks in the panel over inject, on both databases: the form saves through the API's
// service (the API reads every field back), validation messages land next to their field with the
// API's own wording, edit/delete only while new, void with a confirm step, duplicate, the payee
// search's JSON stays inside the account and environment, other accounts' ids are 404, a form
// without its CSRF token is refused, and GET pages write nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addYears, today } from '../../src/domain/dates.ts';
import { dialects } from '../support/databases.ts';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { snapshotTables } from '../support/table-snapshot.ts';
import * as bankAccountService from '../../src/services/bank-account.service.ts';
import * as payeeService from '../../src/services/payee.service.ts';
import type { ServiceContext } from '../../src/services/context.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('writing checks in the panel (%s)', (dialect) => {
  let t: TestApp;
  let phone = 300;
  let a: { visitor: Visitor; api: Client; accountId: string };
  let b: { visitor: Visitor; api: Client; accountId: string };
  let bankAccountId: string;
  let payeeId: string;
  let categoryId: string;

  const ctx = (): ServiceContext => ({
    db: t.database.db,
    config: t.config,
    now: Date.now,
    secret: t.keys.secret,
    vault: t.keys.vault,
    heavyWork: t.heavyWork,
  });

  async function account(email: string): Promise<{ visitor: Visitor; api: Client; accountId: string }> {
    const visitor = new Visitor(t.app);
    phone += 1;
    const signedUp = await visitor.signUp({
      company: `Company of ${email}`,
      email,
      phone: `+1415555${String(phone).padStart(4, '0')}`,
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    const key = await visitor.createKey('k');
    const row = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]);
    return {
      visitor,
      api: clientFor(t.app, key),
      accountId: row?.id ?? '',
    };
  }

  const checkCount = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'))?.n ?? 0);
  const payeeCount = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM payees'))?.n ?? 0);

  /** A complete, valid form; cases override single fields. */
  const goodForm = (): Record<string, string> => ({
    bankAccountId,
    payee: 'Acme Supplies',
    payeeId: '',
    amount: '1234.56',
    issueDate: '2026-12-01',
    memo: 'November rent',
    invoiceNumber: 'INV-77',
    categoryId,
    'voucher.0.description': 'Rent, unit 4',
    'voucher.0.amount': '1200.00',
    'voucher.1.description': 'Parking',
    'voucher.1.amount': '34.56',
  });

  const write = (visitor: Visitor, form: Record<string, string>) =>
    visitor.submit('/panel/checks/new', '/panel/checks/new', form);
  const idFrom = (location: string): string => /\/panel\/checks\/(chk_[\w-]+)/.exec(location)?.[1] ?? '';

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'http://panel.test' });
    a = await account('writer@panel.test');
    b = await account('other@panel.test');
    ({ bankAccountId, payeeId } = await seedBasics(a.api));
    const category = await a.api.post('/categories', { categories: [{ name: 'Rent', type: 'expense' }] });
    expect(category.status).toBe(201);
    categoryId = category.body.data.categories[0].categoryId;
    await seedBasics(b.api, { name: 'Acme Secret of B' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('shows the form with a label on every control and the account’s own choices', async () => {
    const form = await a.visitor.get('/panel/checks/new');
    expect(form.status).toBe(200);
    const ids = [...form.body.matchAll(/<(?:input|select)\b(?![^>]*type="hidden")[^>]*\bid="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(ids.length).toBeGreaterThan(20);
    for (const id of ids) expect(form.body, `label for ${id}`).toContain(`<label for="${id}"`);
    expect(form.body).toContain('Operating');
    expect(form.body).toContain('>Rent</option>');
    expect(form.body).toContain('<option value="Acme Supplies">');
    expect(form.body).not.toContain('Acme Secret of B');
    const list = await a.visitor.get('/panel/checks');
    expect(list.body).toContain('href="/panel/checks/new">Write a check</a>');
  });

  it('saves a check that the API reads back field by field, voucher and category included', async () => {
    const before = await checkCount();
    const saved = await write(a.visitor, goodForm());
    expect(saved.status).toBe(303);
    const id = idFrom(saved.location);
    expect(saved.location).toBe(`/panel/checks/${id}?notice=check-saved`);
    expect(await checkCount()).toBe(before + 1);

    const read = await a.api.get(`/checks/${id}`);
    expect(read.status).toBe(200);
    const check = read.body.data;
    expect(check.amount).toBe(1234.56);
    expect(check.amountInWord).toBe('One Thousand Two Hundred Thirty-Four and 56/100');
    expect(check.date).toBe('2026-12-01');
    expect(check.memo).toBe('November rent');
    expect(check.invoiceNumber).toBe('INV-77');
    expect(check.status).toBe(0);
    expect(check.payee).toEqual({ payeeId, name: 'Acme Supplies' });
    expect(check.bankAccount).toEqual({ bankAccountId, name: 'Operating' });
    const voucher = await a.api.get(`/checks/${id}/voucher`);
    expect(voucher.status).toBe(200);
    expect(
      voucher.body.data.voucherItems.map((i: { description: string; total: unknown }) => [
        i.description,
        Number(i.total),
      ]),
    ).toEqual([
      ['Rent, unit 4', 1200],
      ['Parking', 34.56],
    ]);
    // The API's read shape has no category; the row holds it.
    const row = await t.database.db.get<{ category_id: string }>('SELECT category_id FROM checks WHERE id = ?', [id]);
    expect(row?.category_id).toBe(categoryId);

    const shown = await a.visitor.get(saved.location);
    expect(shown.body).toContain('The check is saved with status new.');
    for (const action of ['edit', 'delete', 'void']) expect(shown.body).toContain(`/panel/checks/${id}/${action}"`);
    expect(shown.body).toContain(`/panel/checks/new?from=${id}"`);
  });

  it('creates a new payee typed into the form in the same transaction as the check', async () => {
    const form = {
      ...goodForm(),
      payee: '',
      newPayee: '1',
      'newPayee.name': 'Harbor Plumbing',
      'newPayee.email': 'billing@harbor.test',
      'newPayee.address1': '1 Dock St',
      'newPayee.city': 'Portland',
      'newPayee.state': 'ME',
      'newPayee.zip': '04101',
    };
    // A refused check keeps no payee either.
    const payeesBefore = await payeeCount();
    const refused = await write(a.visitor, { ...form, amount: '0' });
    expect(refused.status).toBe(422);
    expect(await payeeCount()).toBe(payeesBefore);
    expect(refused.body).toContain('value="Harbor Plumbing"');

    const saved = await write(a.visitor, form);
    expect(saved.status).toBe(303);
    const check = (await a.api.get(`/checks/${idFrom(saved.location)}`)).body.data;
    expect(check.payee.name).toBe('Harbor Plumbing');
    const payee = (await a.api.get(`/payees/${check.payee.payeeId}`)).body.data;
    expect(payee).toMatchObject({
      name: 'Harbor Plumbing',
      email: 'billing@harbor.test',
      address1: '1 Dock St',
      city: 'Portland',
      state: 'ME',
      zip: '04101',
    });
    expect(await payeeCount()).toBe(payeesBefore + 1);
  });

  // [form changes, the form field the message belongs to, the message, the same input to the API]
  const CASES: [Record<string, string>, string, string, Record<string, unknown> | null][] = [
    [{ bankAccountId: '' }, 'bankAccountId', 'The bank account field is required.', { bankAccountId: '' }],
    [
      { bankAccountId: 'bnk_nope' },
      'bankAccountId',
      'The selected bank account is invalid.',
      { bankAccountId: 'bnk_nope' },
    ],
    [{ payee: '' }, 'payee', 'The payee field is required.', { payeeId: null }],
    [{ payee: 'Nobody Known' }, 'payee', 'No payee is named "Nobody Known".', null],
    [{ amount: '' }, 'amount', 'The amount field is required.', { amount: undefined }],
    [{ amount: 'twelve' }, 'amount', 'The amount field must be a number.', { amount: 'twelve' }],
    [{ amount: '1.234' }, 'amount', 'The amount field must have at most 2 decimal places.', { amount: '1.234' }],
    [{ amount: '0' }, 'amount', 'The amount field must be greater than 0.', { amount: '0' }],
    [
      { amount: '100000000' },
      'amount',
      'The amount field must not be greater than 99999999.99.',
      { amount: '100000000' },
    ],
    [
      { issueDate: '2026-02-30' },
      'issueDate',
      // The API says "must be a valid date: February 2026 has 28 days"; the form quotes what was typed.
      '"2026-02-30" is not a date: February 2026 has 28 days.',
      null,
    ],
    // Dates that make sense: from 2000 to a year after today.
    [
      { issueDate: '1900-01-01' },
      'issueDate',
      'The date field must not be before 2000-01-01.',
      { issueDate: '1900-01-01' },
    ],
    [
      { issueDate: '9999-12-31' },
      'issueDate',
      `The date field must not be after ${addYears(today('UTC'), 1)}.`,
      { issueDate: '9999-12-31' },
    ],
    [
      { memo: 'm'.repeat(151) },
      'memo',
      'The memo field must not be greater than 150 characters.',
      { memo: 'm'.repeat(151) },
    ],
    [
      { invoiceNumber: 'i'.repeat(51) },
      'invoiceNumber',
      'The invoice number field must not be greater than 50 characters.',
      { invoiceNumber: 'i'.repeat(51) },
    ],
    [{ categoryId: 'cat_nope' }, 'categoryId', 'The selected category is invalid.', { categoryId: 'cat_nope' }],
    [
      { 'voucher.0.description': '', 'voucher.0.amount': '', 'voucher.1.amount': 'lots' },
      'voucher-1-amount',
      'The line 2 amount field must be a number.',
      { voucher: { voucherItems: [{ description: 'Parking', quantity: 1, unitCost: 'lots', total: 'lots' }] } },
    ],
    [
      { 'voucher.0.description': 'd'.repeat(201) },
      'voucher-0-description',
      'The line 1 description field must not be greater than 200 characters.',
      null,
    ],
    [{ newPayee: '1', 'newPayee.name': '' }, 'newPayee-name', "The new payee's name field is required.", null],
    [
      { newPayee: '1', 'newPayee.name': 'Zed', 'newPayee.email': 'not-an-email' },
      'newPayee-email',
      "The new payee's email field must be a valid email address.",
      null,
    ],
  ];

  it.each(CASES.map((c, i) => [i, ...c] as const))(
    'case %i: puts the message next to the field, keeps what was typed, writes nothing',
    async (_i, changes, fieldId, message, apiChange) => {
      const before = await checkCount();
      const payeesBefore = await payeeCount();
      const form = { ...goodForm(), ...changes };
      const answer = await write(a.visitor, form);
      expect(answer.status).toBe(422);
      const next = new RegExp(`id="${fieldId}"[^>]*aria-invalid="true"[^>]*aria-describedby="[^"]*${fieldId}-error`);
      expect(answer.body).toMatch(next);
      const shown = new RegExp(`<p class="field-error" id="${fieldId}-error">([^<]*)</p>`).exec(answer.body)?.[1] ?? '';
      expect(shown.replace(/&quot;/g, '"').replace(/&#39;/g, "'")).toContain(message);
      // Exactly one field is marked, and what was typed is shown again.
      expect(answer.body.match(/class="field-error"/g)?.length).toBe(1);
      expect(answer.body).toContain(`value="${form.memo}"`);
      expect(answer.body).toContain(`value="${form.invoiceNumber}"`);
      expect(answer.body).toContain(`value="${form.amount}"`);
      expect(await checkCount()).toBe(before);
      expect(await payeeCount()).toBe(payeesBefore);
      if (apiChange !== null) {
        // The API refuses the same input with the same rule (its message names the API path).
        const input: Record<string, unknown> = {
          bankAccountId,
          payeeId,
          amount: '1234.56',
          issueDate: '2026-12-01',
          memo: 'November rent',
          invoiceNumber: 'INV-77',
          categoryId,
          ...apiChange,
        };
        const api = await a.api.post('/checks', { checks: [JSON.parse(JSON.stringify(input))] });
        expect(api.status).toBe(422);
        const rule = (text: string): string => text.replace(/^The (selected )?.*?(?= field | is invalid)/, '');
        expect(rule(api.body.errorMsg)).toBe(rule(message));
      }
    },
  );

  it('edits a new check with the form prefilled, and refuses edit and delete once void', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const edit = await a.visitor.get(`/panel/checks/${id}/edit`);
    expect(edit.status).toBe(200);
    for (const value of ['1234.56', 'November rent', 'INV-77', 'Acme Supplies', 'Rent, unit 4', '34.56'])
      expect(edit.body).toContain(`value="${value}"`);
    const changed = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, {
      ...goodForm(),
      payeeId,
      amount: '99.5',
      memo: 'Changed',
      categoryId: '',
      'voucher.1.description': '',
      'voucher.1.amount': '',
    });
    expect(changed.status).toBe(303);
    expect(changed.location).toBe(`/panel/checks/${id}?notice=check-updated`);
    const read = (await a.api.get(`/checks/${id}`)).body.data;
    expect(read.amount).toBe(99.5);
    expect(read.memo).toBe('Changed');
    const items = (await a.api.get(`/checks/${id}/voucher`)).body.data.voucherItems;
    expect(items.map((i: { description: string }) => i.description)).toEqual(['Rent, unit 4']);
    const row = await t.database.db.get<{ category_id: string | null }>('SELECT category_id FROM checks WHERE id = ?', [
      id,
    ]);
    expect(row?.category_id ?? null).toBeNull();

    // A body without a field the form draws is refused, and nothing changes: not read as '' (the
    // memo cleared, the voucher's line dropped).
    for (const unsent of [['memo'], ['voucher.0.description', 'voucher.0.amount']]) {
      const form: Record<string, string> = { ...goodForm(), payeeId, amount: '99.5', memo: 'Changed', categoryId: '' };
      for (const name of [...unsent, 'voucher.1.description', 'voucher.1.amount']) delete form[name];
      const refused = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, form);
      expect(refused.status, unsent[0]).toBe(422);
      expect(refused.body).toContain('This field was not sent with the form: reload the page and try again.');
    }
    expect((await a.api.get(`/checks/${id}`)).body.data.memo).toBe('Changed');
    expect((await a.api.get(`/checks/${id}/voucher`)).body.data.voucherItems).toHaveLength(1);

    // An edit the API refuses changes nothing.
    const bad = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, {
      ...goodForm(),
      amount: '-5',
      memo: 'Should not stick',
    });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('The amount field must be greater than 0.');
    expect((await a.api.get(`/checks/${id}`)).body.data.memo).toBe('Changed');

    // Void: a confirm page (GET changes nothing), then the POST.
    const confirm = await a.visitor.get(`/panel/checks/${id}/void`);
    expect(confirm.status).toBe(200);
    expect((await a.api.get(`/checks/${id}`)).body.data.status).toBe(0);
    const voided = await a.visitor.submit(`/panel/checks/${id}/void`, `/panel/checks/${id}/void`, {});
    expect(voided.status).toBe(303);
    expect(voided.location).toBe(`/panel/checks/${id}?notice=check-voided`);
    const afterVoid = (await a.api.get(`/checks/${id}`)).body.data;
    expect(afterVoid.checkStatus.description).toBe('Void');

    const page = await a.visitor.get(`/panel/checks/${id}`);
    expect(page.body).not.toContain(`/panel/checks/${id}/edit"`);
    expect(page.body).not.toContain(`/panel/checks/${id}/delete"`);
    expect(page.body).not.toContain(`/panel/checks/${id}/void"`);
    expect(page.body).toContain(`/panel/checks/new?from=${id}"`);
    expect((await a.visitor.get(`/panel/checks/${id}/edit`)).status).toBe(422);
    const deleteVoid = await a.visitor.get(`/panel/checks/${id}/delete`);
    expect(deleteVoid.status).toBe(422);
    expect(deleteVoid.body).toContain('The check cannot be deleted: its status is void.');
    expect((await a.visitor.get(`/panel/checks/${id}/void`)).status).toBe(422);
    const token = csrfOf((await a.visitor.get('/panel/checks/new')).body);
    const editVoid = await a.visitor.post(`/panel/checks/${id}/edit`, { ...goodForm(), memo: 'x', _csrf: token });
    expect(editVoid.status).toBe(422);
    expect(editVoid.body).toContain('The check cannot be edited: its status is void.');
    expect((await a.visitor.post(`/panel/checks/${id}/delete`, { _csrf: token })).status).toBe(422);
    expect((await a.api.get(`/checks/${id}`)).body.data.memo).toBe('Changed');
  });

  it('keeps a payee deleted since the check was written when the edit leaves the payee as it was', async () => {
    const gone = (await a.api.post('/payees', { payees: [{ name: 'Gone Ltd' }] })).body.data.payees[0].payeeId;
    const id = idFrom((await write(a.visitor, { ...goodForm(), payee: 'Gone Ltd' })).location);
    expect((await a.api.delete(`/payees/${gone}`)).status).toBe(200);
    const edit = await a.visitor.get(`/panel/checks/${id}/edit`);
    expect(edit.body).toContain(`name="payeeId" id="payeeId" value="${gone}"`);
    const saved = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, {
      ...goodForm(),
      payee: 'Gone Ltd',
      payeeId: gone,
      memo: 'Still to Gone',
    });
    expect(saved.status).toBe(303);
    const read = (await a.api.get(`/checks/${id}`)).body.data;
    expect(read.payee.payeeId).toBe(gone);
    expect(read.memo).toBe('Still to Gone');
  });

  it('edits a check to pay a new payee made in the same transaction', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const payeesBefore = await payeeCount();
    const refused = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, {
      ...goodForm(),
      newPayee: '1',
      'newPayee.name': 'Late Payee',
      amount: 'x',
    });
    expect(refused.status).toBe(422);
    expect(await payeeCount()).toBe(payeesBefore);
    const saved = await a.visitor.submit(`/panel/checks/${id}/edit`, `/panel/checks/${id}/edit`, {
      ...goodForm(),
      newPayee: '1',
      'newPayee.name': 'Late Payee',
    });
    expect(saved.status).toBe(303);
    expect((await a.api.get(`/checks/${id}`)).body.data.payee.name).toBe('Late Payee');
    expect(await payeeCount()).toBe(payeesBefore + 1);
  });

  it('writes a live check with ?env=live, drawn on the live bank account and payee only', async () => {
    const live = { accountId: a.accountId, env: 'live' as const };
    const [bank] = await bankAccountService.createBankAccounts(ctx(), live, [
      { name: 'Live operating', bankName: 'Live Bank', routingNumber: '011000015', accountNumber: '555000111' },
    ]);
    await payeeService.createPayees(ctx(), live, [{ name: 'Live Vendor' }]);
    const form = await a.visitor.get('/panel/checks/new?env=live');
    expect(form.body).toContain('Live operating');
    expect(form.body).not.toContain('>Operating ·');
    expect(form.body).toContain('<input type="hidden" name="env" value="live">');
    // A test payee's name is not found among live payees.
    const wrongEnv = await a.visitor.post('/panel/checks/new?env=live', {
      ...goodForm(),
      bankAccountId: bank?.id ?? '',
      categoryId: '',
      env: 'live',
      _csrf: csrfOf(form.body),
    });
    expect(wrongEnv.status).toBe(422);
    expect(wrongEnv.body).toContain('No payee is named &quot;Acme Supplies&quot;');
    const saved = await a.visitor.post('/panel/checks/new?env=live', {
      ...goodForm(),
      bankAccountId: bank?.id ?? '',
      payee: 'Live Vendor',
      categoryId: '',
      env: 'live',
      _csrf: csrfOf(form.body),
    });
    expect(saved.status).toBe(303);
    expect(saved.location).toMatch(/\?notice=check-saved&env=live$/);
    const row = await t.database.db.get<{ env: string }>('SELECT env FROM checks WHERE id = ?', [
      idFrom(saved.location),
    ]);
    expect(row?.env).toBe('live');
    expect((await a.api.get(`/checks/${idFrom(saved.location)}`)).status).toBe(404);
  });

  it('deletes a new check after a confirm step', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const confirm = await a.visitor.get(`/panel/checks/${id}/delete`);
    expect(confirm.status).toBe(200);
    expect((await a.api.get(`/checks/${id}`)).status).toBe(200);
    const deleted = await a.visitor.submit(`/panel/checks/${id}/delete`, `/panel/checks/${id}/delete`, {});
    expect(deleted.status).toBe(303);
    expect(deleted.location).toBe('/panel/checks?notice=check-deleted');
    expect((await a.api.get(`/checks/${id}`)).status).toBe(404);
  });

  it('duplicates a check into a new form; saving makes a new check with its own number', async () => {
    const first = (await a.api.get(`/checks/${idFrom((await write(a.visitor, goodForm())).location)}`)).body.data;
    const form = await a.visitor.get(`/panel/checks/new?from=${first.checkId}`);
    expect(form.status).toBe(200);
    for (const value of ['1234.56', 'November rent', 'INV-77', 'Acme Supplies', 'Parking'])
      expect(form.body).toContain(`value="${value}"`);
    expect(form.body).toContain('action="/panel/checks/new"');
    const fields = Object.fromEntries(
      [
        ...form.body.matchAll(
          /<input id="[^"]*" name="([^"]+)" type="(?:text|date|email)"(?: inputmode="decimal")? value="([^"]*)"/g,
        ),
      ].map((m) => [m[1], (m[2] ?? '').replace(/&amp;/g, '&')]),
    );
    const saved = await a.visitor.post('/panel/checks/new', {
      ...fields,
      bankAccountId,
      categoryId,
      payeeId,
      _csrf: csrfOf(form.body),
    });
    expect(saved.status, /field-error[^>]*>[^<]*/.exec(saved.body)?.[0]).toBe(303);
    const copy = (await a.api.get(`/checks/${idFrom(saved.location)}`)).body.data;
    expect(copy.checkId).not.toBe(first.checkId);
    expect(Number(copy.serialNumber)).toBeGreaterThan(Number(first.serialNumber));
    expect(copy.status).toBe(0);
    for (const key of ['amount', 'memo', 'invoiceNumber', 'payee', 'bankAccount'])
      expect(copy[key], key).toEqual(first[key]);
  });

  it('without script, finds the payee by exact name or id, and asks which one when names repeat', async () => {
    const twins = await a.api.post('/payees', { payees: [{ name: 'Twin Co' }, { name: 'twin co' }] });
    const [first, second] = twins.body.data.payees.map((p: { payeeId: string }) => p.payeeId);
    const before = await checkCount();
    const ambiguous = await write(a.visitor, { ...goodForm(), payee: 'Twin Co' });
    expect(ambiguous.status).toBe(422);
    expect(ambiguous.body).toContain('2 payees are named &quot;Twin Co&quot;');
    // Close is not the same: a part of a name does not pick a payee.
    const partial = await write(a.visitor, { ...goodForm(), payee: 'Acme' });
    expect(partial.body).toContain('No payee is named &quot;Acme&quot;');
    expect(await checkCount()).toBe(before);
    // The script's pick (payeeId, with the name still in the box) or a typed id settles it.
    const picked = await write(a.visitor, { ...goodForm(), payee: 'Twin Co', payeeId: second });
    expect((await a.api.get(`/checks/${idFrom(picked.location)}`)).body.data.payee.payeeId).toBe(second);
    const typed = await write(a.visitor, { ...goodForm(), payee: first });
    expect((await a.api.get(`/checks/${idFrom(typed.location)}`)).body.data.payee.payeeId).toBe(first);
    // A stale pick (the name was changed after picking) is not trusted: the name decides.
    const stale = await write(a.visitor, { ...goodForm(), payee: 'Acme Supplies', payeeId: second });
    expect((await a.api.get(`/checks/${idFrom(stale.location)}`)).body.data.payee.payeeId).toBe(payeeId);
  });

  it('answers payee suggestions as JSON from the account and environment only, at most 20', async () => {
    await a.api.post('/payees', {
      payees: Array.from({ length: 25 }, (_, i) => ({ name: `Acme Branch ${i + 1}` })),
    });
    await payeeService.createPayees(ctx(), { accountId: a.accountId, env: 'live' }, [{ name: 'Acme Live Only' }]);
    const search = async (visitor: Visitor, query: string) => {
      const r = await visitor.get(`/panel/payees/search?${query}`);
      expect(r.status).toBe(200);
      expect(String(r.headers['content-type'])).toContain('application/json');
      return JSON.parse(r.body).payees as { payeeId: string; name: string }[];
    };
    const many = await search(a.visitor, 'term=acme');
    expect(many.length).toBe(20);
    expect(many.every((p) => p.name.startsWith('Acme') && !p.name.includes('Secret') && !p.name.includes('Live'))).toBe(
      true,
    );
    expect((await search(a.visitor, 'term=Supplies')).map((p) => p.name)).toEqual(['Acme Supplies']);
    expect((await search(a.visitor, 'term=Secret')).length).toBe(0);
    expect((await search(a.visitor, 'term=acme&env=live')).map((p) => p.name)).toEqual(['Acme Live Only']);
    expect((await search(b.visitor, 'term=acme')).map((p) => p.name)).toEqual(['Acme Secret of B']);
    // Signed out: no JSON, the sign-in page.
    expect((await new Visitor(t.app).get('/panel/payees/search?term=acme')).status).toBe(303);
  });

  it('answers the amount in words as JSON, with the API’s message for a bad amount', async () => {
    const ask = async (amount: string) =>
      JSON.parse((await a.visitor.get(`/panel/amount-in-words?amount=${encodeURIComponent(amount)}`)).body);
    expect(await ask('1234.56')).toEqual({ words: 'One Thousand Two Hundred Thirty-Four and 56/100', message: '' });
    expect((await ask('0.05')).words).toBe('Zero and 05/100');
    expect((await ask('1000000')).words).toBe('One Million and 00/100');
    expect(await ask('12,50')).toEqual({ words: '', message: 'The amount field must be a number.' });
    expect(await ask('')).toEqual({ words: '', message: '' });
  });

  it('answers 404 for another account’s or environment’s check, on every page and form', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const token = csrfOf((await b.visitor.get('/panel/checks/new')).body);
    for (const path of [`/panel/checks/${id}/edit`, `/panel/checks/${id}/delete`, `/panel/checks/${id}/void`]) {
      expect((await b.visitor.get(path)).status, path).toBe(404);
      expect((await a.visitor.get(`${path}?env=live`)).status, `${path} live`).toBe(404);
    }
    expect((await b.visitor.get(`/panel/checks/new?from=${id}`)).status).toBe(404);
    expect((await a.visitor.get(`/panel/checks/new?from=${id}&env=live`)).status).toBe(404);
    for (const verb of ['edit', 'delete', 'void']) {
      const r = await b.visitor.post(`/panel/checks/${id}/${verb}`, { ...goodForm(), _csrf: token });
      expect(r.status, verb).toBe(404);
    }
    const read = (await a.api.get(`/checks/${id}`)).body.data;
    expect(read.status).toBe(0);
    expect(read.memo).toBe('November rent');
    // B cannot pay A's payee or draw on A's bank account by id either.
    const foreign = await write(b.visitor, { ...goodForm(), payee: payeeId });
    expect(foreign.status).toBe(422);
  });

  it('refuses every form without its CSRF token', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const before = await checkCount();
    expect((await a.visitor.post('/panel/checks/new', goodForm())).status).toBe(403);
    expect((await a.visitor.post(`/panel/checks/${id}/edit`, { ...goodForm(), memo: 'forged' })).status).toBe(403);
    expect((await a.visitor.post(`/panel/checks/${id}/delete`, {})).status).toBe(403);
    expect((await a.visitor.post(`/panel/checks/${id}/void`, {})).status).toBe(403);
    expect(await checkCount()).toBe(before);
    const read = (await a.api.get(`/checks/${id}`)).body.data;
    expect(read.status).toBe(0);
    expect(read.memo).toBe('November rent');
  });

  it('changes nothing on GET: form, edit, duplicate, confirm pages and both JSON answers', async () => {
    const id = idFrom((await write(a.visitor, goodForm())).location);
    const before = await snapshotTables(t.database.db);
    for (const path of [
      '/panel/checks/new',
      `/panel/checks/new?from=${id}`,
      `/panel/checks/${id}/edit`,
      `/panel/checks/${id}/delete`,
      `/panel/checks/${id}/void`,
      '/panel/payees/search?term=acme',
      '/panel/amount-in-words?amount=12.34',
    ])
      expect((await a.visitor.get(path)).status, path).toBe(200);
    expect(await snapshotTables(t.database.db)).toEqual(before);
  });
});
