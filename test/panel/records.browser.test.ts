// Records and settings in headless Chromium against a real server process:
// add a bank account by keyboard, upload its signature through the file field, see a refused form's
// messages beside its fields, save the settings, and every page readable on a 390-pixel phone with
// every control labelled. Screenshots go to SCREENSHOT_DIR (docs/panel when refreshing them).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { signaturePng } from '../render/support/png.ts';
import {
  startPanelInBrowser,
  signUpAndIn,
  unlabelledControls,
  PHONE_VIEWPORT,
  fitsWindow,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const screenshots = new ScreenshotFolder('checkwriter-records-');

describe.runIf(chromiumAvailable()).each(dialects())('records and settings in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let page: Page;
  let base: string;

  const shoot = async (name: string): Promise<void> => {
    if (dialect === 'sqlite') await screenshots.take(page, `records-${name}`);
  };

  /** Readable on a phone: nothing wider than the screen, every control labelled. */
  const fitsPhone = async (name: string): Promise<void> => {
    await page.setViewportSize(PHONE_VIEWPORT);
    expect(await fitsWindow(page), name).toBe(true);
    expect(await unlabelledControls(page), name).toEqual([]);
    await shoot(`${name}-phone`);
    await page.setViewportSize({ width: 1280, height: 800 });
  };

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 800 } });
    ({ page, base } = panel);
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    screenshots.discard();
  });

  it('adds a bank account by keyboard, uploads its signature, shows refused fields, saves settings', async () => {
    await signUpAndIn(page, base, {
      company: 'Acme Payables',
      email: 'owner@records.test',
      phone: '+14155550142',
      password: PASSWORD,
    });

    // A bank account, typed field by field with Tab and submitted with Enter.
    await page.goto(`${base}/panel/bank-accounts`);
    await page.getByRole('link', { name: 'Add a bank account' }).click();
    expect(await unlabelledControls(page)).toEqual([]);
    await page.getByLabel('Name', { exact: false }).first().focus();
    await page.keyboard.type('Operating');
    await page.keyboard.press('Tab');
    await page.keyboard.type('First Test Bank');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1 Bank Plaza, Springfield');
    await page.keyboard.press('Tab');
    await page.keyboard.type('011000015');
    await page.keyboard.press('Tab');
    await page.keyboard.type('9876543210');
    await page.keyboard.press('Tab');
    await page.keyboard.type('2500');
    await shoot('bank-account-new');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/panel\/bank-accounts\/bank_[0-9A-Za-z]+\?notice=record-added$/);
    const content = (await page.textContent('main')) ?? '';
    expect(content).toContain('****3210');
    expect(content).not.toContain('9876543210');
    expect(await page.getByLabel('Next check number').inputValue()).toBe('2500');

    // The signature through the browser's own file field.
    await page.locator('#upload-signature').setInputFiles({
      name: 'signature.png',
      mimeType: 'image/png',
      buffer: signaturePng(240, 60),
    });
    await page.getByRole('button', { name: 'Upload signature' }).click();
    await page.waitForURL(/notice=signature-saved$/);
    expect(await page.textContent('[role=status]')).toContain('The signature is saved');
    await shoot('bank-account');
    await fitsPhone('bank-account');

    // A refused payee: each message under its own field, the field marked invalid.
    await page.goto(`${base}/panel/payees/new`);
    await page.getByLabel('Email', { exact: false }).fill('not-an-email');
    await page.getByRole('button', { name: 'Add payee' }).click();
    expect(await page.textContent('#f-name-error')).toBe('The name field is required.');
    expect(await page.textContent('#f-email-error')).toBe('The email field must be a valid email address.');
    expect(await page.getAttribute('#f-email', 'aria-invalid')).toBe('true');
    await shoot('payee-form-refused');
    await fitsPhone('payee-form-refused');

    // Settings: the company name payees see, and the time zone from the suggestions.
    await page.goto(`${base}/panel/settings`);
    await page.locator('#f-company').fill('Acme Widgets LLC');
    await page.locator('#f-companyAddress').fill('1 Main St, Springfield, IL 62701');
    await page.locator('#f-timeZone').fill('America/Chicago');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.waitForURL(/notice=settings-saved$/);
    expect(await page.textContent('main')).toContain('Acme Widgets LLC');
    await shoot('settings');
    await fitsPhone('settings');

    for (const path of ['/panel/payees', '/panel/categories/new', '/panel/to-addresses', '/panel/bank-accounts']) {
      await page.goto(`${base}${path}`);
      await fitsPhone(path.slice('/panel/'.length).replace('/', '-'));
    }
  });
});
