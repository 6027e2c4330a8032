// Printing from the panel, over inject on each database: the list's checkboxes and print form, a
// check's Print/Reprint form, the PDF answered (parsed back with pdf.js), and what the API then
// shows for the checks (status, number, statements).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { type ParsedPage, pageText, parsePdf, clearBandFills } from '../render/support/pdf.ts';

const PASSWORD = 'correct horse battery';
const PAGE_HEIGHT = 792;

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  bytes: Buffer;
  text: string;
}

describe.each(dialects())('printing from the panel (%s)', (dialect) => {
  let t: TestApp;
  let phone = 300;

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'http://panel.test' });
  });
  afterAll(() => t.close());

  async function account(email: string): Promise<{ visitor: Visitor; api: Client; live: Client }> {
    const visitor = new Visitor(t.app);
    phone += 1;
    const signedUp = await visitor.signUp({
      company: 'Acme Payables',
      email,
      phone: `+1415555${String(phone).padStart(4, '0')}`,
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    const key = async (env: 'test' | 'live'): Promise<Client> => clientFor(t.app, await visitor.createKey(env, env));
    return { visitor, api: await key('test'), live: await key('live') };
  }

  /** Posts a form as the browser does, with the CSRF token of `pageUrl`, and keeps the answer's bytes. */
  async function post(v: Visitor, pageUrl: string, action: string, form: Record<string, string | string[]>) {
    const page = await v.get(pageUrl);
    const body = new URLSearchParams();
    for (const [k, value] of Object.entries({ ...form, _csrf: csrfOf(page.body) }))
      for (const item of Array.isArray(value) ? value : [value]) body.append(k, item);
    const res = await t.app.inject({
      method: 'POST',
      url: action,
      remoteAddress: v.address,
      headers: {
        cookie: [...v.cookies].map(([k, value]) => `${k}=${value}`).join('; '),
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: body.toString(),
    });
    return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.body } as RawAnswer;
  }

  async function makeChecks(
    api: Client,
    count: number,
    memo = 'Panel memo',
  ): Promise<{ id: string; number: string }[]> {
    const basics = await seedBasics(api, { address1: '88 Riverside Drive', city: 'Peoria', state: 'IL', zip: '61602' });
    const made = await api.post('/checks', {
      checks: Array.from({ length: count }, (_, i) => ({ ...basics, amount: `${i + 1}.50`, memo: `${memo} ${i + 1}` })),
    });
    expect(made.status).toBe(201);
    return made.body.data.checks.map((c: { checkId: string; serialNumber: string }) => ({
      id: c.checkId,
      number: c.serialNumber,
    }));
  }

  const statements = async (api: Client, id: string): Promise<string[]> =>
    (await api.get(`/checks/${id}`)).body.data.checkStatements.map((s: { status: string }) => s.status);

  it('the list has a labelled checkbox a row and a print form with paper and layout', async () => {
    const { visitor, api } = await account('list@print.test');
    const checks = await makeChecks(api, 3);
    const list = await visitor.get('/panel/checks');
    expect(list.status).toBe(200);
    expect(list.body).toMatch(/<form method="post" action="\/panel\/checks\/print\?perPage=10&amp;page=1"/);
    for (const c of checks) {
      expect(list.body).toContain(
        `<input type="checkbox" name="checkIds" value="${c.id}" aria-label="Select check ${c.number}">`,
      );
    }
    expect(list.body).toContain(
      '<label for="print-stock">Paper</label><select id="print-stock" name="stock" aria-describedby="print-stock-hint">',
    );
    // Short option texts that a phone's select does not cut ("everything, MIC"); the rest is the hint.
    expect(list.body).toContain('<option value="blank" selected>Blank check paper</option>');
    expect(list.body).toContain('<option value="preprinted">Pre-printed checks</option>');
    expect(list.body).toContain('id="print-stock-hint">Blank: we print everything, MICR line too.');
    expect(list.body).toContain('<label for="print-layout">Layout</label><select id="print-layout" name="layout">');
    for (const value of ['blank', 'preprinted', 'top', 'middle', 'bottom', 'three-per-page'])
      expect(list.body).toContain(`value="${value}"`);
    expect(list.body).toContain('Print selected');
  });

  it('prints the ticked checks as one PDF attachment on pre-printed stock, three a page, in number order; they move to printed', async () => {
    const { visitor, api } = await account('batch@print.test');
    const checks = await makeChecks(api, 5);
    const [c1, c2, c3, c4, c5] = checks;
    if (c1 === undefined || c2 === undefined || c3 === undefined || c4 === undefined || c5 === undefined)
      throw new Error('five checks expected');
    // Ticked in another order than their numbers (the list shows the newest first).
    const res = await post(visitor, '/panel/checks', '/panel/checks/print?perPage=10&page=1', {
      checkIds: [c4.id, c2.id, c1.id, c3.id],
      stock: 'preprinted',
      layout: 'three-per-page',
    });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="checks.pdf"');
    const pages = await parsePdf(res.bytes);
    expect(pages).toHaveLength(2);
    const [first, second] = pages;
    if (first === undefined || second === undefined) throw new Error('two pages expected');
    // In check-number order, one per third: memos 1, 2, 3 on the first page, 4 on the second.
    const memoTop = (page: ParsedPage, n: number): number => {
      const run = page.texts.find((x) => x.str === `Panel memo ${n}`);
      if (run === undefined) throw new Error(`memo ${n} not on the page`);
      return (PAGE_HEIGHT - run.y) / 72;
    };
    [1, 2, 3].forEach((n, slot) => {
      expect(memoTop(first, n)).toBeGreaterThan(slot * 3.5);
      expect(memoTop(first, n)).toBeLessThan(slot * 3.5 + 3.5);
    });
    expect(memoTop(second, 4)).toBeLessThan(3.5);
    expect(pageText(second)).not.toContain('Panel memo 5');
    for (const [page, top] of [
      [first, 0],
      [first, 3.5],
      [first, 7],
      [second, 0],
    ] as const)
      expect(clearBandFills(page, top)).toEqual([]);
    for (const c of [c1, c2, c3, c4]) expect(pageText(first) + pageText(second)).not.toContain(c.number);
    expect(pageText(first)).toContain('One and 50/100');
    expect(pageText(first)).toContain('88 Riverside Drive');

    for (const c of [c1, c2, c3, c4]) {
      const read = (await api.get(`/checks/${c.id}`)).body.data;
      expect(read.checkStatus).toEqual({ status: 1, description: 'Printed' });
      expect(read.serialNumber).toBe(c.number);
      expect(await statements(api, c.id)).toEqual(['created', 'printed']);
    }
    expect(await statements(api, c5.id)).toEqual(['created']);
    const page = await visitor.get(`/panel/checks/${c1.id}`);
    expect(page.body).toMatch(/<td>created<\/td>[\s\S]*<td>printed<\/td>/);
  });

  it("a check's page puts its print form first; its PDF is a preview stamped so on its face, the API's PDF is not", async () => {
    const { visitor } = await account('preview@print.test');
    const key = await visitor.createKey('preview', 'test');
    const api = clientFor(t.app, key);
    const [check] = await makeChecks(api, 1);
    if (check === undefined) throw new Error('no check');
    const page = await visitor.get(`/panel/checks/${check.id}`);
    const printAt = page.body.indexOf(`action="/panel/checks/${check.id}/print"`);
    const previewAt = page.body.indexOf(`href="/panel/checks/${check.id}/pdf"`);
    expect(printAt).toBeGreaterThan(0);
    // The print form comes before the preview link, and nothing but the print form is a button there.
    expect(previewAt).toBeGreaterThan(printAt);
    expect(page.body).not.toContain('Open the PDF');
    expect(page.body).toContain('Preview the PDF');

    const panelPdf = await t.app.inject({
      method: 'GET',
      url: `/panel/checks/${check.id}/pdf`,
      remoteAddress: visitor.address,
      headers: { cookie: [...visitor.cookies].map(([k, value]) => `${k}=${value}`).join('; ') },
    });
    expect(panelPdf.statusCode).toBe(200);
    expect(panelPdf.headers['content-disposition']).toBe(`inline; filename="check-${check.number}-preview.pdf"`);
    const [previewPage] = await parsePdf(panelPdf.rawPayload);
    if (previewPage === undefined) throw new Error('no page');
    const previewText = pageText(previewPage);
    expect(previewText).toContain('PREVIEW — NOT PRINTED');
    expect(previewText).toContain('print it from its page in the panel, so positive pay lists it');
    // The stamp is on the check's face (its top 3.5 in), above the MICR clear band.
    const stamp = previewPage.texts.find((x) => x.str === 'PREVIEW — NOT PRINTED');
    // (pdf.js gives the baseline from the page's bottom.)
    expect(stamp?.y).toBeGreaterThan(PAGE_HEIGHT - 2.875 * 72);
    expect(stamp?.y).toBeLessThan(PAGE_HEIGHT);
    expect(clearBandFills(previewPage, 0).length).toBeGreaterThan(20);

    // The API's GET /checks/{id}/pdf is the unmarked check, as before; neither changes the status.
    const apiPdf = await t.app.inject({
      method: 'GET',
      url: `/api/v3/checks/${check.id}/pdf`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(apiPdf.statusCode).toBe(200);
    const [apiPage] = await parsePdf(apiPdf.rawPayload);
    if (apiPage === undefined) throw new Error('no page');
    expect(pageText(apiPage)).not.toContain('PREVIEW');
    expect(pageText(apiPage)).toContain(check.number);
    expect(await statements(api, check.id)).toEqual(['created']);
  });

  it("reprints from the check's page: the same number, a reprinted statement, blank stock with its MICR line", async () => {
    const { visitor, api } = await account('reprint@print.test');
    const [check] = await makeChecks(api, 1);
    if (check === undefined) throw new Error('no check');
    let page = await visitor.get(`/panel/checks/${check.id}`);
    expect(page.body).toContain(`<form method="post" action="/panel/checks/${check.id}/print"`);
    expect(page.body).toContain('<button type="submit">Print</button>');
    const printed = await post(visitor, `/panel/checks/${check.id}`, `/panel/checks/${check.id}/print`, {
      stock: 'blank',
      layout: 'bottom',
    });
    expect(printed.status).toBe(200);
    expect(printed.headers['content-disposition']).toBe(`attachment; filename="check-${check.number}.pdf"`);
    const [bottom] = await parsePdf(printed.bytes);
    if (bottom === undefined) throw new Error('no page');
    expect(clearBandFills(bottom, 7.5).length).toBeGreaterThan(20);
    expect(clearBandFills(bottom, 0)).toEqual([]);

    page = await visitor.get(`/panel/checks/${check.id}`);
    expect(page.body).toContain('<button type="submit">Reprint</button>');
    const again = await post(visitor, `/panel/checks/${check.id}`, `/panel/checks/${check.id}/print`, {
      stock: 'blank',
      layout: 'top',
    });
    expect(again.status).toBe(200);
    const [top] = await parsePdf(again.bytes);
    if (top === undefined) throw new Error('no page');
    expect(top.texts.filter((x) => x.str === check.number)).toHaveLength(1);
    expect(clearBandFills(top, 0).length).toBeGreaterThan(20);
    const read = (await api.get(`/checks/${check.id}`)).body.data;
    expect(read.serialNumber).toBe(check.number);
    expect(read.status).toBe(1);
    expect(await statements(api, check.id)).toEqual(['created', 'printed', 'reprinted']);
    expect((await visitor.get(`/panel/checks/${check.id}`)).body).toMatch(
      /<td>printed<\/td>[\s\S]*<td>reprinted<\/td>/,
    );
    // Void: no print form, and a forged post is refused with nothing recorded.
    expect((await api.post(`/checks/${check.id}/void`)).status).toBe(200);
    page = await visitor.get(`/panel/checks/${check.id}`);
    expect(page.body).toContain('This check is void: it cannot be printed.');
    expect(page.body).not.toContain(`action="/panel/checks/${check.id}/print"`);
    const forged = await post(visitor, '/panel/checks', `/panel/checks/${check.id}/print`, {
      stock: 'blank',
      layout: 'top',
    });
    expect(forged.status).toBe(422);
    expect(forged.text).toContain(`Check ${check.number} is a check that cannot be printed: its status is void.`);
    expect(await statements(api, check.id)).toEqual(['created', 'printed', 'reprinted', 'void']);
  });

  it('refuses with a message by the Print button: nothing ticked, more than 500, a void check among them; nothing printed', async () => {
    const { visitor, api } = await account('refuse@print.test');
    const checks = await makeChecks(api, 3);
    const [good, voided] = checks;
    if (good === undefined || voided === undefined) throw new Error('checks expected');
    expect((await api.post(`/checks/${voided.id}/void`)).status).toBe(200);

    const none = await post(visitor, '/panel/checks', '/panel/checks/print?perPage=2&page=1', {
      stock: 'blank',
      layout: 'top',
    });
    expect(none.status).toBe(422);
    expect(none.headers['content-type']).toMatch(/^text\/html/);
    expect(none.text).toContain(
      '<div class="problem" role="alert" id="print-problem">Tick at least one check to print.</div>',
    );
    // The same list page as before (its filters kept): two rows of three.
    expect(none.text).toContain('Page 1 of 2 · 3 in all');

    const tooMany = await post(visitor, '/panel/checks', '/panel/checks/print', {
      checkIds: Array.from({ length: 501 }, (_, i) => `chk_${String(i).padStart(26, '0')}`),
      stock: 'blank',
      layout: 'top',
    });
    expect(tooMany.status).toBe(422);
    expect(tooMany.text).toContain('You ticked 501 checks: one print holds at most 500. Print them in parts.');

    const withVoid = await post(visitor, '/panel/checks', '/panel/checks/print', {
      checkIds: [good.id, voided.id],
      stock: 'preprinted',
      layout: 'middle',
    });
    expect(withVoid.status).toBe(422);
    expect(withVoid.text).toContain(`Check ${voided.number} is a check that cannot be printed: its status is void.`);
    // The ticks and the choices stay, so the operator unticks one and prints again.
    expect(withVoid.text).toContain(`value="${good.id}" aria-label="Select check ${good.number}" checked>`);
    expect(withVoid.text).toContain('<option value="preprinted" selected>');
    expect(withVoid.text).toContain('<option value="middle" selected>');
    expect(await statements(api, good.id)).toEqual(['created']);

    const badChoice = await post(visitor, '/panel/checks', '/panel/checks/print', {
      checkIds: [good.id],
      stock: 'glossy',
      layout: 'top',
    });
    expect(badChoice.status).toBe(422);
    expect(badChoice.text).toContain('Choose the paper and the layout from the lists.');
    expect(await statements(api, good.id)).toEqual(['created']);
  });

  it("answers 404 for another account's or the other environment's checks, printing none; needs the CSRF token", async () => {
    const { visitor, api, live } = await account('mine@print.test');
    const stranger = await account('theirs@print.test');
    const [mine] = await makeChecks(api, 1);
    const [theirs] = await makeChecks(stranger.api, 1);
    const [liveCheck] = await makeChecks(live, 1);
    if (mine === undefined || theirs === undefined || liveCheck === undefined) throw new Error('checks expected');
    for (const other of [theirs.id, liveCheck.id]) {
      const batch = await post(visitor, '/panel/checks', '/panel/checks/print', {
        checkIds: [mine.id, other],
        stock: 'blank',
        layout: 'top',
      });
      expect(batch.status).toBe(404);
      const one = await post(visitor, '/panel/checks', `/panel/checks/${other}/print`, {
        stock: 'blank',
        layout: 'top',
      });
      expect(one.status).toBe(404);
    }
    expect(await statements(api, mine.id)).toEqual(['created']);
    expect(await statements(stranger.api, theirs.id)).toEqual(['created']);
    expect(await statements(live, liveCheck.id)).toEqual(['created']);
    // The live check prints from the live list (env in the form's address).
    const liveList = await visitor.get('/panel/checks?env=live');
    expect(liveList.body).toContain('action="/panel/checks/print?perPage=10&amp;env=live&amp;page=1"');
    const livePrint = await post(visitor, '/panel/checks?env=live', '/panel/checks/print?perPage=10&env=live&page=1', {
      checkIds: [liveCheck.id],
      stock: 'blank',
      layout: 'top',
    });
    expect(livePrint.status).toBe(200);
    expect(
      pageText((await parsePdf(livePrint.bytes))[0] ?? { width: 0, height: 0, texts: [], paths: [], images: [] }),
    ).not.toMatch(/VOID/);
    expect(await statements(live, liveCheck.id)).toEqual(['created', 'printed']);

    const noToken = await visitor.post('/panel/checks/print', { checkIds: [mine.id], stock: 'blank', layout: 'top' });
    expect(noToken.status).toBe(403);
    expect(await statements(api, mine.id)).toEqual(['created']);
    // Opening the form's address shows the list.
    const opened = await visitor.get('/panel/checks/print?env=live');
    expect(opened.status).toBe(303);
    expect(opened.location).toBe('/panel/checks?env=live');
  });
});
