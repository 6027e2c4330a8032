// The second factor in Chromium against a real server process: an owner is sent to enrol, enrols
// an authenticator app (the test reads the secret from the page and computes codes with its own
// RFC 6238, test/support/rfc6238.ts), signs out and in with a code, then with a recovery code (the
// same code refused a second time); a passkey is enrolled and used through Chromium's virtual
// authenticator (DevTools protocol WebAuthn.addVirtualAuthenticator). The new pages pass axe.
//
// The server's public address is http://localhost:<port>: WebAuthn takes a domain as the relying
// party, never an IP address.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable, freePort, launchChromium } from '../support/browser.ts';
import { freshDatabaseConfig } from '../support/databases.ts';
import { dialects } from '../support/databases.ts';
import { peerEnv, type SmsPeer, type SmtpPeer, startSmsPeer, startSmtpPeer } from '../support/mail-peers.ts';
import { ScreenshotFolder, axeViolations } from '../support/panel-browser.ts';
import { type ServerProcess, startServerProcess } from '../support/processes.ts';
import { base32Decode, totp } from '../support/rfc6238.ts';

const PASSWORD = 'a long enough passphrase';
const EMAIL = 'owner@factor-browser.test';
const screenshots = new ScreenshotFolder('checkwriter-factor-screens-');

describe.runIf(chromiumAvailable()).each(dialects())('second factor in Chromium (%s)', (dialect) => {
  let server: ServerProcess;
  let browser: Browser;
  let page: Page;
  let base: string;
  let cleanup: () => Promise<void>;
  let smtp: SmtpPeer;
  let sms: SmsPeer;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    sms = await startSmsPeer();
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    const port = await freePort();
    base = `http://localhost:${port}`;
    server = await startServerProcess({
      ...fresh.env,
      PORT: String(port),
      PUBLIC_URL: base,
      SECOND_FACTOR_REQUIRED: 'true',
      ...peerEnv(smtp, sms),
      DELIVERY_POLL_MS: '50',
    });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
  }, 60_000);

  afterAll(async () => {
    screenshots.discard();
    await browser?.close();
    await server?.stop();
    await cleanup?.();
    await smtp?.close();
    await sms?.close();
  });

  /** The code of the next time step: accepted (one step of drift), and never one already used. */
  const nextCode = (secret: string): string => totp(base32Decode(secret), Math.floor(Date.now() / 1000) + 30);

  const signOut = async (): Promise<void> => {
    await page
      .getByRole('button', { name: /Sign out/ })
      .first()
      .click();
    await page.waitForURL(/\/panel\/sign-in\?notice=signed-out$/);
  };

  const password = async (): Promise<void> => {
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/panel\/sign-in\/factor/);
  };

  it('enrols an app, signs in with a code and with a recovery code once, then with a passkey', async () => {
    await page.goto(`${base}/panel/sign-up`);
    await page.getByLabel('Company name').fill('Factor Browser Co');
    await page.getByLabel(/^Email/).fill(EMAIL);
    await page.getByLabel(/^Mobile phone/).fill('+14155550199');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/panel\/sign-in\?notice=signed-up$/);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // An owner without a factor is sent to enrol.
    await page.waitForURL(/\/panel\/security\?notice=factor-required$/);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await page.waitForSelector('#totp-secret');
    expect(await axeViolations(page)).toEqual([]);
    await screenshots.take(page, 'second-factor-enrol');
    const secret = ((await page.textContent('#totp-secret')) ?? '').replace(/\s/g, '');
    await page.getByLabel('Code from your app').fill(totp(base32Decode(secret), Math.floor(Date.now() / 1000)));
    await page.getByRole('button', { name: 'Confirm the app' }).click();
    await page.waitForSelector('#recovery-codes');
    const codes = await page.$$eval('#recovery-codes code', (nodes) => nodes.map((n) => n.textContent ?? ''));
    expect(codes).toHaveLength(10);
    expect(await axeViolations(page)).toEqual([]);

    // Out and in with a code from the app.
    await signOut();
    await password();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByLabel(/^Code/).fill(nextCode(secret));
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/panel$/);

    // Out and in with a recovery code; the same code is refused the second time.
    await signOut();
    await password();
    await page.getByLabel(/^Code/).fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/panel$/);
    // The person is told by email, through the outbox and the real SMTP peer; the code is not in it.
    await expect
      .poll(() => smtp.received.find((m) => m.raw.includes('A recovery code was used'))?.raw ?? '', { timeout: 15_000 })
      .toContain(EMAIL);
    const mail = smtp.received.find((m) => m.raw.includes('A recovery code was used'))?.raw ?? '';
    expect(mail).not.toContain(codes[0] ?? '-');
    await signOut();
    await password();
    await page.getByLabel(/^Code/).fill(codes[0] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.textContent('[role=alert]')).toContain('not right');
    expect(new URL(page.url()).pathname).toBe('/panel/sign-in/factor');
    await page.getByLabel(/^Code/).fill(codes[1] ?? '');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL(/\/panel$/);

    // A passkey, through Chromium's virtual authenticator.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await page.goto(`${base}/panel/security`);
    await page.getByLabel(/^Name of the new passkey/).fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.textContent('[role=status].notice').catch(() => '')).toContain('The passkey is added');
    expect(await page.textContent('main')).toContain('Test laptop');

    await signOut();
    await password();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL(/\/panel$/);
  }, 120_000);
});
