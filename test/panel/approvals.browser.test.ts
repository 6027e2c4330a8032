// Approvals in Chromium against a real server process, plain HTML forms: the owner sets a policy,
// checks above the threshold written over the API wait; the owner (who did not write them) ticks
// some in the approval queue and approves, rejects one with a reason; the approved ones print
// from the checks list, the rejected one shows its reason, and the audit trail names each step.
// (The second factor and an approver other than the owner come with the people pages.)
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { createKeyWithCli, http } from '../support/processes.ts';
import { pageText, parsePdf } from '../render/support/pdf.ts';
import { startPanelInBrowser, signUpAndIn, type PanelInBrowser } from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';

describe.runIf(chromiumAvailable()).each(dialects())('approvals in Chromium (%s)', (dialect) => {
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

  it('holds checks over the threshold, approves some, rejects one with a reason, prints the approved', async () => {
    const email = `approvals-${dialect}@browser.test`;
    await signUpAndIn(page, base, { company: 'Held Co', email, phone: '+14155550178', password: PASSWORD });
    await page.goto(`${base}/panel/settings/approvals`);
    await page.getByLabel('Threshold in dollars').fill('1000');
    await page.getByLabel('Approvals needed').selectOption('1');
    await page.getByRole('button', { name: 'Save the rule' }).click();
    expect(await page.textContent('main')).toContain('checks of $1,000.00 or more need 1 approval');

    // A key made at the command line: no person wrote these checks, so the owner may approve them.
    const key = await createKeyWithCli(email, panel.env);
    const bank = await http(`${base}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '011000015', accountNumber: '123456789' }] },
    });
    const payee = await http(`${base}/api/v3/payees`, { method: 'POST', key, body: { payees: [{ name: 'Globex' }] } });
    const made = await http(`${base}/api/v3/checks`, {
      method: 'POST',
      key,
      body: {
        checks: ['1500.00', '2500.00', '3500.00'].map((amount) => ({
          bankAccountId: bank.body.data.bankAccounts[0].bankAccountId,
          payeeId: payee.body.data.payees[0].payeeId,
          amount,
        })),
      },
    });
    expect(made.status).toBe(201);
    const [a, b, c] = made.body.data.checks as { checkId: string; serialNumber: string }[];
    if (a === undefined || b === undefined || c === undefined) throw new Error('no checks');

    await page.goto(`${base}/panel/approvals`);
    await page.getByLabel(`Check ${a.serialNumber}`).check();
    await page.getByLabel(`Check ${b.serialNumber}`).check();
    await page.getByRole('button', { name: 'Approve the ticked checks' }).click();
    expect(await page.textContent('main')).toContain('Your approval is recorded');
    await page.getByLabel(`Check ${c.serialNumber}`).check();
    await page.getByLabel('Reason for rejecting').fill('Wrong vendor');
    await page.getByRole('button', { name: 'Reject the ticked checks' }).click();
    expect(await page.textContent('main')).toContain('No check is waiting for approval.');

    await page.goto(`${base}/panel/checks?approval=rejected`);
    expect(await page.textContent('main')).toContain('Wrong vendor');

    await page.goto(`${base}/panel/checks?approval=approved`);
    await page.getByLabel(`Select check ${a.serialNumber}`).check();
    await page.getByLabel(`Select check ${b.serialNumber}`).check();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Print selected' }).click(),
    ]);
    const pages = await parsePdf(readFileSync(await download.path()));
    expect(pages).toHaveLength(2);
    expect(pages.map(pageText).join(' ')).not.toContain('NOT APPROVED');

    await page.goto(`${base}/panel/audit?objectId=${c.checkId}&objectType=check`);
    const trail = (await page.textContent('main')) ?? '';
    expect(trail).toContain('check.reject');
    expect(trail).toContain('Wrong vendor');
  }, 90_000);
});
