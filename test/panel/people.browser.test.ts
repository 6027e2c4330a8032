// People of a company in Chromium against a server process: the owner invites an accountant and
// a viewer (links read from the sandbox inbox page), both accept in their own browser contexts,
// the viewer's print is refused in the role's words, and the owner removes the accountant, whose
// open session ends on its next click. The people and join pages pass axe-core too.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import {
  ScreenshotFolder,
  axeViolations,
  createTestKey,
  signUpAndIn,
  startPanelInBrowser,
  type PanelInBrowser,
} from '../support/panel-browser.ts';
import { http } from '../support/processes.ts';

const PASSWORD = 'a long enough passphrase';
const screenshots = new ScreenshotFolder('checkwriter-people-screens-');

describe.runIf(chromiumAvailable()).each(dialects())('people of a company in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let owner: Page;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    panel = await startPanelInBrowser(dialect, { viewport: { width: 1280, height: 800 } }, { DELIVERY_POLL_MS: '50' });
    ({ page: owner, base, browser } = panel);
    owner.setDefaultTimeout(15_000);
    await signUpAndIn(owner, base, {
      company: 'Acme Payables',
      email: 'owner@people.test',
      phone: '+14155550142',
      password: PASSWORD,
    });
  }, 60_000);
  afterAll(async () => {
    screenshots.discard();
    await panel?.close();
  });

  const invite = async (email: string, role: string): Promise<void> => {
    await owner.goto(`${base}/panel/people`);
    await owner.locator('#invite-email').fill(email);
    await owner.getByLabel('Role', { exact: true }).selectOption({ label: role });
    await owner.getByLabel(/To the sandbox inbox/).check();
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('The invitation is on its way');
  };

  /** The join link of the invitation to `email`, from the sandbox inbox page as a person reads it. */
  const linkFromInbox = async (email: string): Promise<string> => {
    let href = '';
    await expect
      .poll(
        async () => {
          await owner.goto(`${base}/panel/inbox`);
          const row = owner.getByRole('row').filter({ hasText: email });
          if ((await row.count()) === 0) return false;
          await row.first().getByRole('link').click();
          href = (await owner.locator('pre a').first().getAttribute('href')) ?? '';
          return href.includes('/panel/join/');
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    return href;
  };

  const accept = async (link: string, name: string): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(link);
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel(/Choose a password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Join Acme Payables' }).click();
    await page.waitForURL(/\/panel\?notice=joined$/);
    return page;
  };

  it('invites, joins, refuses the viewer a print, and ends the removed accountant’s session', async () => {
    const key = await createTestKey(owner, base, 'People test');
    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '123456789' }] },
    });
    const payee = await http(`${base}/api/v3/payees`, { method: 'POST', key, body: { payees: [{ name: 'Globex' }] } });
    const made = await http(`${base}/api/v3/checks`, {
      method: 'POST',
      key,
      body: {
        checks: [
          {
            bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
            payeeId: payee.body.data.payees[0].payeeId,
            amount: '42.00',
          },
        ],
      },
    });
    const checkId: string = made.body.data.checks[0].checkId;

    await invite('accountant@people.test', 'Accountant');
    await invite('viewer@people.test', 'Viewer');
    // The waiting invitations are listed with their expiry; the page passes axe.
    await owner.goto(`${base}/panel/people`);
    expect(await owner.getByRole('row').filter({ hasText: 'viewer@people.test' }).count()).toBe(1);
    expect(await axeViolations(owner)).toEqual([]);
    await screenshots.take(owner, 'people');

    const accountantLink = await linkFromInbox('accountant@people.test');
    const viewerLink = await linkFromInbox('viewer@people.test');

    // The join page, as the invited person sees it, passes axe.
    const probe = await browser.newContext();
    const probePage = await probe.newPage();
    await probePage.goto(viewerLink);
    expect(await probePage.getByRole('heading', { name: 'Join Acme Payables' }).count()).toBe(1);
    expect(await axeViolations(probePage)).toEqual([]);
    await screenshots.take(probePage, 'invitation');
    await probe.close();

    const accountant = await accept(accountantLink, 'Casey Clerk');
    const viewer = await accept(viewerLink, 'Val Viewer');

    // The viewer opens the check and presses Print: refused, in the role's words, server-side.
    await viewer.goto(`${base}/panel/checks/${checkId}`);
    await viewer.getByRole('button', { name: 'Print', exact: true }).click();
    await expect
      .poll(() => viewer.textContent('main'))
      .toContain("Your role, Viewer, can't print checks. An admin of Acme Payables can change it.");

    // The accountant is working; the owner removes them; their next click signs them out.
    await accountant.goto(`${base}/panel/checks`);
    expect(accountant.url()).toContain('/panel/checks');
    await owner.goto(`${base}/panel/people`);
    await owner.getByRole('button', { name: 'Remove Casey Clerk' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('The person is removed');
    await accountant.getByRole('link', { name: 'Payees' }).click();
    await accountant.waitForURL(/\/panel\/sign-in/);
    expect(await accountant.getByRole('heading', { name: 'Sign in to checkwriter' }).count()).toBe(1);

    // The audit trail names who did each step: the invitations, the joins, the removal.
    await owner.goto(`${base}/panel/audit`);
    await expect.poll(() => owner.textContent('main')).toContain('Casey Clerk');
    await screenshots.take(owner, 'audit-trail');
  }, 120_000);
});
