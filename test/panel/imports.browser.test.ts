// The import pages in Chromium against a real server process: upload vendors, preview, import, see
// the result; upload a check detail whose rows have errors, fix the columns on the preview, import,
// and follow the progress page to the created checks. Screenshots go to SCREENSHOT_DIR (docs/panel
// when refreshing the pictures; a temporary folder otherwise), one of them at a 390-px phone width.
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { createKeyWithCli, http } from '../support/processes.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  unlabelledControls,
  PHONE_VIEWPORT,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const EMAIL = 'office@imports.test';
const screenshots = new ScreenshotFolder('checkwriter-screens-');
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/imports/${name}`, import.meta.url));

describe.runIf(chromiumAvailable()).each(dialects())('imports in Chromium (%s)', { timeout: 120_000 }, (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;
  let env: Record<string, string>;

  const shoot = async (name: string): Promise<void> => {
    if (dialect === 'sqlite') await screenshots.take(page, name);
  };

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 800 } });
    ({ page, base } = panel);
    env = panel.env;
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('uploads, previews with every row error, fixes the columns, imports and lists what was made', async () => {
    await signUpAndIn(page, base, { company: 'Office Co', email: EMAIL, phone: '+14155550123', password: PASSWORD });
    const key = await createKeyWithCli(EMAIL, env);
    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }] },
    });
    expect(bank.status).toBe(201);

    await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Import' }).click();
    await page.waitForURL(/\/panel\/imports$/);
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByLabel('The file holds').selectOption('payees');
    await page.getByLabel('CSV file').setInputFiles(fixture('quickbooks-vendors.csv'));
    await shoot('imports');
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/panel\/imports\/imp_\w+$/);
    expect(await page.textContent('main')).toContain('No errors: all 3 rows can be imported.');
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect.poll(() => page.textContent('main'), { timeout: 20_000 }).toContain('Created 3 payees.');

    await page.goto(`${base}/panel/imports`);
    await page.getByLabel('The file holds').selectOption('checks');
    await page.getByLabel('CSV file').setInputFiles(fixture('quickbooks-check-detail.csv'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/panel\/imports\/imp_\w+$/);
    expect(await unlabelledControls(page)).toEqual([]);
    // The one bank account is used from the first preview; the Account column's expense accounts
    // are no categories of this office, named by the file's own header and cell.
    expect(await page.textContent('main')).toContain('2 of 3 rows have errors');
    expect(await page.textContent('main')).toContain(
      'Column “Account”: "Office Supplies" is not one of your categories.',
    );
    expect(await page.getByRole('button', { name: 'Import 3 rows' }).isDisabled()).toBe(true);
    await shoot('import-preview-errors');
    await page.setViewportSize(PHONE_VIEWPORT);
    await shoot('import-preview-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The Account column holds expense accounts this office has no categories for: leave it out.
    await page.getByLabel('Column “Account”').selectOption('');
    expect(await page.getByLabel('Bank account of every check').inputValue()).toBe(
      bank.body.data.bankAccounts[0].bankAccountId,
    );
    await page.getByRole('button', { name: 'Update preview' }).click();
    await expect.poll(() => page.textContent('main')).toContain('No errors: all 3 rows can be imported.');
    await shoot('import-preview');
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect.poll(() => page.textContent('main'), { timeout: 20_000 }).toContain('Created 3 checks.');
    await shoot('import-result');
    const list = await http(`${base}/api/v3/checks`, { key });
    expect(list.body.data.meta.total).toBe(3);
    for (const check of list.body.data.checks as { checkId: string }[])
      expect(await page.locator(`a[href="/panel/checks/${check.checkId}"]`).count()).toBe(1);
    await page.locator('ol a').first().click();
    await page.waitForURL(/\/panel\/checks\/chk_\w+$/);
  });
});
