// The panel as an office desk in a real browser: the two navigations (the office's work,
// the developer's tools) on at most two lines at 1280 px, and at 390 px every table either fits or
// scrolls inside its box under a visible cue. Signed in, with data made over the API: a bank
// account without a bank name and one with, payees, checks over ten weeks (printed, new, cleared),
// an import and a positive pay export, so the tables and the home's charts are as full as they get
// in an office. The home page's screenshots (desktop and phone) are written to SCREENSHOT_DIR
// (docs/panel when refreshing the README's pictures; a temporary folder otherwise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { dialects } from '../support/databases.ts';
import { http } from '../support/processes.ts';
import { chromiumAvailable } from '../support/browser.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  createTestKey,
  PHONE_VIEWPORT,
  fitsWindow,
  axeViolations,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const screenshots = new ScreenshotFolder('checkwriter-desk-');

const daysAgo = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

interface TableBox {
  html: string;
  scrollWidth: number;
  clientWidth: number;
  cue: { display: string; content: string; height: number };
}

/** Each `.table` box on the page: how wide its table is against the box, and its cue's state. */
function tableBoxes(page: Page): Promise<TableBox[]> {
  return page.$$eval('.table', (boxes) =>
    boxes.map((box) => {
      const cue = getComputedStyle(box, '::before');
      return {
        html: box.outerHTML.slice(0, 120),
        scrollWidth: box.scrollWidth,
        clientWidth: box.clientWidth,
        cue: { display: cue.display, content: cue.content, height: Number.parseFloat(cue.height) || 0 },
      };
    }),
  );
}

describe.runIf(chromiumAvailable()).each(dialects())('the office desk in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;
  const pages: string[] = [];

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 800 } });
    ({ page, base } = panel);
    page.setDefaultTimeout(15_000);
    await signUpAndIn(page, base, {
      company: 'Acme Payables',
      email: 'desk@browser.test',
      phone: '+14155550142',
      password: 'a long enough passphrase',
    });
    const key = await createTestKey(page, base, 'Desk test');
    const api = `${base}/api/v3`;
    // No bank name on purpose: the pages must not show "Payroll ·  ****7766".
    const bank = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Payroll', routingNumber: '011000015', accountNumber: '12347766' }] },
    });
    const bankAccountId: string = bank.body.data.bankAccounts[0].bankAccountId;
    const payee = await http(`${api}/payees`, {
      method: 'POST',
      key,
      body: { payees: [{ name: 'Globex Corporation International Holdings', email: 'ap@globex.test' }] },
    });
    const payeeId: string = payee.body.data.payees[0].payeeId;
    const made = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [3193, 12.5, 870.25].map((amount, i) => ({
          bankAccountId,
          payeeId,
          amount,
          issueDate: daysAgo(20 - i * 7),
          memo: 'Invoice 2026-0042 for services rendered',
        })),
      },
    });
    expect(made.status).toBe(201);
    const checks: { checkId: string }[] = made.body.data.checks;
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: checks.slice(0, 2).map((c) => c.checkId) }),
    });
    expect(printed.status).toBe(200);
    // A second bank account, with a bank name, and ten weeks of an office's checks on both: most
    // printed, some paid by the bank (its cleared-items file), so the home's charts have bars.
    const operating = await http(`${api}/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [
          { name: 'Operating', bankName: 'First Test Bank', routingNumber: '021000021', accountNumber: '123456789' },
        ],
      },
    });
    const operatingId: string = operating.body.data.bankAccounts[0].bankAccountId;
    const planned = Array.from({ length: 36 }, (_, i) => ({
      bankAccountId: i % 3 === 0 ? bankAccountId : operatingId,
      payeeId,
      amount: (120 + ((i * 733) % 2900) + 0.25 * (i % 4)).toFixed(2),
      issueDate: daysAgo(i * 2 + (i % 3)),
      memo: `Invoice ${4100 + i}`,
    }));
    const weekly = await http(`${api}/checks`, { method: 'POST', key, body: { checks: planned } });
    expect(weekly.status).toBe(201);
    // The answer keeps the order of the request: each check with what was asked for it.
    const written = (weekly.body.data.checks as { checkId: string; serialNumber: string }[]).map((c, i) => ({
      ...c,
      amount: planned[i]?.amount ?? '',
      date: planned[i]?.issueDate ?? '',
    }));
    const issued = written.filter((_, i) => i % 5 !== 0);
    const printedWeekly = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: issued.map((c) => c.checkId) }),
    });
    expect(printedWeekly.status).toBe(200);
    const paidOn = (issueDate: string): string => {
      const later = new Date(Date.parse(`${issueDate}T00:00:00Z`) + 4 * 86_400_000).toISOString().slice(0, 10);
      // Not after today: the bank cannot have paid it yet.
      return [later, daysAgo(0)].sort()[0] ?? later;
    };
    for (const [id, onIt] of [
      [bankAccountId, (i: number) => i % 3 === 0],
      [operatingId, (i: number) => i % 3 !== 0],
    ] as const) {
      const paid = written.filter((c, i) => onIt(i) && i % 5 !== 0 && i % 4 !== 1 && c.date <= daysAgo(6));
      const cleared = await fetch(`${api}/bankAccounts/${id}/clearedItems`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'text/csv' },
        body: [
          'Check Number,Amount,Paid Date',
          ...paid.map((c) => `${c.serialNumber},${c.amount},${paidOn(c.date)}`),
        ].join('\n'),
      });
      expect(cleared.status, await cleared.text()).toBe(200);
    }
    const imported = await http(`${api}/imports`, {
      method: 'POST',
      key,
      body: { type: 'payees', csv: 'Name,Email\nInitech,ap@initech.test\n', fileName: 'vendors-november.csv' },
    });
    expect(imported.status).toBe(202);
    const exported = await http(`${api}/positive-pay-exports`, {
      method: 'POST',
      key,
      body: { bankAccountId: operatingId, from: daysAgo(30), to: daysAgo(0), format: 'csv' },
    });
    expect(exported.status).toBe(201);
    pages.push(
      '/panel',
      // The live environment has nothing yet: the home's empty states.
      '/panel?env=live',
      '/panel/checks',
      `/panel/checks/${checks[0]?.checkId ?? ''}`,
      '/panel/checks/new',
      '/panel/payees',
      `/panel/payees/${payeeId}`,
      '/panel/register',
      `/panel/bank-accounts/${bankAccountId}/register`,
      '/panel/imports',
      '/panel/positive-pay',
      '/panel/positive-pay/layouts',
      '/panel/bank-accounts',
      `/panel/bank-accounts/${bankAccountId}`,
      '/panel/settings',
      '/panel/settings/approvals',
      '/panel/approvals',
      '/panel/categories',
      '/panel/keys',
      '/panel/webhooks',
      '/panel/inbox',
      '/panel/people',
      '/panel/audit',
      '/panel/security',
    );
  }, 90_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('shows the office its bank accounts, their weeks and the latest work on the home page', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/panel`);
    const charts = page.getByRole('img', { name: /^Checks written and cleared per week/ });
    expect(await charts.count()).toBe(2);
    expect(await page.getByRole('heading', { name: 'Payroll · ****7766' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Operating · First Test Bank ****6789' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'vendors-november.csv' }).count()).toBe(1);
    if (dialect === 'sqlite') await screenshots.take(page, 'home');
    // The table behind each chart opens with its summary, by keyboard as by mouse.
    const table = page.locator('figure.weeks table').first();
    expect(await table.isVisible()).toBe(false);
    await page.getByText("Every week's numbers").first().focus();
    await page.keyboard.press('Enter');
    expect(await table.isVisible()).toBe(true);
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(`${base}/panel`);
    expect(await fitsWindow(page)).toBe(true);
    // On the phone the chart keeps its proportions within the card.
    const box = await page.locator('svg.weeks-chart').first().boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(250);
    expect(box?.width ?? 999).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
    // The phone's first screen, as a person sees it on opening the panel.
    if (dialect === 'sqlite') await screenshots.take(page, 'home-phone', { fullPage: false });
  });

  it('keeps the office and the developer navigations apart, on at most two lines at 1280 px', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    for (const path of pages) {
      await page.goto(`${base}${path}`);
      const office = page.getByRole('navigation', { name: 'Office' });
      const developer = page.getByRole('navigation', { name: 'Developer' });
      expect(await office.getByRole('link').allTextContents()).toEqual([
        'Home',
        'Checks',
        'Write a check',
        'Payees',
        'Register',
        'Import',
        'Positive pay',
        'Bank accounts',
        // An owner may approve: the queue is in their menu (no policy here, so no count).
        'Approvals',
        'Settings',
      ]);
      expect(await developer.getByRole('link').allTextContents()).toEqual([
        'API keys',
        'Webhooks',
        'Sandbox inbox',
        'Audit trail',
      ]);
      // Every link and button of the header sits on one of at most two lines.
      // (The middle of each item, so the bigger brand name counts on the line it shares.)
      const middles = await page.$$eval('header.top a:not(.skip), header.top button', (items) =>
        items.map((item) => {
          const box = item.getBoundingClientRect();
          return box.top + box.height / 2;
        }),
      );
      const lines = middles.sort((a, b) => a - b).filter((middle, i, all) => i === 0 || middle - (all[i - 1] ?? 0) > 8);
      expect(lines.length, `${path}: header lines at ${middles.join(', ')}`).toBeLessThanOrEqual(2);
      const lineHeight = await page.$eval('header.top nav a', (a) => Number.parseFloat(getComputedStyle(a).lineHeight));
      const navHeight = await page.$eval('header.top', (h) => h.getBoundingClientRect().height);
      // Two lines of text plus the bar's padding; three lines would not fit.
      expect(navHeight, path).toBeLessThan(lineHeight * 3 + 24);
    }
    // The page a link opens is marked current in its own navigation.
    await page.goto(`${base}/panel/checks/new`);
    expect(await page.getByRole('link', { name: 'Write a check' }).getAttribute('aria-current')).toBe('page');
    await page.goto(`${base}/panel/categories`);
    expect(await page.getByRole('link', { name: 'Settings' }).getAttribute('aria-current')).toBe('page');
    await page.goto(`${base}/panel/settings`);
    expect(await page.getByRole('link', { name: 'Categories' }).count()).toBe(1);
  });

  it('at 390 px, every table fits or scrolls in its box under a visible cue', async () => {
    await page.setViewportSize(PHONE_VIEWPORT);
    let overflowing = 0;
    for (const path of pages) {
      await page.goto(`${base}${path}`);
      // Tables folded in a <details> (the home's weeks) are measured as they show when opened.
      await page.$$eval('details', (all) => {
        for (const d of all) (d as HTMLDetailsElement).open = true;
      });
      // The cue's scroll-state query is answered at the next rendering: two frames later.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      expect(await fitsWindow(page), `${path} is wider than the phone`).toBe(true);
      for (const box of await tableBoxes(page)) {
        expect(box.clientWidth, `${path}: ${box.html}`).toBeLessThanOrEqual(PHONE_VIEWPORT.width);
        if (box.scrollWidth > box.clientWidth) {
          overflowing += 1;
          expect(box.cue.display, `${path}: ${box.html} overflows without its cue`).toBe('block');
          expect(box.cue.content, path).toContain('Scroll sideways');
          expect(box.cue.height, path).toBeGreaterThan(0);
        }
      }
    }
    // The checks list at least is wider than a phone: the cue was really looked at.
    expect(overflowing).toBeGreaterThan(0);
    // And on a desktop, where the tables fit, no cue shows.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/panel/checks`);
    for (const box of await tableBoxes(page)) expect(box.cue.display).toBe('none');
  });

  it('has no WCAG 2.1 AA violation (axe-core) on any panel page, signed in with data', async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const found: string[] = [];
    for (const path of pages) {
      await page.goto(`${base}${path}`);
      for (const v of await axeViolations(page)) found.push(`${path} ${v}`);
      // And what a <details> folds away (the home's tables of weeks), opened.
      if ((await page.locator('details').count()) === 0) continue;
      await page.$$eval('details', (all) => {
        for (const d of all) (d as HTMLDetailsElement).open = true;
      });
      for (const v of await axeViolations(page)) found.push(`${path} (details open) ${v}`);
    }
    expect(found).toEqual([]);
    // axe really looked: an image without a text alternative, put on the last page, is reported.
    await page.evaluate(() => document.querySelector('main')?.insertAdjacentHTML('beforeend', '<img src="/panel">'));
    expect((await axeViolations(page)).some((v) => v.startsWith('image-alt'))).toBe(true);
  }, 90_000);
});
