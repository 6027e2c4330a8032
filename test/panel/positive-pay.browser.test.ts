// The positive pay page in headless Chromium: the form alone (no script) downloads the file, which
// reads back from the documented layout; the page stays within a 390-px phone screen. Screenshots
// go to SCREENSHOT_DIR (docs/panel when refreshing them; a temporary folder otherwise).
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BASE, startTestApp, type TestApp } from '../support/app.ts';
import { chromiumAvailable, launchChromium } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { readPositivePayCsv } from '../support/positive-pay-reader.ts';
import { signIn, PHONE_VIEWPORT, fitsWindow, ScreenshotFolder } from '../support/panel-browser.ts';

const screenshots = new ScreenshotFolder('checkwriter-screens-');
const EMAIL = 'desk@pp-browser.test';
const PASSWORD = 'correct horse battery';
const DAY = 86_400_000;
const isoDay = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

describe.runIf(chromiumAvailable()).each(dialects())(
  'positive pay in Chromium (%s)',
  { timeout: 60_000 },
  (dialect) => {
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let url = '';
    let bankAccountId = '';
    const from = isoDay(Date.now() - 14 * DAY);
    const to = isoDay(Date.now());

    // Both dialects write the pictures (the PostgreSQL run's replace the SQLite run's).
    const shoot = (name: string): Promise<void> => screenshots.take(page, name);

    beforeAll(async () => {
      t = await startTestApp(dialect);
      expect(
        (
          await new Visitor(t.app).signUp({
            company: 'Desk Co',
            email: EMAIL,
            phone: '+14155552671',
            password: PASSWORD,
          })
        ).status,
      ).toBe(303);
      const api = await t.client(EMAIL);
      const bank = await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber: '31415926' }],
      });
      bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
      const payees = await api.post('/payees', { payees: [{ name: 'Northwind Traders' }, { name: 'Contoso, Ltd' }] });
      const [northwind, contoso] = payees.body.data.payees.map((p: { payeeId: string }) => p.payeeId);
      const made = await api.post('/checks', {
        checks: [
          {
            bankAccountId,
            payeeId: northwind,
            serialNumber: '2101',
            issueDate: isoDay(Date.now() - 3 * DAY),
            amount: '812.40',
          },
          {
            bankAccountId,
            payeeId: contoso,
            serialNumber: '2102',
            issueDate: isoDay(Date.now() - 2 * DAY),
            amount: '95',
          },
          { bankAccountId, payeeId: northwind, serialNumber: '2103', issueDate: to, amount: '1200.00' },
        ],
      });
      const ids = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
      const printed = await t.app.inject({
        method: 'POST',
        url: `${BASE}/checks/print`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ checkIds: ids }),
      });
      expect(printed.statusCode).toBe(200);
      expect((await api.post(`/checks/${ids[1]}/void`)).status).toBe(200);
      // One past export made through the API, listed on the page.
      expect((await api.post('/positive-pay-exports', { bankAccountId, from, to, format: 'fixed' })).status).toBe(201);
      url = await t.app.listen({ port: 0, host: '127.0.0.1' });
      browser = await launchChromium();
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
      page = await context.newPage();
      await page.goto(`${url}/panel/sign-in`);
      await signIn(page, EMAIL, PASSWORD);
    });
    afterAll(async () => {
      await browser?.close();
      await t?.close();
      screenshots.discard();
    });

    it('the form downloads the file, and the export joins the list', async () => {
      await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Positive pay' }).click();
      await page.waitForURL(/\/panel\/positive-pay$/);
      await page.getByLabel('Bank account').selectOption(bankAccountId);
      await page.getByLabel(/^From/).fill(from);
      await page.getByLabel(/^To/).fill(to);
      await page.getByLabel('Layout').selectOption('csv');
      await shoot('positive-pay');
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download the file' }).click(),
      ]);
      expect(download.suggestedFilename()).toBe(`positive-pay-${bankAccountId}-${from}-${to}.csv`);
      const read = readPositivePayCsv(readFileSync(await download.path(), 'utf8'));
      expect(read.map((r) => `${r.kind} ${r.checkNumber} ${r.amountCents} ${r.payee}`)).toEqual([
        'I 2101 81240 Northwind Traders',
        'I 2102 9500 Contoso, Ltd',
        'I 2103 120000 Northwind Traders',
        'V 2102 9500 Contoso, Ltd',
      ]);
      await page.goto(`${url}/panel/positive-pay`);
      const rows = page.locator('main table tbody tr');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await rows.first().textContent()).toContain(`${EMAIL} (panel)`);
      expect(await rows.first().textContent()).toContain('$2,107.40');
    });

    it('stays within a 390-px phone screen', async () => {
      await page.setViewportSize(PHONE_VIEWPORT);
      await page.goto(`${url}/panel/positive-pay`);
      expect(await fitsWindow(page)).toBe(true);
      await shoot('positive-pay-phone');
    });
  },
);
