// A test environment's check PDFs (and its MICR test page) carry a test account number in their
// MICR line, never the bank account's own (test bank accounts often hold the real one); live
// checks carry the real number.
// The PDF the API answers is read back independently: rasterised by pdftoppm and read by the
// E-13B waveform reader built from the published character shapes (test/render/support), and its
// text extracted by pdf.js. Neither is the renderer's own MICR model.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_ACCOUNT_NUMBER } from '../../src/domain/account-number.ts';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { MICR_LINE_LETTER } from '../render/e13b-reference/published.ts';
import { readLine } from '../render/support/e13b-reader.ts';
import { pageText, parsePdf } from '../render/support/pdf.ts';
import { pdftoppmAvailable, rasterisePdf } from '../render/support/raster.ts';

const ROUTING = '011000015';
const REAL_NUMBER = '987654321012';

/** The MICR line of the check at the top of the first page, read left to right from a 300-dpi bitmap. */
function micrLineOf(pdf: Uint8Array): string {
  const baseline = 3.5 - 3 / 16;
  return readLine(rasterisePdf(pdf, 300), { left: 0.2, right: 8.45, top: baseline - 0.16, bottom: baseline + 0.03 })
    .sort((a, b) => a.rightIn - b.rightIn)
    .map((c) => MICR_LINE_LETTER[c.name])
    .join('');
}

describe.each(dialects())('the account number in the MICR line of test and live checks (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  /** A check on a bank account holding REAL_NUMBER, its serial, and its PDF as the API answers it. */
  const checkPdf = async (client: Client): Promise<{ serial: string; bytes: Buffer; micrTestPage: Buffer }> => {
    const { payeeId } = await seedBasics(client);
    const bank = await client.post('/bankAccounts', {
      bankAccounts: [{ name: 'Real account', routingNumber: ROUTING, accountNumber: REAL_NUMBER }],
    });
    expect(bank.status, bank.raw).toBe(201);
    const bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const created = await client.post('/checks', { checks: [{ bankAccountId, payeeId, amount: '250.00' }] });
    expect(created.status, created.raw).toBe(201);
    const check = created.body.data.checks[0];
    const res = await t.app.inject({
      method: 'GET',
      url: `${BASE}/checks/${check.checkId}/pdf`,
      headers: { authorization: `Bearer ${client.key}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const page = await t.app.inject({
      method: 'GET',
      url: `${BASE}/bankAccounts/${bankAccountId}/micr-test.pdf`,
      headers: { authorization: `Bearer ${client.key}` },
    });
    expect(page.statusCode).toBe(200);
    return { serial: String(check.serialNumber), bytes: res.rawPayload, micrTestPage: page.rawPayload };
  };

  it.runIf(pdftoppmAvailable())(
    "a test check's MICR line (and MICR test page) carries the test account number, and its face says so; a live check's carries the real one",
    async () => {
      const test = await checkPdf(await t.client('micr-test@example.com', { env: 'test' }));
      const testLine = micrLineOf(test.bytes);
      expect(testLine).toBe(`U${test.serial}UT${ROUTING}T${TEST_ACCOUNT_NUMBER}U`);
      expect(testLine).not.toContain(REAL_NUMBER);
      // Not the last digits either: nothing of the real number is printed.
      expect(testLine).not.toContain(REAL_NUMBER.slice(-4));
      const [testPage] = await parsePdf(test.bytes);
      if (testPage === undefined) throw new Error('no page');
      const testText = pageText(testPage);
      expect(testText).toMatch(/TEST ACCOUNT NUMBER/);
      expect(testText.replace(/\s/g, '')).not.toContain(REAL_NUMBER);

      // The MICR test page carries the line the account's next check would: the test number too.
      const next = String(Number(test.serial) + 1);
      expect(micrLineOf(test.micrTestPage)).toBe(`U${next}UT${ROUTING}T${TEST_ACCOUNT_NUMBER}U`);

      const live = await checkPdf(await t.client('micr-live@example.com', { env: 'live' }));
      expect(micrLineOf(live.micrTestPage)).toBe(`U${String(Number(live.serial) + 1)}UT${ROUTING}T${REAL_NUMBER}U`);
      expect(micrLineOf(live.bytes)).toBe(`U${live.serial}UT${ROUTING}T${REAL_NUMBER}U`);
      const [livePage] = await parsePdf(live.bytes);
      if (livePage === undefined) throw new Error('no page');
      expect(pageText(livePage)).not.toMatch(/TEST ACCOUNT NUMBER|VOID/);
    },
  );
});
