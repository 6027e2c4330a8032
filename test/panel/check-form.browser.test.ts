// Writing a check by keyboard only, in headless Chromium against the app on a real port: Tab from
// field to field, the payee picked from the suggestions with ↓ and Enter, the amount's words
// updating as each digit is typed (checked against n2words, an independent converter), Enter to
// save; then the API reads the check back with a key and every field is compared.
import { toCardinal } from 'n2words/en-US';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { chromiumAvailable, freePort, launchChromium } from '../support/browser.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { titleCase } from '../support/title-case.ts';
import { PHONE_VIEWPORT, ScreenshotFolder } from '../support/panel-browser.ts';

const EMAIL = 'keyboard@browser.test';
const screenshots = new ScreenshotFolder('checkwriter-write-');

/** The legal line for a typed amount, from n2words: dollars in words, cents as NN/100. */
function expectedWords(typed: string): string {
  const [dollars = '0', cents = ''] = typed.split('.');
  return `${titleCase(toCardinal(Number(dollars)))} and ${cents.padEnd(2, '0')}/100`;
}

const focusedId = (page: Page): Promise<string> => page.evaluate(() => document.activeElement?.id ?? '');

describe.runIf(chromiumAvailable()).each(dialects())('writing a check by keyboard in Chromium (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let browser: Browser;
  let page: Page;
  let base: string;
  let seeded: { bankAccountId: string; payeeId: string };
  let categoryId: string;
  const scriptProblems: string[] = [];

  beforeAll(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await startTestApp(dialect, { PUBLIC_URL: base });
    await t.app.listen({ port, host: '127.0.0.1' });
    // Signed up over inject; the browser gets that session's cookies.
    const visitor = new Visitor(t.app);
    const signedUp = await visitor.signUp({
      company: 'Keyboard Co',
      email: EMAIL,
      phone: '+14155550142',
      password: 'a long enough passphrase',
    });
    expect(signedUp.status).toBe(303);
    api = await t.client(EMAIL);
    seeded = await seedBasics(api, { name: 'Bolt Hardware', email: 'ar@bolt.test' });
    await api.post('/payees', { payees: [{ name: 'Acme Supplies' }, { name: 'Bolton Bakery' }] });
    const category = await api.post('/categories', { categories: [{ name: 'Repairs', type: 'expense' }] });
    categoryId = category.body.data.categories[0].categoryId;

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    await context.addCookies(
      [...visitor.cookies].map(([name, value]) => ({
        name,
        value,
        url: base,
        httpOnly: true,
        sameSite: 'Lax' as const,
      })),
    );
    page = await context.newPage();
    // A script error or a refused request (the page's CSP) fails the test at its end.
    page.on('pageerror', (e) => scriptProblems.push(e.message));
    page.on('console', (m) => {
      // A 404 (no favicon) or a 422 (the refused form, on purpose) is not a script problem.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) scriptProblems.push(m.text());
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    screenshots.discard();
  });

  it('fills and saves the whole form with the keyboard; the API reads back every field', async () => {
    await page.goto(`${base}/panel/checks/new`);
    const unlabelled = await page.$$eval('input:not([type=hidden]), select, textarea', (controls) =>
      controls.filter((c) => (c as HTMLInputElement).labels?.length === 0).map((c) => c.outerHTML),
    );
    expect(unlabelled).toEqual([]);

    // The bank account has the focus (one account: already chosen).
    expect(await focusedId(page)).toBe('bankAccountId');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('payee');
    await page.keyboard.type('Bolt', { delay: 30 });
    // The suggestions: both "Bolt…" payees of this account, walked with the arrow keys.
    await expect.poll(() => page.locator('#payee-options [role=option]').count()).toBe(2);
    expect(await page.getAttribute('#payee', 'aria-expanded')).toBe('true');
    if (dialect === 'sqlite') await screenshots.take(page, 'write-check-payees', { fullPage: false });
    const names = await page.locator('#payee-options [role=option]').allTextContents();
    const target = names.findIndex((n) => n.startsWith('Bolt Hardware'));
    expect(target).toBeGreaterThanOrEqual(0);
    // Down past the end stays on the last; Up comes back to the first; then down to the one wanted.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    for (let i = 0; i < target; i++) await page.keyboard.press('ArrowDown');
    const marked = await page.getAttribute('#payee', 'aria-activedescendant');
    expect(await page.textContent(`#${marked}`)).toContain('Bolt Hardware');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#payee')).toBe('Bolt Hardware');
    expect(await page.inputValue('#payeeId')).toBe(seeded.payeeId);
    expect(await page.getAttribute('#payee', 'aria-expanded')).toBe('false');
    expect(new URL(page.url()).pathname).toBe('/panel/checks/new');

    await page.keyboard.press('Tab'); // "Or add a new payee" (closed)
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('amount');
    // The words follow the typing, digit by digit (each compared with n2words once it settles).
    let typed = '';
    for (const key of '1234.56') {
      typed += key;
      await page.keyboard.type(key);
      if (key === '.') continue;
      await expect.poll(() => page.textContent('#amount-words'), { timeout: 5000 }).toBe(expectedWords(typed));
    }
    expect(await page.textContent('#amount-words')).toBe('One Thousand Two Hundred Thirty-Four and 56/100');

    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('issueDate');
    await page.keyboard.type('2026-12-01');
    expect(await page.inputValue('#issueDate')).toBe('2026-12-01');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('invoiceNumber');
    await page.keyboard.type('INV-9');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('memo');
    await page.keyboard.type('Shelving, typed by keyboard');
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('categoryId');
    await page.keyboard.press('ArrowDown');
    expect(await page.inputValue('#categoryId')).toBe(categoryId);
    await page.keyboard.press('Tab');
    expect(await focusedId(page)).toBe('voucher-0-description');
    await page.keyboard.type('Steel shelving');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1000');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Brackets');
    await page.keyboard.press('Tab');
    await page.keyboard.type('234.56');
    if (dialect === 'sqlite') await screenshots.take(page, 'write-check');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/checks\/chk_[\w-]+\?notice=check-saved$/);
    expect(await page.textContent('[role=status]')).toContain('The check is saved with status new.');
    const id = /\/panel\/checks\/(chk_[\w-]+)/.exec(page.url())?.[1] ?? '';

    const read = await api.get(`/checks/${id}`);
    expect(read.status).toBe(200);
    const check = read.body.data;
    expect(check.amount).toBe(1234.56);
    expect(check.amountInWord).toBe(expectedWords('1234.56'));
    expect(check.date).toBe('2026-12-01');
    expect(check.memo).toBe('Shelving, typed by keyboard');
    expect(check.invoiceNumber).toBe('INV-9');
    expect(check.status).toBe(0);
    expect(check.payee).toEqual({ payeeId: seeded.payeeId, name: 'Bolt Hardware' });
    expect(check.bankAccount).toEqual({ bankAccountId: seeded.bankAccountId, name: 'Operating' });
    expect(check.referenceId).toBeNull();
    const voucher = (await api.get(`/checks/${id}/voucher`)).body.data;
    expect(
      voucher.voucherItems.map((i: { description: string; total: unknown }) => [i.description, Number(i.total)]),
    ).toEqual([
      ['Steel shelving', 1000],
      ['Brackets', 234.56],
    ]);
    // The read shape has no category: the row holds it.
    const row = await t.database.db.get<{ category_id: string }>('SELECT category_id FROM checks WHERE id = ?', [id]);
    expect(row?.category_id).toBe(categoryId);

    // A refused amount: the form comes back with the message under the amount, which has the focus.
    // The fields are named here, not reached by Tab from the page's start: the keyboard path is
    // tested above, and on a busy machine a Tab pressed before the page took the focus sent the
    // typing elsewhere (seen once in CI: no refusal came).
    await page.goto(`${base}/panel/checks/new`);
    await page.fill('#payee', 'Acme Supplies');
    await page.fill('#amount', '12.345');
    await page.press('#amount', 'Enter');
    // The refusal is a new page (422) at the same address: wait for its message, not for a load
    // state the old page already has, then give the autofocus time on a busy machine.
    await page.locator('#amount-error').waitFor({ timeout: 15_000 });
    await expect.poll(() => focusedId(page), { timeout: 5000 }).toBe('amount');
    expect(await page.textContent('#amount-error')).toBe('The amount field must have at most 2 decimal places.');
    expect(await page.inputValue('#amount')).toBe('12.345');
    expect(await page.inputValue('#payee')).toBe('Acme Supplies');
    if (dialect === 'sqlite') await screenshots.take(page, 'write-check-error', { fullPage: false });

    if (dialect === 'sqlite') {
      await page.goto(`${base}/panel/checks/${id}`);
      await screenshots.take(page, 'check-actions');
      await page.setViewportSize(PHONE_VIEWPORT);
      await page.goto(`${base}/panel/checks/new`);
      await screenshots.take(page, 'write-check-phone');
      const wide = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(wide).toBeLessThanOrEqual(390);
    }
    expect(scriptProblems).toEqual([]);
  });
});
