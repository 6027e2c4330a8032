// The import pages in Chromium against a real server process: upload vendors, preview, import, see
// the result; upload a check detail whose rows have errors, fix the columns on the preview, import,
// and follow the progress page to the created checks. Screenshots go to SCREENSHOT_DIR (docs/panel
// when refreshing the pictures; a temporary folder otherwise), one of them at a 390-px phone width.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, freePort, launchChromium } from '../support/browser.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { http, runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const PASSWORD = 'a long enough passphrase';
const EMAIL = 'office@imports.test';
const screenshots = process.env.SCREENSHOT_DIR ?? mkdtempSync(join(tmpdir(), 'checkwriter-screens-'));
const fixture = (name: string): string => fileURLToPath(new URL(`../fixtures/imports/${name}`, import.meta.url));

async function unlabelledControls(page: Page): Promise<string[]> {
  return page.$$eval('input:not([type=hidden]), select, textarea', (controls) =>
    controls
      .filter((c) => (c as HTMLInputElement).labels?.length === 0 && c.getAttribute('aria-label') === null)
      .map((c) => c.outerHTML),
  );
}

describe.runIf(chromiumAvailable()).each(dialects())('imports in Chromium (%s)', { timeout: 120_000 }, (dialect) => {
  let browser: Browser;
  let page: Page;
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  let base: string;
  let env: Record<string, string>;

  const shoot = async (name: string): Promise<void> => {
    if (dialect !== 'sqlite') return;
    mkdirSync(screenshots, { recursive: true });
    await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
  };

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    env = fresh.env;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    server = await startServerProcess({ ...fresh.env, PORT: String(port), PUBLIC_URL: base });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await cleanup?.();
    if (process.env.SCREENSHOT_DIR === undefined) rmSync(screenshots, { recursive: true, force: true });
  });

  it('uploads, previews with every row error, fixes the columns, imports and lists what was made', async () => {
    await page.goto(`${base}/panel/sign-up`);
    await page.getByLabel('Company name').fill('Office Co');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Phone').fill('+14155550123');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: /sign up|create/i }).click();
    await page.waitForURL(/\/panel\/sign-in/);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/panel$/);
    const key = (await runCli(['keys', 'create', '--email', EMAIL], env)).stdout.trim().split('\n').at(-1) ?? '';
    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }] },
    });
    expect(bank.status).toBe(201);

    await page.getByRole('link', { name: 'Import' }).click();
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
    expect(await page.textContent('main')).toContain('3 of 3 rows have errors');
    expect(await page.getByRole('button', { name: 'Import 3 rows' }).isDisabled()).toBe(true);
    await shoot('import-preview-errors');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot('import-preview-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // The Account column holds expense accounts this office has no categories for: leave it out,
    // and draw every check on the one bank account.
    await page.getByLabel('Column “Account”').selectOption('');
    await page.getByLabel('Bank account of every check').selectOption({ label: 'Operating (****5678)' });
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
