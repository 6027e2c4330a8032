// The MICR test page and the printer offsets over the API, on both databases. PDFs are parsed
// back with pdf.js (text and path positions) and the test page's MICR line is rasterised and read
// by the independent E-13B reader; expected positions come from the standard and from the page's
// printed promises (a 6-in ruler, marks 1 in from the edges), not from the renderer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT_NUMBER } from '../../src/domain/account-number.ts';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { pageText, parsePdf, type ParsedPage } from '../render/support/pdf.ts';
import { readLine } from '../render/support/e13b-reader.ts';
import { pdftoppmAvailable, rasterisePdf } from '../render/support/raster.ts';

const IN = 72;
const PAGE_HEIGHT = 11 * IN;
/** Bottom edge of the check area (3.5 in from the top) in PDF coordinates (y up). */
const CHECK_BOTTOM = PAGE_HEIGHT - 3.5 * IN;

describe.each(dialects())('MICR test page and printer offsets (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let ids: { bankAccountId: string; payeeId: string };

  const fetchPdf = async (client: Client | null, path: string, body?: unknown) => {
    const res = await t.app.inject({
      method: body === undefined ? 'GET' : 'POST',
      url: `${BASE}${path}`,
      headers: {
        ...(client === null ? {} : { authorization: `Bearer ${client.key}` }),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    const json = res.headers['content-type']?.toString().startsWith('application/json') ? JSON.parse(res.body) : null;
    return { status: res.statusCode, type: res.headers['content-type'], bytes: res.rawPayload, json };
  };
  const onlyPage = async (bytes: Buffer): Promise<ParsedPage> => {
    const [page] = await parsePdf(bytes);
    if (page === undefined) throw new Error('no page');
    return page;
  };
  const testPage = (id: string) => fetchPdf(api, `/bankAccounts/${id}/micr-test.pdf`);
  /** Stroked paths (ticks, marks) whose box is within 2 pt of (x, y), PDF coordinates. */
  const strokesNear = (page: ParsedPage, x: number, y: number) =>
    page.paths.filter(
      (p) =>
        p.paint === 'stroke' &&
        Math.abs((p.box.x1 + p.box.x2) / 2 - x) < 2 &&
        Math.abs((p.box.y1 + p.box.y2) / 2 - y) < 2,
    );
  /** Filled paths inside the check's MICR print band (3/16–7/16 in above its bottom edge), shifted by dy. */
  const micrPaths = (page: ParsedPage, dy = 0) =>
    page.paths
      .filter(
        (p) => p.paint === 'fill' && p.box.y1 > CHECK_BOTTOM + dy + 0.1 * IN && p.box.y2 < CHECK_BOTTOM + dy + 0.5 * IN,
      )
      .sort((a, b) => b.box.x2 - a.box.x2);

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('micr@example.com');
    ids = await seedBasics(api);
  });
  afterAll(() => t.close());

  it('GET /bankAccounts/{id}/micr-test.pdf prints the page: title, rulers of the stated length, marks where labelled', async () => {
    const res = await testPage(ids.bankAccountId);
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/pdf');
    expect(res.bytes.subarray(0, 5).toString()).toBe('%PDF-');
    const page = await onlyPage(res.bytes);
    expect([page.width, page.height]).toEqual([8.5 * IN, 11 * IN]);
    const text = pageText(page);
    expect(text).toContain('MICR TEST PAGE — NOT A CHECK — DO NOT DEPOSIT');
    expect(text).toContain('routing 011000015, account ****6789, next check number 10001');
    expect(text).toContain('X +0.00 in, Y +0.00 in');
    expect(text).toMatch(/printOffsetX/);

    // The 6-inch ruler: labels 0..6 centred under inch ticks exactly 1 in apart.
    const labels = [0, 1, 2, 3, 4, 5, 6].map((n) => {
      const found = page.texts.filter(
        (tx) =>
          tx.str === String(n) && tx.x > 1.1 * IN && (PAGE_HEIGHT - tx.y) / IN > 4 && (PAGE_HEIGHT - tx.y) / IN < 4.5,
      );
      expect(found, `ruler label ${n}`).toHaveLength(1);
      const [label] = found;
      return ((label?.box.x1 ?? 0) + (label?.box.x2 ?? 0)) / 2;
    });
    for (let n = 1; n <= 6; n += 1) expect((labels[n] ?? 0) - (labels[n - 1] ?? 0)).toBeCloseTo(IN, 0);
    const rulerY = PAGE_HEIGHT - 4.1 * IN;
    const inchTicks = labels.map((x) =>
      page.paths.filter(
        (p) => p.paint === 'stroke' && Math.abs(p.box.x1 - x) < 1 && p.box.y2 > rulerY - 1 && p.box.y1 < rulerY - 13,
      ),
    );
    for (const ticks of inchTicks) expect(ticks.length).toBe(1);
    const tickX = inchTicks.map((ticks) => ticks[0]?.box.x1 ?? 0);
    expect((tickX[6] ?? 0) - (tickX[0] ?? 0)).toBeCloseTo(6 * IN, 1);
    // Sixteenths: 97 ticks on the long ruler.
    expect(
      page.paths.filter(
        (p) =>
          p.paint === 'stroke' &&
          p.box.x1 > 1.2 * IN &&
          p.box.y2 > rulerY - 1 &&
          p.box.y2 < rulerY + 1 &&
          p.box.x2 - p.box.x1 < 1.5,
      ).length,
    ).toBe(97);

    // Mark A: 1.00 in from the left and top edges; D: 1.00 in from the right, 2.50 in from the top.
    expect(strokesNear(page, 1 * IN, PAGE_HEIGHT - 1 * IN).length).toBeGreaterThanOrEqual(2);
    expect(strokesNear(page, 7.5 * IN, PAGE_HEIGHT - 2.5 * IN).length).toBeGreaterThanOrEqual(2);
    expect(text).toContain('A: 1.00 in from left, 1.00 in from top');
    expect(text).toContain('D: 1.00 in from right, 2.50 in from top');
  });

  it.runIf(pdftoppmAvailable())(
    "carries the account's MICR line at its true place, read back from a 300-dpi bitmap",
    async () => {
      const res = await testPage(ids.bankAccountId);
      const bitmap = rasterisePdf(res.bytes, 300);
      const read = readLine(bitmap, { left: 0.2, right: 8.45, top: 3.5 - 7 / 16, bottom: 3.5 - 3 / 16 + 0.03 });
      // ⑈10001⑈ ⑆011000015⑆ 000123456789⑈ from position 51 down to 14 (serial 10001 is the next one;
      // a test key's page carries the test account number, as its checks do).
      const byPosition = new Map(read.map((c) => [Math.round((8.5 - c.rightIn - 5 / 16) * 8) + 1, c.name]));
      const expected = new Map<number, string>([
        [14, 'onUs'],
        [33, 'transit'],
        [43, 'transit'],
        [45, 'onUs'],
        [51, 'onUs'],
      ]);
      [...TEST_ACCOUNT_NUMBER].reverse().forEach((d, i) => {
        expected.set(15 + i, d);
      });
      [...'011000015'].reverse().forEach((d, i) => {
        expected.set(34 + i, d);
      });
      [...'10001'].reverse().forEach((d, i) => {
        expected.set(46 + i, d);
      });
      expect(Object.fromEntries(byPosition)).toEqual(Object.fromEntries(expected));
      for (const c of read)
        expect(Math.abs((8.5 - c.rightIn - 5 / 16) * 8 - Math.round((8.5 - c.rightIn - 5 / 16) * 8))).toBeLessThan(
          1 / 8,
        );
    },
  );

  it('asks for a key (401), answers 404 in the spec shape for unknown, foreign, other-environment and deleted bank accounts', async () => {
    const anonymous = await fetchPdf(null, `/bankAccounts/${ids.bankAccountId}/micr-test.pdf`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.json).toEqual({ message: 'Unauthenticated.' });
    const notFound = { success: false, errorMsg: 'Bank account not found.' };
    const stranger = await t.client('micr-stranger@example.com');
    expect((await fetchPdf(stranger, `/bankAccounts/${ids.bankAccountId}/micr-test.pdf`)).json).toEqual(notFound);
    const live = await t.client('micr@example.com', { env: 'live' });
    const liveRes = await fetchPdf(live, `/bankAccounts/${ids.bankAccountId}/micr-test.pdf`);
    expect(liveRes.status).toBe(404);
    expect(liveRes.json).toEqual(notFound);
    expect((await testPage('bank_missing')).json).toEqual(notFound);
    const doomed = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Old', routingNumber: '011000015', accountNumber: '4444' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
    expect((await api.delete(`/bankAccounts/${doomed}`)).status).toBe(200);
    const deleted = await testPage(doomed);
    expect(deleted.status).toBe(404);
    expect(deleted.json).toEqual(notFound);
  });

  it('changes nothing: the next check number and the stored rows stay as they were', async () => {
    const snapshot = async () => ({
      bank: await t.database.db.all(
        'SELECT id, next_serial, print_offset_x, print_offset_y FROM bank_accounts ORDER BY id',
      ),
      checks: await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM checks'),
      events: await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM events'),
    });
    const before = await snapshot();
    expect((await testPage(ids.bankAccountId)).status).toBe(200);
    expect((await testPage(ids.bankAccountId)).status).toBe(200);
    expect(await snapshot()).toEqual(before);
    expect((await api.get(`/bankAccounts/${ids.bankAccountId}`)).body.data.nextSerial).toBe('10001');
  });

  it('printOffsetX/Y: set on create and update, read back, and bounded to ±50 hundredths of an inch (422, nothing written)', async () => {
    const created = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'Offset', routingNumber: '011000015', accountNumber: '7777', printOffsetX: -12, printOffsetY: 50 },
      ],
    });
    expect(created.status).toBe(201);
    const account = created.body.data.bankAccounts[0];
    expect(account).toMatchObject({ printOffsetX: -12, printOffsetY: 50 });
    const updated = await api.put(`/bankAccounts/${account.bankAccountId}`, { printOffsetX: 7 });
    expect(updated.body.data).toMatchObject({ printOffsetX: 7, printOffsetY: 50 });
    expect((await api.get(`/bankAccounts/${account.bankAccountId}`)).body.data).toMatchObject({
      printOffsetX: 7,
      printOffsetY: 50,
    });

    for (const [body, errorMsg] of [
      [{ printOffsetX: 51 }, 'The printOffsetX field must not be greater than 50.'],
      [{ printOffsetY: -51 }, 'The printOffsetY field must be at least -50.'],
      [{ printOffsetX: 1.5 }, 'The printOffsetX field must be an integer.'],
      [{ printOffsetY: '3' }, 'The printOffsetY field must be an integer.'],
      [{ name: 'Renamed', printOffsetX: 500 }, 'The printOffsetX field must not be greater than 50.'],
    ] as const) {
      const res = await api.put(`/bankAccounts/${account.bankAccountId}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toEqual({ success: false, errorMsg });
    }
    expect((await api.get(`/bankAccounts/${account.bankAccountId}`)).body.data).toMatchObject({
      name: 'Offset',
      printOffsetX: 7,
      printOffsetY: 50,
    });
    const badCreate = await api.post('/bankAccounts', {
      bankAccounts: [{ name: 'Far', routingNumber: '011000015', accountNumber: '8888', printOffsetY: -60 }],
    });
    expect(badCreate.status).toBe(422);
    expect(badCreate.body).toEqual({
      success: false,
      errorMsg: 'The bankAccounts.0.printOffsetY field must be at least -50.',
    });
    expect((await api.get('/bankAccounts?term=Far')).body.data.meta.total).toBe(0);
  });

  it('the offsets shift every check PDF (single and batch print) and the test page by exactly that much', async () => {
    const own = await t.client('offsets@example.com');
    const basics = await seedBasics(own);
    const newCheck = async () =>
      (await own.post('/checks', { checks: [{ ...basics, amount: '12.34', memo: 'Offsets' }] })).body.data.checks[0]
        .checkId as string;
    const checkId = await newCheck();
    const before = await onlyPage((await fetchPdf(own, `/checks/${checkId}/pdf`)).bytes);
    const pageBefore = await onlyPage(
      (await fetchPdf(own, `/bankAccounts/${basics.bankAccountId}/micr-test.pdf`)).bytes,
    );

    // 0.25 in right and 0.10 in up (negative y moves the print up; PDF y grows upwards).
    expect(
      (await own.put(`/bankAccounts/${basics.bankAccountId}`, { printOffsetX: 25, printOffsetY: -10 })).status,
    ).toBe(200);
    const dx = 0.25 * IN;
    const dy = 0.1 * IN;
    const single = await onlyPage((await fetchPdf(own, `/checks/${checkId}/pdf`)).bytes);
    const batchRes = await fetchPdf(own, '/checks/print', { checkIds: [checkId, await newCheck()] });
    expect(batchRes.status).toBe(200);
    const batch = await parsePdf(batchRes.bytes);
    expect(batch).toHaveLength(2);

    const micrBefore = micrPaths(before);
    expect(micrBefore.length).toBeGreaterThan(20);
    for (const shifted of [single, batch[0], batch[1]]) {
      if (shifted === undefined) throw new Error('missing page');
      const micr = micrPaths(shifted, dy);
      expect(micr).toHaveLength(micrBefore.length);
      micr.forEach((p, i) => {
        expect(p.box.x2).toBeCloseTo((micrBefore[i]?.box.x2 ?? 0) + dx, 3);
        expect(p.box.y1).toBeCloseTo((micrBefore[i]?.box.y1 ?? 0) + dy, 3);
      });
    }
    // The whole check moves, not just the MICR line: every path and text of the single check.
    expect(single.paths).toHaveLength(before.paths.length);
    before.paths.forEach((p, i) => {
      expect(single.paths[i]?.box.x1 ?? 0).toBeCloseTo(p.box.x1 + dx, 3);
    });
    before.texts.forEach((tx, i) => {
      expect(single.texts[i]?.y ?? 0).toBeCloseTo(tx.y + dy, 3);
    });

    const pageAfter = await onlyPage(
      (await fetchPdf(own, `/bankAccounts/${basics.bankAccountId}/micr-test.pdf`)).bytes,
    );
    expect(pageText(pageAfter)).toContain('X +0.25 in, Y -0.10 in');
    expect(strokesNear(pageAfter, 1 * IN + dx, PAGE_HEIGHT - 1 * IN + dy).length).toBeGreaterThanOrEqual(2);
    expect(strokesNear(pageBefore, 1 * IN + dx, PAGE_HEIGHT - 1 * IN + dy)).toHaveLength(0);
    const rulerLabel = (page: ParsedPage) =>
      page.texts.find((tx) => tx.str === '6' && (PAGE_HEIGHT - tx.y) / IN > 4 && (PAGE_HEIGHT - tx.y) / IN < 4.6);
    expect(rulerLabel(pageAfter)?.x ?? 0).toBeCloseTo((rulerLabel(pageBefore)?.x ?? 0) + dx, 3);
  });
});
