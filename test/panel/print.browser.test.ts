// Printing from the panel in a real browser (headless Chromium, no help from script: the form is
// plain HTML) against a real server process: tick 20 checks in the list, choose pre-printed paper
// and three a page, press Print selected, and read the downloaded PDF back with pdf.js. A
// screenshot of the list with its print form goes to SCREENSHOT_DIR (docs/panel when refreshing
// the README's pictures).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { http } from '../support/processes.ts';
import { pageText, parsePdf, clearBandFills } from '../render/support/pdf.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  createTestKey,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const screenshots = new ScreenshotFolder('checkwriter-print-screens-');

describe.runIf(chromiumAvailable()).each(dialects())('printing from the panel in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    ({ page, base } = panel);
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('ticks 20 checks, prints them on pre-printed stock three a page: one 7-page PDF download, all printed', async () => {
    const email = `print-${dialect}@browser.test`;
    await signUpAndIn(page, base, { company: 'Acme Payables', email, phone: '+14155550177', password: PASSWORD });
    const key = await createTestKey(page, base, 'print');

    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [
          { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' },
        ],
      },
    });
    const payee = await http(`${base}/api/v3/payees`, {
      method: 'POST',
      key,
      body: { payees: [{ name: 'Globex Corporation', address1: '1 Main St', city: 'Springfield', state: 'IL' }] },
    });
    const made = await http(`${base}/api/v3/checks`, {
      method: 'POST',
      key,
      body: {
        checks: Array.from({ length: 21 }, (_, i) => ({
          bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
          payeeId: payee.body.data.payees[0].payeeId,
          amount: `${100 + i}.00`,
          memo: `Browser memo ${i + 1}`,
        })),
      },
    });
    expect(made.status).toBe(201);
    const checks = made.body.data.checks as { checkId: string; serialNumber: string }[];
    const printed = checks.slice(0, 20);

    await page.goto(`${base}/panel/checks?perPage=25`);
    for (const c of printed) await page.getByLabel(`Select check ${c.serialNumber}`).check();
    await page.getByLabel('Paper').selectOption('preprinted');
    await page.getByLabel('Layout').selectOption('three-per-page');
    if (dialect === 'sqlite') {
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshots.take(page, 'checks-print', { fullPage: false });
    }
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Print selected' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('checks.pdf');
    const bytes = readFileSync(await download.path());
    const pages = await parsePdf(bytes);
    expect(pages).toHaveLength(7);
    // In check-number order, three a page, no MICR line and no check number anywhere.
    pages.forEach((p, i) => {
      const onPage = i < 6 ? 3 : 2;
      for (let slot = 0; slot < onPage; slot += 1) {
        expect(pageText(p)).toContain(`Browser memo ${i * 3 + slot + 1}`);
        expect(clearBandFills(p, slot * 3.5)).toEqual([]);
      }
      for (const c of checks) expect(pageText(p)).not.toContain(c.serialNumber);
    });
    for (const c of checks) {
      const read = await http(`${base}/api/v3/checks/${c.checkId}`, { key });
      expect(read.body.data.status, c.serialNumber).toBe(printed.includes(c) ? 1 : 0);
    }
    // The page stays as it was; reloading the list shows the new statuses.
    await page.goto(`${base}/panel/checks?perPage=25&status=printed`);
    expect(await page.textContent('main')).toContain('20 in all');
  });
});
