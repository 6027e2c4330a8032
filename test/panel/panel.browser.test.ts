// The panel end to end in a real browser (headless Chromium) against a real server process, with
// the real SMTP and SMS peers: sign up -> verify email by the mailed link -> verify phone by the
// texted code -> create a test key -> call the API with it -> see the check in the panel -> open
// its PDF -> revoke the key -> the API answers 401. Screenshots of the main pages are written to
// SCREENSHOT_DIR (docs/panel when refreshing the README's pictures; a temporary folder otherwise).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { dialects } from '../support/databases.ts';
import { http } from '../support/processes.ts';
import { parseMail, peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { chromiumAvailable } from '../support/browser.ts';
import { parsePdf, pageText } from '../render/support/pdf.ts';
import {
  startPanelInBrowser,
  unlabelledControls,
  PHONE_VIEWPORT,
  fitsWindow,
  axeViolations,
  ScreenshotFolder,
  type PanelInBrowser,
} from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const EMAIL = 'owner@browser.test';
const PHONE = '+14155550199';
const screenshots = new ScreenshotFolder('checkwriter-screens-');

async function eventually<T>(
  what: string,
  read: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.runIf(chromiumAvailable()).each(dialects())('developer panel in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let context: BrowserContext;
  let page: Page;
  let smtp: SmtpPeer;
  let sms: SmsPeer;
  let base: string;

  const shoot = async (name: string): Promise<void> => {
    if (dialect === 'sqlite') await screenshots.take(page, name);
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    sms = await startSmsPeer();
    panel = await startPanelInBrowser(
      dialect,
      { viewport: { width: 1280, height: 800 } },
      { ...peerEnv(smtp, sms), DELIVERY_POLL_MS: '50' },
    );
    ({ context, page, base } = panel);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
  }, 60_000);

  afterAll(async () => {
    await panel?.close();
    await smtp?.close();
    await sms?.close();
    screenshots.discard();
  });

  it('walks sign up, email and phone verification, a test key, the API, the check and its PDF, and revocation', async () => {
    // Signed out, the panel asks to sign in; sign-up is one link away.
    await page.goto(`${base}/`);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/panel/sign-in');
    await shoot('sign-in');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Create an account' }).click();
    expect(await unlabelledControls(page)).toEqual([]);

    // The whole form by keyboard: Tab to each field, Enter to submit.
    await page.getByLabel('Company name').focus();
    await page.keyboard.type('Acme Payables');
    await page.keyboard.press('Tab');
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PHONE);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await shoot('sign-up');
    await page.keyboard.press('Enter');
    // Sign-up signs nobody in (its answer is the same for a taken email): the owner signs in next.
    await page.waitForURL(/\/panel\/sign-in\?notice=signed-up$/);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/panel$/);
    await expect.poll(() => page.getByRole('heading', { name: 'Before you can email checks' }).isVisible()).toBe(true);
    expect(await page.textContent('main')).toContain(
      'Please verify your phone number and email address to enable mail check.',
    );
    await shoot('home-unverified');

    // The verification email, through the real SMTP peer.
    const mail = await eventually('the verification email', async () => {
      for (const m of smtp.received) {
        const parsed = await parseMail(m.raw);
        if (parsed.to?.[0]?.address === EMAIL) return parsed;
      }
      return undefined;
    });
    const link = /http:\/\/127\.0\.0\.1:\d+\/panel\/verify-email\?token=[\w-]+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    await page.goto(link ?? '');
    await page.getByRole('button', { name: 'Confirm my email address' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your email address is verified.');

    // The code, through the SMS peer (Twilio's API shape).
    const text = await eventually(
      'the SMS code',
      () => sms.received.find((r) => r.form.get('To') === PHONE)?.form.get('Body') ?? undefined,
    );
    const code = /\b(\d{6})\b/.exec(text)?.[1] ?? '';
    await page.getByLabel('Six-digit code').fill(code);
    await page.getByRole('button', { name: 'Verify phone' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Your phone number is verified.');
    expect(await page.textContent('main')).toContain('Your email address and phone number are verified');
    await shoot('home-new');

    // A test key, shown once, copied with the button.
    await page.getByRole('navigation', { name: 'Developer' }).getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel(/Name/).fill('Browser test');
    await page.getByLabel('Environment').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = ((await page.textContent('#new-key')) ?? '').trim();
    expect(key.split('.')).toHaveLength(3);
    expect(await page.textContent('#curl-example')).toContain(`Bearer ${key}`);
    await page.locator('[data-copy="new-key"]').click();
    await expect.poll(() => page.locator('[data-copy="new-key"]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
    await shoot('api-key-created');

    // The test calls the API with the key, as a client program would.
    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: {
        bankAccounts: [
          { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' },
        ],
      },
    });
    expect(bank.status).toBe(201);
    const payee = await http(`${base}/api/v3/payees`, {
      method: 'POST',
      key,
      body: { payees: [{ name: 'Globex Corporation', email: 'ap@globex.test', phone: '+14155552671' }] },
    });
    const made = await http(`${base}/api/v3/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [
          {
            bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
            payeeId: payee.body.data.payees[0].payeeId,
            amount: '1234.56',
            memo: 'Invoice 42',
            referenceId: 'inv-42',
          },
        ],
      },
    });
    expect(made.status).toBe(201);
    const { checkId, serialNumber } = made.body.data.checks[0] as { checkId: string; serialNumber: string };
    // Verified now, so emailing answers 200; the test key's messages land in the sandbox inbox.
    expect(
      (
        await http(`${base}/api/v3/emailchecks`, {
          method: 'POST',
          key,
          body: { emailChecks: [{ checkId, enableSmsInform: true }] },
        })
      ).status,
    ).toBe(200);

    // The new check in the panel, then its page and PDF.
    await page.getByRole('link', { name: 'Checks' }).click();
    const row = page.getByRole('row', { name: new RegExp(`${serialNumber}.*Globex Corporation.*\\$1,234\\.56`) });
    await expect.poll(() => row.count()).toBe(1);
    await shoot('checks');
    await row.getByRole('link', { name: serialNumber }).click();
    await page.waitForURL(new RegExp(`/panel/checks/${checkId}$`));
    expect(await page.textContent('main')).toContain('One Thousand Two Hundred Thirty-Four and 56/100');
    expect(await page.getByRole('row', { name: /emailed/ }).count()).toBeGreaterThan(0);
    await shoot('check');
    const pdfHref = await page.getByRole('link', { name: 'Preview the PDF' }).getAttribute('href');
    const pdf = await context.request.get(new URL(pdfHref ?? '', base).toString());
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const pages = await parsePdf(await pdf.body());
    expect(pages).toHaveLength(1);
    const [first] = pages;
    if (first === undefined) throw new Error('the PDF has no page');
    expect(pageText(first)).toContain('Globex Corporation');

    // The sandbox inbox: the email, and the payee page its link opens.
    await page.getByRole('link', { name: 'Sandbox inbox' }).click();
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByRole('link', { name: /^Acme Payables sent you a check for \$1,234\.56$/ }).count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    await shoot('inbox');
    await page.getByRole('link', { name: /^Acme Payables sent you a check for \$1,234\.56$/ }).click();
    await shoot('inbox-message');
    const [payeePage] = await Promise.all([
      context.waitForEvent('page'),
      page.getByRole('link', { name: 'Open the payee page' }).click(),
    ]);
    await payeePage.waitForLoadState();
    expect(await payeePage.textContent('h1')).toBe('Acme Payables sent you a check');
    // The payee page meets WCAG 2.1 AA too (axe-core; the panel's pages are checked in desk.browser.test.ts).
    expect(await axeViolations(payeePage)).toEqual([]);
    // Its stylesheet is allowed by the page's CSP hash (a browser refuses it otherwise), and the
    // download is the form's button (a POST: GET and HEAD change nothing).
    expect(
      await payeePage.evaluate(() => getComputedStyle(document.querySelector('main') ?? document.body).maxWidth),
    ).toBe('576px');
    const [download] = await Promise.all([
      payeePage.waitForEvent('download'),
      payeePage.getByRole('button', { name: 'Download the check to print' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^check-\d+\.pdf$/);
    await payeePage.close();

    // Readable on a phone: nothing wider than the screen.
    await page.setViewportSize(PHONE_VIEWPORT);
    await page.goto(`${base}/panel/checks`);
    expect(await fitsWindow(page)).toBe(true);
    await shoot('checks-phone');
    await page.setViewportSize({ width: 1280, height: 800 });

    // Revoke: the API refuses the key at once.
    await page.goto(`${base}/panel/keys`);
    await page.getByRole('button', { name: 'Revoke key Browser test' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('The key is revoked');
    await shoot('api-keys');
    const refused = await http(`${base}/api/v3/checks`, { key });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ message: 'Unauthenticated.' });

    // A webhook endpoint: added from the page, its secret one click away.
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('URL').fill('https://hooks.example/checkwriter');
    await page.getByLabel('check.emailed').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Endpoint added.');
    await page.getByText('Show the secret').click();
    expect(await page.textContent('#webhook-secret')).toMatch(/^whsec_/);
    await shoot('webhook');
  }, 120_000);
});
