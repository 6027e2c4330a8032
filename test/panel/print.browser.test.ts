// Printing from the panel in a real browser (headless Chromium, no help from script: the form is
// plain HTML) against a real server process: tick 20 checks in the list, choose pre-printed paper
// and three a page, press Print selected, and read the downloaded PDF back with pdf.js. A
// screenshot of the list with its print form goes to SCREENSHOT_DIR (docs/panel when refreshing
// the README's pictures).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, freePort, launchChromium } from '../support/browser.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { http, type ServerProcess, startServerProcess } from '../support/processes.ts';
import { type ParsedPage, pageText, parsePdf } from '../render/support/pdf.ts';

const PASSWORD = 'a long enough passphrase';
const screenshots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'checkwriter-print-screens-'));

/** Fills in a check's MICR clear band (its bottom 5/8 in), the check's top edge in inches from the paper's top. */
function clearBandFills(page: ParsedPage, checkTopIn: number): ParsedPage['paths'] {
  const bottom = 792 - (checkTopIn + 3.5) * 72;
  return page.paths.filter((p) => p.paint === 'fill' && p.box.y2 > bottom + 0.01 && p.box.y1 < bottom + 45);
}

describe.runIf(chromiumAvailable()).each(dialects())('printing from the panel in Chromium (%s)', (dialect) => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  let base: string;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServerProcess({ ...fresh.env, PORT: String(port), PUBLIC_URL: base });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
    if (process.env.SCREENSHOT_DIR === undefined) rmSync(screenshots, { recursive: true, force: true });
  });

  it('ticks 20 checks, prints them on pre-printed stock three a page: one 7-page PDF download, all printed', async () => {
    const email = `print-${dialect}@browser.test`;
    await page.goto(`${base}/panel/sign-up`);
    await page.getByLabel('Company name').fill('Acme Payables');
    await page.getByLabel(/^Email/).fill(email);
    await page.getByLabel(/^Mobile phone/).fill('+14155550177');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/panel\/sign-in\?notice=signed-up$/);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/panel$/);
    await page.goto(`${base}/panel/keys`);
    await page.getByLabel(/Name/).fill('print');
    await page.getByLabel('Environment').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = ((await page.textContent('#new-key')) ?? '').trim();

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
      mkdirSync(screenshots, { recursive: true });
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(screenshots, 'checks-print.png'), fullPage: false });
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
