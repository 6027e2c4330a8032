// The register in a real browser (headless Chromium) against a real server process: the Register
// entry of the navigation, a bank account's register, ticking two checks and pressing Enter in the
// date field (keyboard only), the bank's file uploaded through the file field, the result page,
// the outstanding figures equal to the API's at each step, every control labelled, and the 390-px
// phone view. Screenshots go to SCREENSHOT_DIR (docs/panel when refreshing them).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialects } from '../support/databases.ts';
import { http } from '../support/processes.ts';
import { chromiumAvailable } from '../support/browser.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  createTestKey,
  unlabelledControls,
  PHONE_VIEWPORT,
  fitsWindow,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const EMAIL = 'register@browser.test';
const screenshots = new ScreenshotFolder('checkwriter-register-screens-');
const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

describe.runIf(chromiumAvailable()).each(dialects())('register in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;

  const shoot = async (name: string): Promise<void> => {
    if (dialect === 'sqlite') await screenshots.take(page, name);
  };

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 800 } });
    ({ page, base } = panel);
    page.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('clears by keyboard and by the bank file, and shows the outstanding figures the API gives', async () => {
    await signUpAndIn(page, base, {
      company: 'Acme Payables',
      email: EMAIL,
      phone: '+14155550123',
      password: PASSWORD,
    });
    const key = await createTestKey(page, base, 'Register test');

    // A bank account and eight checks over the API; six printed (issued), two left new.
    const api = `${base}/api/v3`;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [
          { name: 'Operating', bankName: 'First Bank', routingNumber: '011000015', accountNumber: '12345678' },
        ],
      },
    });
    const bankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Acme Supplies' }] } });
    const payeeId: string = payee.body.data.payees[0].payeeId;
    const amounts = [120, 75.5, 1999.99, 42, 310.25, 18, 60, 500];
    const created = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: { checks: amounts.map((amount, i) => ({ bankAccountId, payeeId, amount, issueDate: daysAgo(10 - i) })) },
    });
    const checks: { checkId: string; serialNumber: string }[] = created.body.data.checks;
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: checks.slice(0, 6).map((c) => c.checkId) }),
    });
    expect(printed.status).toBe(200);
    const outstanding = async () =>
      (await http(`${api}/bankAccounts/${bankAccountId}/register`, { key })).body.data.outstanding as {
        count: number;
        total: number;
      };
    const shown = async () => ({
      count: Number(await page.textContent('#outstanding-count')),
      total: Number(((await page.textContent('#outstanding-total')) ?? '').replace(/[$,]/g, '')),
    });

    await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Register' }).click();
    await shoot('register-accounts');
    await page.getByRole('link', { name: 'Operating' }).click();
    expect(await unlabelledControls(page)).toEqual([]);
    expect(await shown()).toEqual(await outstanding());
    expect(await outstanding()).toEqual({ count: 6, total: 2565.74 });

    // Keyboard only: tick two checks, then Enter in the date field presses "Mark ticked checks cleared".
    const [first, second, third] = checks;
    if (first === undefined || second === undefined || third === undefined) throw new Error('checks missing');
    await page.getByLabel(`Mark check ${first.serialNumber} cleared`).focus();
    await page.keyboard.press('Space');
    await page.getByLabel(`Mark check ${second.serialNumber} cleared`).focus();
    await page.keyboard.press('Space');
    await page
      .getByLabel(/Cleared on/)
      .first()
      .focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('status').textContent()).toContain('The ticked checks are marked cleared.');
    expect(await outstanding()).toEqual({ count: 4, total: 2370.24 });
    expect(await shown()).toEqual(await outstanding());
    await shoot('register');

    // The bank's file: one match, one amount that differs, one never issued.
    const file = join(mkdtempSync(join(tmpdir(), 'cleared-')), 'paid-items.csv');
    writeFileSync(
      file,
      `Serial Number,Paid Date,Paid Amount\n${third.serialNumber},${daysAgo(1)},1999.99\n${checks[3]?.serialNumber},${daysAgo(1)},24.00\n${checks[7]?.serialNumber},${daysAgo(1)},500.00\n`,
    );
    await page.getByLabel("Bank's file (CSV, OFX, QFX or BAI2)").setInputFiles(file);
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
    await page.waitForURL(/\/cleared-items$/);
    expect(await page.textContent('#cleared-count')).toBe('1 ($1,999.99)');
    expect(await page.textContent('#mismatched-count')).toBe('2');
    expect(
      await page.locator('#mismatched tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reason'))),
    ).toEqual(['amount_differs', 'not_issued']);
    expect(await outstanding()).toEqual({ count: 3, total: 370.25 });
    expect(await page.textContent('#outstanding-total')).toBe('3 checks, $370.25');
    await shoot('register-reconciled');

    // Readable on a phone: nothing wider than the screen (the table scrolls inside its box).
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(`${base}/panel/bank-accounts/${bankAccountId}/register`);
    expect(await fitsWindow(page)).toBe(true);
    await shoot('register-phone');
  }, 120_000);

  it("reconciles Bank of America's stmt.csv as downloaded against printed checks", async () => {
    // Signed in by the test above; a key of its own for the API.
    const key = await createTestKey(page, base, 'Bank file test');
    const api = `${base}/api/v3`;
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [
          { name: 'BofA Checking', bankName: 'Bank of America', routingNumber: '011000015', accountNumber: '4455' },
        ],
      },
    });
    const bankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'Acme Supplies' }] } });
    const payeeId: string = payee.body.data.payees[0].payeeId;
    const created = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [
          ['363', 150],
          ['364', 1250],
          ['365', 89.99],
          ['366', 42],
        ].map(([serialNumber, amount]) => ({ bankAccountId, payeeId, serialNumber, amount, issueDate: '2026-10-01' })),
      },
    });
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: created.body.data.checks.map((c: { checkId: string }) => c.checkId) }),
    });
    expect(printed.status).toBe(200);

    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/panel/bank-accounts/${bankAccountId}/register`);
    await page
      .getByLabel("Bank's file (CSV, OFX, QFX or BAI2)")
      .setInputFiles(fileURLToPath(new URL('../fixtures/bank-files/boa-stmt.csv', import.meta.url)));
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
    await page.waitForURL(/\/cleared-items$/);
    expect(await page.textContent('#layout')).toBe('CSV with a header line');
    expect(await page.textContent('#cleared-count')).toBe('2 ($1,400.00)');
    expect(
      await page.locator('#mismatched tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-reason'))),
    ).toEqual(['amount_differs']);
    expect(await page.locator('#credits tbody tr td:nth-child(2)').allTextContents()).toEqual(['366']);
    expect(await unlabelledControls(page)).toEqual([]);
    const register = await http(`${api}/bankAccounts/${bankAccountId}/register?perPage=10`, { key });
    expect(
      register.body.data.checks.map((c: { serialNumber: string; clearedDate: string | null }) => [
        c.serialNumber,
        c.clearedDate,
      ]),
    ).toEqual([
      ['363', '2026-10-05'],
      ['364', '2026-10-07'],
      ['365', null],
      ['366', null],
    ]);
  }, 120_000);
});
