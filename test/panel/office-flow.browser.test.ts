// An office's daily flow in one sitting, in headless Chromium against a real server process,
// on each database: sign up and in -> add a bank account and upload its signature -> import 200
// payees and 500 checks from CSV files shaped like accounting exports -> write one check by
// keyboard only -> print 20 checks on pre-printed stock, three a page (the PDF read back: no MICR
// line, no check numbers, every payee in its place) -> export positive pay (the file read back by
// the reader written from docs/positive-pay.md; count and total equal the API's) -> upload the
// bank's cleared-items file -> the register's outstanding figures equal the API's and a sum made
// here from GET /checks. Screenshots go to SCREENSHOT_DIR (docs/panel when refreshing the README).
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { readPositivePayCsv } from '../support/positive-pay-reader.ts';
import { http } from '../support/processes.ts';
import { parsePdf, pageText, clearBandFills } from '../render/support/pdf.ts';
import { signaturePng } from '../render/support/png.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  createTestKey,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const ACCOUNT_NUMBER = '9876543210';
const screenshots = new ScreenshotFolder('checkwriter-office-screens-');

interface ApiCheck {
  checkId: string;
  serialNumber: string;
  amount: number;
  status: number;
  date: string;
  clearedDate: string | null;
  payee: { name: string | null };
}

const STEMS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Stark', 'Wayne', 'Wonka', 'Hooli', 'Vandelay', 'Soylent'];
const KINDS = ['Supply', 'Logistics', 'Cleaning', 'Legal', 'Printing'];
/** 200 distinct vendor names, and one the keyboard step can find by a prefix nobody else has. */
const PAYEE_NAMES = [
  ...Array.from({ length: 199 }, (_, i) => `${STEMS[i % 10]} ${KINDS[Math.floor(i / 10) % 5]} ${i + 1}`),
  'Zenith Office Furniture',
];

/** A field as a spreadsheet writes it: quoted when it holds a comma or a quote. */
function cell(value: string): string {
  return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A QuickBooks-style vendor list (Vendor, Company, Email, Phone, Street, City, State, ZIP). */
function vendorsCsv(): string {
  const lines = ['Vendor,Company,Email,Phone,Street,City,State,ZIP'];
  PAYEE_NAMES.forEach((name, i) => {
    lines.push(
      [name, `${name} Inc.`, `ap${i + 1}@vendor${i + 1}.test`, '', `${100 + i} Market St`, 'Springfield', 'IL', '62701']
        .map(cell)
        .join(','),
    );
  });
  return `${lines.join('\r\n')}\r\n`;
}

/** Amount of imported check i, in cents: 1.00 to 4,999.99, some over a thousand (written "1,234.56"). */
const importedCents = (i: number): number => 100 + ((i * 7919) % 499_900);

function dollars(cents: number): string {
  return (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A QuickBooks check-detail report: Date (MM/DD/YYYY), Num, Name, Memo, Amount ("1,234.56"). */
function checksCsv(): string {
  const lines = ['Date,Num,Name,Memo,Amount'];
  for (let i = 0; i < 500; i += 1) {
    const day = new Date(Date.UTC(2026, 9, 1 + (i % 50)));
    const date = `${String(day.getUTCMonth() + 1).padStart(2, '0')}/${String(day.getUTCDate()).padStart(2, '0')}/${day.getUTCFullYear()}`;
    lines.push(
      [date, String(1001 + i), PAYEE_NAMES[i % 199] ?? '', `Invoice ${5000 + i}`, dollars(importedCents(i))]
        .map(cell)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

describe.runIf(chromiumAvailable()).each(dialects())('the office flow in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;

  const shoot = async (name: string): Promise<void> => {
    if (dialect === 'sqlite') await screenshots.take(page, name);
  };

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    ({ page, base } = panel);
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('signs in, adds a bank account, imports, writes, prints, exports positive pay and reconciles', async () => {
    const email = `office-${dialect}@browser.test`;
    await signUpAndIn(page, base, { company: 'Acme Payables', email, phone: '+14155550166', password: PASSWORD });
    // A test key, so the test can read what the panel did through the API, as a client would.
    const key = await createTestKey(page, base, 'office flow');
    const api = async (path: string) => http(`${base}/api/v3${path}`, { key });

    // 1. A bank account, typed field by field, and its signature uploaded through the file field.
    await page.goto(`${base}/panel/bank-accounts`);
    await page.getByRole('link', { name: 'Add a bank account' }).click();
    await page.getByLabel('Name', { exact: false }).first().focus();
    for (const value of ['Operating', 'First Test Bank', '1 Bank Plaza, Springfield', '011000015', ACCOUNT_NUMBER]) {
      await page.keyboard.type(value);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.type('2001');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/bank-accounts\/bank_[0-9A-Za-z]+\?notice=record-added$/);
    const bankAccountId = /\/bank-accounts\/(bank_[0-9A-Za-z]+)/.exec(page.url())?.[1] ?? '';
    await page.locator('#upload-signature').setInputFiles({
      name: 'signature.png',
      mimeType: 'image/png',
      buffer: signaturePng(240, 60),
    });
    await page.getByRole('button', { name: 'Upload signature' }).click();
    await page.waitForURL(/notice=signature-saved$/);
    const banks = await api('/bankAccounts');
    const bank = banks.body.data.bankAccounts.find((b: { bankAccountId: string }) => b.bankAccountId === bankAccountId);
    expect(bank).toMatchObject({ name: 'Operating', hasSignature: true });

    // 2. 200 payees, then 500 checks, from CSV files; every row checked on the preview first.
    await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Import' }).click();
    await page.getByLabel('The file holds').selectOption('payees');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'vendors.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(vendorsCsv()),
    });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/panel\/imports\/imp_\w+$/);
    await page.getByRole('button', { name: 'Import 200 rows' }).click();
    await expect.poll(() => page.textContent('main'), { timeout: 60_000 }).toContain('Created 200 payees');
    expect((await api('/payees?perPage=1')).body.data.meta.total).toBe(200);

    await page.goto(`${base}/panel/imports`);
    await page.getByLabel('The file holds').selectOption('checks');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'check-detail.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(checksCsv()),
    });
    await page.getByRole('button', { name: 'Preview' }).click();
    await page.waitForURL(/\/panel\/imports\/imp_\w+$/);
    await page
      .getByLabel('Bank account of every check')
      .selectOption({ label: 'Operating · First Test Bank ****3210' });
    await page.getByRole('button', { name: 'Update preview' }).click();
    await shoot('office-import-preview');
    await page.getByRole('button', { name: 'Import 500 rows' }).click();
    await expect.poll(() => page.textContent('main'), { timeout: 120_000 }).toContain('Created 500 checks');
    const imported = await api('/checks?perPage=500');
    expect(imported.body.data.meta.total).toBe(500);
    const importedChecks = imported.body.data.checks as ApiCheck[];
    expect(importedChecks.reduce((sum, c) => sum + Math.round(c.amount * 100), 0)).toBe(
      Array.from({ length: 500 }, (_, i) => importedCents(i)).reduce((a, b) => a + b, 0),
    );

    // 3. One check by keyboard only: Tab, type, arrows and Enter.
    await page.goto(`${base}/panel/checks/new`);
    await page.locator('#bankAccountId').focus();
    await page.keyboard.press('Tab');
    await page.keyboard.type('Zenith', { delay: 30 });
    await expect.poll(() => page.locator('#payee-options [role=option]').count()).toBe(1);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    expect(await page.inputValue('#payee')).toBe('Zenith Office Furniture');
    await page.keyboard.press('Tab'); // "Or add a new payee" (closed)
    await page.keyboard.press('Tab');
    await page.keyboard.type('987.65');
    await expect
      .poll(() => page.textContent('#amount-words'), { timeout: 5000 })
      .toBe('Nine Hundred Eighty-Seven and 65/100');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2026-11-20');
    await page.keyboard.press('Tab');
    await page.keyboard.type('INV-KB-1');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Written by keyboard');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/checks\/chk_[\w-]+\?notice=check-saved$/);
    const writtenId = /\/panel\/checks\/(chk_[\w-]+)/.exec(page.url())?.[1] ?? '';
    const written = (await api(`/checks/${writtenId}`)).body.data;
    expect(written).toMatchObject({
      amount: 987.65,
      memo: 'Written by keyboard',
      invoiceNumber: 'INV-KB-1',
      date: '2026-11-20',
      status: 0,
      payee: { name: 'Zenith Office Furniture' },
    });

    // 4. Twenty checks ticked in the list, pre-printed stock, three a page: one PDF download.
    const firstPage = (await api('/checks?perPage=25')).body.data.checks as ApiCheck[];
    const toPrint = firstPage.filter((c) => c.checkId !== writtenId).slice(0, 20);
    expect(toPrint).toHaveLength(20);
    await page.goto(`${base}/panel/checks?perPage=25`);
    for (const c of toPrint) await page.getByLabel(`Select check ${c.serialNumber}`).check();
    await page.getByLabel('Paper').selectOption('preprinted');
    await page.getByLabel('Layout').selectOption('three-per-page');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Print selected' }).click(),
    ]);
    const pdf = await parsePdf(readFileSync(await download.path()));
    expect(pdf).toHaveLength(7);
    // In check-number order, three a page; the paper already carries the MICR line and numbers.
    const inOrder = [...toPrint].sort((a, b) => Number(a.serialNumber) - Number(b.serialNumber));
    pdf.forEach((p, i) => {
      const here = inOrder.slice(i * 3, i * 3 + 3);
      here.forEach((c, slot) => {
        expect(pageText(p)).toContain(c.payee.name ?? '');
        expect(pageText(p)).toContain(dollars(Math.round(c.amount * 100)));
        expect(clearBandFills(p, slot * 3.5)).toEqual([]);
      });
      for (const c of toPrint) expect(pageText(p)).not.toContain(c.serialNumber);
    });
    const printed = (await api('/checks?status=printed&perPage=100')).body.data.checks as ApiCheck[];
    expect(printed.map((c) => c.checkId).sort()).toEqual(toPrint.map((c) => c.checkId).sort());

    // 5. Positive pay for the bank account: the 20 printed checks are the issued ones.
    await page.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Positive pay' }).click();
    await page.getByLabel('Bank account').selectOption(bankAccountId);
    await page.getByLabel(/^From/).fill('2026-01-01');
    await page.getByLabel(/^To/).fill('2026-11-25');
    await page.getByLabel('Layout').selectOption('csv');
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download the file' }).click(),
    ]);
    const records = readPositivePayCsv(readFileSync(await file.path(), 'utf8'));
    expect(records.map((r) => r.kind)).toEqual(Array(20).fill('I'));
    expect(records.every((r) => r.accountNumber === ACCOUNT_NUMBER)).toBe(true);
    expect(records.map((r) => r.checkNumber).sort()).toEqual(printed.map((c) => c.serialNumber).sort());
    const printedCents = printed.reduce((sum, c) => sum + Math.round(c.amount * 100), 0);
    expect(records.reduce((sum, r) => sum + r.amountCents, 0)).toBe(printedCents);
    const exports = (await api('/positive-pay-exports')).body.data;
    expect(JSON.stringify(exports)).toContain(bankAccountId);

    // 6. The bank's cleared-items file: ten of them paid as written, one paid for a different amount.
    const paid = inOrder.slice(0, 10);
    const wrong = inOrder[10] as ApiCheck;
    const clearedFile = [
      'Serial Number,Paid Amount,Paid Date',
      ...paid.map((c) => `${c.serialNumber},${Math.round(c.amount * 100) / 100},11/24/2026`),
      `${wrong.serialNumber},${(Math.round(wrong.amount * 100) + 100) / 100},11/24/2026`,
    ].join('\n');
    await page.goto(`${base}/panel/bank-accounts/${bankAccountId}/register`);
    await page.getByLabel("Bank's file (CSV, OFX, QFX or BAI2)").setInputFiles({
      name: 'cleared.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`${clearedFile}\n`),
    });
    await page.getByRole('button', { name: 'Upload and reconcile' }).click();
    expect(await page.textContent('#cleared-count')).toMatch(/^10 /);
    expect(await page.textContent('#mismatched-count')).toBe('1');
    expect(await page.locator('#mismatched tr[data-reason]').getAttribute('data-reason')).toBe('amount_differs');
    await shoot('office-reconciled');

    // 7. The register: outstanding = printed and not cleared, by the API's two views and by hand.
    await page.goto(`${base}/panel/bank-accounts/${bankAccountId}/register`);
    await shoot('office-register');
    const register = (await api(`/bankAccounts/${bankAccountId}/register?perPage=1`)).body.data;
    const after = (await api('/checks?status=printed&perPage=100')).body.data.checks as ApiCheck[];
    const outstanding = after.filter((c) => c.clearedDate === null);
    expect(
      after
        .filter((c) => c.clearedDate === '2026-11-24')
        .map((c) => c.checkId)
        .sort(),
    ).toEqual(paid.map((c) => c.checkId).sort());
    const outstandingCents = outstanding.reduce((sum, c) => sum + Math.round(c.amount * 100), 0);
    expect(outstanding).toHaveLength(10);
    expect(register.outstanding.count).toBe(10);
    expect(Math.round(register.outstanding.total * 100)).toBe(outstandingCents);
    expect(await page.textContent('#outstanding-count')).toBe('10');
    expect(await page.textContent('#outstanding-total')).toBe(`$${dollars(outstandingCents)}`);
  }, 300_000);
});
