// The office's own files through the pages alone, in headless Chromium against a real server
// process: a Xero "bills awaiting payment" export (six line items of three bills) uploaded on the
// import page is recognised as such and becomes one check per bill; the checks are printed from
// the list, and the downloaded PDF, read back with pdf.js, carries each bill's lines on both stubs;
// then Bank of America's statement download (summary block above the header, "Check NNN" in the
// description) uploaded on the register clears exactly those checks. The API is only the
// independent reader of what the pages did.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { http } from '../support/processes.ts';
import { parsePdf, type ParsedPage } from '../render/support/pdf.ts';
import { startPanelInBrowser, signUpAndIn, createTestKey, type PanelInBrowser } from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const IN = 72;
/** On the default layout the check is the top 3.5 in of a letter page; the stubs are below it. */
const CHECK_BOTTOM = 11 * IN - 3.5 * IN;

const fixture = (folder: string, name: string): string =>
  fileURLToPath(new URL(`../fixtures/${folder}/${name}`, import.meta.url));

/**
 * What the Xero export holds, typed in from the fixture: each bill, its amount due, its lines. The
 * bank account starts at 5001, so the bills (in the file's order) are checks 5001-5003; the
 * adapted Bank of America file pays those numbers.
 */
interface Bill {
  serial: string;
  payee: string;
  bill: string;
  amount: number;
  /** The day the bank paid it, as the adapted download says. */
  paid: string;
  /** Each line: description and amount as the stub prints them. */
  lines: [string, string][];
}

const BILLS: Bill[] = [
  {
    serial: '5001',
    payee: 'Acme Paper Co.',
    bill: 'BILL-301',
    amount: 1234.5,
    paid: '2026-10-16',
    lines: [
      ['Copy paper, 40 cases', '1,000.00'],
      ['Stamps', '234.50'],
    ],
  },
  {
    serial: '5002',
    payee: "O'Brien & Sons",
    bill: 'OB-77',
    amount: 450,
    paid: '2026-10-20',
    lines: [['Dock repairs', '450.00']],
  },
  {
    serial: '5003',
    payee: 'Pam Seitz',
    bill: 'PS-2026-10',
    amount: 2450,
    paid: '2026-10-27',
    lines: [
      ['Design review', '1,500.00'],
      ['Site visits', '750.00'],
      ['Travel', '200.00'],
    ],
  },
];

interface ApiCheck {
  checkId: string;
  serialNumber: string;
  amount: number;
  status: number;
  clearedDate: string | null;
  invoiceNumber: string | null;
  payee: { name: string | null };
}

/** The text runs of a page's stubs (below the check), trimmed. */
const stubTexts = (page: ParsedPage): string[] => page.texts.filter((t) => t.y < CHECK_BOTTOM).map((t) => t.str.trim());

describe.runIf(chromiumAvailable()).each(dialects())('office files in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    ({ page, base } = panel);
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
  });

  it('imports a Xero bills export as one check per bill, prints the bills on the stubs, and clears them from a BoA download', async () => {
    const email = `files-${dialect}@browser.test`;
    await signUpAndIn(page, base, { company: 'Acme Payables', email, phone: '+14155550188', password: PASSWORD });
    const key = await createTestKey(page, base, 'office files');
    const api = async (path: string) => http(`${base}/api/v3${path}`, { key });

    // A bank account whose checks start at 5001.
    await page.goto(`${base}/panel/bank-accounts`);
    await page.getByRole('link', { name: 'Add a bank account' }).click();
    await page.getByLabel(/^Name/).fill('Operating');
    await page.getByLabel(/^Bank name/).fill('Bank of America');
    await page.getByLabel(/^Routing number/).fill('011000015');
    await page.getByLabel(/^Account number/).fill('4455667788');
    await page.getByLabel(/^Starting check number/).fill('5001');
    await page.getByLabel(/^Starting check number/).press('Enter');
    await page.waitForURL(/\/panel\/bank-accounts\/bank_[0-9A-Za-z]+\?notice=record-added$/);
    const bankAccountId = /\/bank-accounts\/(bank_[0-9A-Za-z]+)/.exec(page.url())?.[1] ?? '';

    // The Xero export as downloaded: recognised, nothing to map; its vendors become payees.
    await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Import' }).click();
    await page.getByLabel('The file holds').selectOption('checks');
    await page.getByLabel('CSV file').setInputFiles(fixture('imports', 'xero-bills-awaiting-payment.csv'));
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/panel\/imports\/imp_\w+$/);
    expect(await page.textContent('#layout')).toContain('Looks like a Xero bills export');
    await page.getByLabel('Create payees the file names that are not yet payees').check();
    await page.getByRole('button', { name: 'Update preview' }).click();
    await expect.poll(() => page.textContent('main')).toContain('No errors: all 3 rows can be imported.');
    // Six line items, three bills: three checks.
    await page.getByRole('button', { name: 'Import 3 rows' }).click();
    await expect.poll(() => page.textContent('main'), { timeout: 60_000 }).toContain('Created 3 checks and 3 payees.');
    const imported = (await api('/checks?perPage=50')).body.data;
    expect(imported.meta.total).toBe(BILLS.length);
    const checks = imported.checks as ApiCheck[];
    expect(
      checks.map((c) => `${c.serialNumber} ${c.payee.name} ${c.amount} ${c.invoiceNumber} ${c.status}`).sort(),
    ).toEqual(BILLS.map((b) => `${b.serial} ${b.payee} ${b.amount} ${b.bill} 0`));

    // Printed from the list on blank paper, the default layout (the check on top, two stubs below).
    await page.goto(`${base}/panel/checks?perPage=25`);
    for (const b of BILLS) await page.getByLabel(`Select check ${b.serial}`).check();
    await page.getByLabel('Paper').selectOption('blank');
    await page.getByLabel('Layout').selectOption('top');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Print selected' }).click(),
    ]);
    const pdf = await parsePdf(readFileSync(await download.path()));
    // One page a check, in check-number order; each stub (two a page) carries its bill's lines.
    expect(pdf).toHaveLength(BILLS.length);
    pdf.forEach((p, i) => {
      const bill = BILLS[i];
      if (bill === undefined) throw new Error(`page ${i + 1} has no bill`);
      const stubs = stubTexts(p);
      const count = (s: string): number => stubs.filter((t) => t === s).length;
      expect(count(`Check No. ${bill.serial}`), `page ${i + 1}`).toBe(2);
      expect(
        stubs.filter((t) => t.includes(`Voucher ${bill.bill}`)),
        `page ${i + 1}`,
      ).toHaveLength(2);
      for (const [description, total] of bill.lines) {
        expect(count(description), `${bill.bill}: ${description}`).toBe(2);
        expect(count(total), `${bill.bill}: ${total}`).toBeGreaterThanOrEqual(2);
      }
      // The lines as the bill has them: no unit price of 0.00 and no stray dash before a line.
      expect(count('0.00'), `page ${i + 1}`).toBe(0);
      expect(stubs.filter((t) => t.startsWith('—'))).toEqual([]);
      // No other bill's lines on this check's stubs.
      for (const other of BILLS.filter((o) => o !== bill))
        for (const [description] of other.lines) expect(count(description)).toBe(0);
    });
    const printed = (await api('/checks?status=printed&perPage=50')).body.data.checks as ApiCheck[];
    expect(printed.map((c) => c.serialNumber).sort()).toEqual(BILLS.map((b) => b.serial));

    // Bank of America's download, adapted to these checks: it clears exactly them, on its dates.
    await page.goto(`${base}/panel/bank-accounts/${bankAccountId}/register`);
    await page
      .getByLabel("Bank's file (CSV, OFX, QFX or BAI2)")
      .setInputFiles(fixture('bank-files', 'boa-stmt-xero-bills.csv'));
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
    await page.waitForURL(/\/cleared-items$/);
    expect(await page.textContent('#layout')).toBe('CSV with a header line');
    expect(await page.textContent('#cleared-count')).toBe('3 ($4,134.50)');
    expect(await page.textContent('#mismatched-count')).toBe('0');
    expect(await page.textContent('#outstanding-total')).toBe('0 checks, $0.00');
    const after = (await api('/checks?perPage=50')).body.data.checks as ApiCheck[];
    expect(after.map((c) => `${c.serialNumber} ${c.clearedDate}`).sort()).toEqual(
      BILLS.map((b) => `${b.serial} ${b.paid}`),
    );
    const register = (await api(`/bankAccounts/${bankAccountId}/register?perPage=1`)).body.data;
    expect(register.outstanding).toEqual({ count: 0, total: 0 });
  }, 180_000);
});
