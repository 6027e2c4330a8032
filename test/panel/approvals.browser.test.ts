// Approvals in Chromium against a real server process, through the pages alone, as an office lives
// them: the owner adds a bank account, sets a policy ($1,000.00 or more needs one approval) and
// invites an accountant and an approver, who join from the links in the sandbox inbox, each in a
// browser context of their own. The approver enrols an authenticator app (codes from the test's
// own RFC 6238, test/support/rfc6238.ts). The accountant writes a check over the threshold and
// imports four more (three held, one below the threshold). The approver reads one email per batch
// in the sandbox inbox, signs in with password and code, approves three checks and rejects one
// with a reason. The accountant prints the approved ones with the one below the threshold (the PDF
// read back), sees the reason on the rejected one, and is refused the still-waiting one. The
// owner's audit trail names who did each step.
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../support/browser.ts';
import { dialects } from '../support/databases.ts';
import { pageText, parsePdf } from '../render/support/pdf.ts';
import { base32Decode, totp } from '../support/rfc6238.ts';
import { startPanelInBrowser, signUpAndIn, type PanelInBrowser } from '../support/panel-browser.ts';

const PASSWORD = 'a long enough passphrase';
const COMPANY = 'Held Co';
const ACCOUNTANT = { name: 'Casey Clerk', email: 'casey@held.test' };
const APPROVER = { name: 'Avery Approver', email: 'avery@held.test' };

/** The accountant's import: a check detail export, three rows at or over $1,000.00 and one under. */
const IMPORT_ROWS = [
  { num: '5001', payee: 'Initech LLC', memo: 'Servers', amount: '1,500.00' },
  { num: '5002', payee: 'Umbrella Supply', memo: 'Gloves', amount: '1,000.00' },
  { num: '5003', payee: 'Initech LLC', memo: 'Licences', amount: '2,750.25' },
  { num: '5004', payee: 'Umbrella Supply', memo: 'Masks', amount: '250.00' },
] as const;
const IMPORT_CSV = `Date,Num,Name,Memo,Amount\r\n${IMPORT_ROWS.map((r) => `11/20/2026,${r.num},${r.payee},${r.memo},"${r.amount}"`).join('\r\n')}\r\n`;

/** The rows of the page's first table, each row's cells as text. */
const tableRows = (page: Page): Promise<string[][]> =>
  page.$$eval('main table tbody tr', (rows) =>
    rows.map((row) => [...row.querySelectorAll('td')].map((td) => (td.textContent ?? '').replace(/\s+/g, ' ').trim())),
  );

describe.runIf(chromiumAvailable()).each(dialects())('approvals in Chromium (%s)', (dialect) => {
  let panel: PanelInBrowser;
  let owner: Page;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    panel = await startPanelInBrowser(
      dialect,
      { viewport: { width: 1280, height: 900 }, acceptDownloads: true },
      { DELIVERY_POLL_MS: '50' },
    );
    ({ page: owner, base, browser } = panel);
    owner.setDefaultTimeout(15_000);
  }, 60_000);
  afterAll(async () => {
    await panel?.close();
  });

  /** A page in a browser context of its own: another person at another desk. */
  const desk = async (): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  const invite = async (email: string, role: string): Promise<void> => {
    await owner.goto(`${base}/panel/people`);
    await owner.locator('#invite-email').fill(email);
    await owner.getByLabel('Role', { exact: true }).selectOption({ label: role });
    await owner.getByLabel(/To the sandbox inbox/).check();
    await owner.getByRole('button', { name: 'Send the invitation' }).click();
    await expect.poll(() => owner.getByRole('status').textContent()).toContain('The invitation is on its way');
  };

  /** Opens the sandbox inbox on `page` until a message to `to` whose subject matches is listed; its text. */
  const readMail = async (page: Page, to: string, subject: RegExp): Promise<string> => {
    let text = '';
    await expect
      .poll(
        async () => {
          await page.goto(`${base}/panel/inbox`);
          const row = page.getByRole('row').filter({ hasText: to }).filter({ hasText: subject });
          if ((await row.count()) === 0) return false;
          await row.first().getByRole('link').click();
          text = (await page.locator('pre').first().textContent()) ?? '';
          return text !== '';
        },
        { timeout: 20_000, interval: 200 },
      )
      .toBe(true);
    return text;
  };

  const join = async (link: string, name: string): Promise<Page> => {
    const page = await desk();
    await page.goto(link);
    await page.getByLabel('Your name').fill(name);
    await page.getByLabel(/Choose a password/).fill(PASSWORD);
    await page.getByRole('button', { name: `Join ${COMPANY}` }).click();
    await page.waitForURL(/\/panel\?notice=joined$/);
    return page;
  };

  /** Downloads what pressing `button` answers, and reads the PDF back. */
  const printed = async (page: Page, button: string) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: button, exact: true }).click(),
    ]);
    return parsePdf(readFileSync(await download.path()));
  };

  it('holds what the accountant writes and imports until the approver approves; the trail names everyone', async () => {
    // 1. The owner: sign-up, a bank account, the policy, two invitations.
    const ownerEmail = `owner-${dialect}@held.test`;
    await signUpAndIn(owner, base, { company: COMPANY, email: ownerEmail, phone: '+14155550178', password: PASSWORD });
    await owner.goto(`${base}/panel/bank-accounts`);
    await owner.getByRole('link', { name: 'Add a bank account' }).click();
    await owner.getByLabel('Name', { exact: false }).first().focus();
    for (const value of ['Operating', 'First Test Bank', '1 Bank Plaza, Springfield', '011000015', '9876543210']) {
      await owner.keyboard.type(value);
      await owner.keyboard.press('Tab');
    }
    await owner.keyboard.type('2001');
    await owner.keyboard.press('Enter');
    await owner.waitForURL(/\/panel\/bank-accounts\/bank_[0-9A-Za-z]+\?notice=record-added$/);

    await owner.goto(`${base}/panel/settings/approvals`);
    await owner.getByLabel('Threshold in dollars').fill('1000');
    await owner.getByLabel('Approvals needed').selectOption('1');
    await owner.getByRole('button', { name: 'Save the rule' }).click();
    expect(await owner.textContent('main')).toContain('checks of $1,000.00 or more need 1 approval');

    await invite(ACCOUNTANT.email, 'Accountant');
    await invite(APPROVER.email, 'Approver');
    const linkOf = (text: string): string => /https?:\/\/\S+\/panel\/join\/\S+/.exec(text)?.[0] ?? '';
    const accountantLink = linkOf(await readMail(owner, ACCOUNTANT.email, /invit/i));
    const approverLink = linkOf(await readMail(owner, APPROVER.email, /invit/i));
    expect(accountantLink).not.toBe('');
    expect(approverLink).not.toBe('');
    const accountant = await join(accountantLink, ACCOUNTANT.name);
    const approver = await join(approverLink, APPROVER.name);

    // 2. The approver enrols an authenticator app: the secret is on the page as text.
    await approver.goto(`${base}/panel/security`);
    await approver.getByRole('button', { name: 'Set up an authenticator app' }).click();
    await approver.waitForSelector('#totp-secret');
    const secret = ((await approver.textContent('#totp-secret')) ?? '').replace(/\s/g, '');
    await approver.getByLabel('Code from your app').fill(totp(base32Decode(secret), Math.floor(Date.now() / 1000)));
    await approver.getByRole('button', { name: 'Confirm the app' }).click();
    await approver.waitForSelector('#recovery-codes');
    // An approver neither writes nor prints: the check form is refused in the role's words.
    await approver.goto(`${base}/panel/checks/new`);
    expect(await approver.textContent('main')).toContain("Your role, Approver, can't write, edit or delete checks.");
    await approver
      .getByRole('button', { name: /Sign out/ })
      .first()
      .click();
    await approver.waitForURL(/\/panel\/sign-in\?notice=signed-out$/);

    // 3. The accountant writes a check over the threshold to a new payee, then imports four.
    await accountant.goto(`${base}/panel/checks/new`);
    await accountant.locator('summary', { hasText: 'Or add a new payee' }).click();
    await accountant.getByLabel('Pay a new payee with these details').check();
    await accountant.locator('#newPayee-name').fill('Globex Corporation');
    await accountant.locator('#amount').fill('4200.00');
    await accountant.locator('#memo').fill('Annual maintenance');
    await accountant.getByRole('button', { name: 'Save check' }).click();
    await accountant.waitForURL(/\/panel\/checks\/chk_[\w-]+\?notice=check-saved$/);
    const written = {
      id: /\/panel\/checks\/(chk_[\w-]+)/.exec(accountant.url())?.[1] ?? '',
      serial: /Check (\d+)/.exec((await accountant.textContent('h1')) ?? '')?.[1] ?? '',
    };
    expect(written.serial).toBe('2001');
    expect(await accountant.textContent('main')).toContain('waiting for approval (0 of 1)');

    await accountant.getByRole('navigation', { name: 'Office' }).getByRole('link', { name: 'Import' }).click();
    await accountant.getByLabel('The file holds').selectOption('checks');
    await accountant.getByLabel('CSV file').setInputFiles({
      name: 'check-detail.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(IMPORT_CSV),
    });
    await accountant.getByRole('button', { name: 'Preview' }).click();
    await accountant.waitForURL(/\/panel\/imports\/imp_\w+$/);
    await accountant.getByLabel('Create payees the file names that are not yet payees').check();
    await accountant.getByRole('button', { name: 'Update preview' }).click();
    await expect.poll(() => accountant.textContent('main')).toContain('No errors: all 4 rows can be imported.');
    await accountant.getByRole('button', { name: 'Import 4 rows' }).click();
    await expect
      .poll(() => accountant.textContent('main'), { timeout: 30_000 })
      .toContain('Created 4 checks and 2 payees.');

    // The list's approval column, as the accountant sees it.
    await accountant.goto(`${base}/panel/checks?approval=pending`);
    const pendingRows = await tableRows(accountant);
    expect(pendingRows.map((r) => r[1]).sort()).toEqual([written.serial, '5001', '5002', '5003']);
    for (const r of pendingRows) expect(r[5]).toContain('waiting for approval (0 of 1)');

    // 4. The approver's mail: one email for the written check, one for the import's batch of three.
    const approverMail = await desk();
    await approverMail.goto(`${base}/panel/sign-in`);
    await approverMail.getByLabel('Email').fill(APPROVER.email);
    await approverMail.getByLabel('Password').fill(PASSWORD);
    await approverMail.getByRole('button', { name: 'Sign in' }).click();
    await approverMail.waitForURL(/\/panel\/sign-in\/factor/);
    // The code of the next time step: accepted (one step of drift), never the enrolment's own.
    await approverMail.getByLabel(/^Code/).fill(totp(base32Decode(secret), Math.floor(Date.now() / 1000) + 30));
    await approverMail.getByRole('button', { name: 'Continue' }).click();
    await approverMail.waitForURL(/\/panel$/);
    const batch = await readMail(approverMail, APPROVER.email, /3 checks of Held Co wait for your approval/);
    for (const line of [
      'Check 5001 to Initech LLC, $1,500.00',
      'Check 5002 to Umbrella Supply, $1,000.00',
      'Check 5003 to Initech LLC, $2,750.25',
    ])
      expect(batch).toContain(line);
    expect(batch).not.toContain('5004');
    expect(batch).toContain(`${base}/panel/approvals`);
    const single = await readMail(approverMail, APPROVER.email, /1 check of Held Co waits for your approval/);
    expect(single).toContain(`Check ${written.serial} to Globex Corporation, $4,200.00`);
    await approverMail.goto(`${base}/panel/inbox`);
    const toApprover = (await tableRows(approverMail)).filter(
      (r) => r[2] === APPROVER.email && (r[3] ?? '').includes('approval'),
    );
    expect(toApprover.map((r) => r[3]).sort()).toEqual([
      '1 check of Held Co waits for your approval',
      '3 checks of Held Co wait for your approval',
    ]);

    // The queue, from the email's link: four checks, who wrote them, none approved yet.
    await approverMail.getByRole('navigation').getByRole('link', { name: 'Approvals (4)' }).click();
    await approverMail.waitForURL(/\/panel\/approvals$/);
    const queue = await tableRows(approverMail);
    expect(queue.map((r) => r[1]).sort()).toEqual([written.serial, '5001', '5002', '5003']);
    for (const r of queue) {
      expect(r[5]).toBe(ACCOUNTANT.name);
      expect(r[7]).toBe('0 of 1');
    }
    for (const serial of [written.serial, '5001', '5003'])
      await approverMail.getByLabel(`Check ${serial}`, { exact: true }).check();
    await approverMail.getByRole('button', { name: 'Approve the ticked checks' }).click();
    // No step-up: the approver proved the factor at sign-in moments ago (over ten minutes, the
    // decision asks again: test/panel/second-factor.test.ts moves the app's clock for that).
    await approverMail.waitForURL(/notice=checks-approved/);
    expect(await approverMail.textContent('main')).toContain('Your approval is recorded');
    await approverMail.getByLabel('Check 5002', { exact: true }).check();
    await approverMail.getByLabel('Reason for rejecting').fill('Duplicate of invoice 881');
    await approverMail.getByRole('button', { name: 'Reject the ticked checks' }).click();
    await approverMail.waitForURL(/notice=checks-rejected/);
    expect(await approverMail.textContent('main')).toContain('No check is waiting for approval.');

    // The accountant, who wrote them, hears of each decision: one email for the approved three,
    // one for the rejected check with its reason.
    const approvedMail = await readMail(accountant, ACCOUNTANT.email, /3 checks of Held Co approved/);
    for (const serial of [written.serial, '5001', '5003']) expect(approvedMail).toContain(`Check ${serial} to`);
    const rejectedMail = await readMail(accountant, ACCOUNTANT.email, /1 check of Held Co rejected/);
    expect(rejectedMail).toContain('Check 5002 to Umbrella Supply, $1,000.00');
    expect(rejectedMail).toContain('Reason: Duplicate of invoice 881');

    // A fifth check, written after the decisions, still waits: the accountant may not print it.
    await accountant.goto(`${base}/panel/checks/new`);
    await accountant.locator('#payee').fill('Globex Corporation');
    await accountant.locator('#amount').fill('1800.00');
    await accountant.getByRole('button', { name: 'Save check' }).click();
    await accountant.waitForURL(/\/panel\/checks\/chk_[\w-]+\?notice=check-saved$/);
    const waiting = {
      id: /\/panel\/checks\/(chk_[\w-]+)/.exec(accountant.url())?.[1] ?? '',
      serial: /Check (\d+)/.exec((await accountant.textContent('h1')) ?? '')?.[1] ?? '',
    };
    await accountant.getByRole('button', { name: 'Print', exact: true }).click();
    await expect
      .poll(() => accountant.textContent('main'))
      .toContain(`Check ${waiting.serial} is waiting for approval (0 of 1 approval).`);

    // 5. The accountant prints the approved three and the one below the threshold from the list.
    await accountant.goto(`${base}/panel/checks?perPage=25`);
    const listed = await tableRows(accountant);
    const statusOf = (serial: string): string => listed.find((r) => r[1] === serial)?.[5] ?? '';
    expect(statusOf(written.serial)).toContain(`approved by ${APPROVER.name}`);
    expect(statusOf('5002')).toContain(`rejected by ${APPROVER.name}: Duplicate of invoice 881`);
    expect(statusOf('5004')).not.toContain('approv');
    for (const serial of [written.serial, '5001', '5003', '5004'])
      await accountant.getByLabel(`Select check ${serial}`).check();
    const pdf = await printed(accountant, 'Print selected');
    expect(pdf).toHaveLength(4);
    const text = pdf.map(pageText);
    expect(text.join(' ')).not.toContain('NOT APPROVED');
    // In check-number order: the written check (2001) first, then the imported ones.
    for (const [i, words] of [
      ['Globex Corporation', '4,200.00'],
      ['Initech LLC', '1,500.00'],
      ['Initech LLC', '2,750.25'],
      ['Umbrella Supply', '250.00'],
    ].entries()) {
      expect(text[i]).toContain(words[0]);
      expect(text[i]).toContain(words[1]);
    }
    await accountant.goto(`${base}/panel/checks?status=printed`);
    expect((await tableRows(accountant)).map((r) => r[1]).sort()).toEqual([written.serial, '5001', '5003', '5004']);

    // The rejected check: its reason on its page, and a print is refused.
    await accountant.goto(`${base}/panel/checks?approval=rejected`);
    await accountant.getByRole('link', { name: '5002', exact: true }).click();
    await accountant.waitForURL(/\/panel\/checks\/chk_/);
    const rejectedId = /\/panel\/checks\/(chk_[\w-]+)/.exec(accountant.url())?.[1] ?? '';
    expect(await accountant.textContent('main')).toContain(`rejected by ${APPROVER.name}: Duplicate of invoice 881`);
    await accountant.getByRole('button', { name: 'Print', exact: true }).click();
    await expect
      .poll(() => accountant.textContent('main'))
      .toContain('Check 5002 was rejected: Duplicate of invoice 881.');

    // 6. The owner's audit trail (newest first): each check's steps, and who took them, by name.
    await owner.goto(`${base}/panel/audit`);
    const trail = (await tableRows(owner)).reverse();
    const idOf = (serial: string): string =>
      /check (chk_\S+)/.exec(
        trail.find((r) => r[2] === 'check.create' && (r[4] ?? '').includes(`serialNumber: — → ${serial};`))?.[3] ?? '',
      )?.[1] ?? '-';
    const stepsOf = (objectId: string): string[] =>
      trail.filter((r) => (r[3] ?? '').endsWith(objectId)).map((r) => `${r[1]}: ${r[2]}`);
    const clerk = `${ACCOUNTANT.name} (accountant)`;
    const approverWho = `${APPROVER.name} (approver)`;
    expect(idOf(written.serial)).toBe(written.id);
    expect(idOf('5002')).toBe(rejectedId);
    for (const serial of [written.serial, '5001', '5003'])
      expect(stepsOf(idOf(serial)), serial).toEqual([
        `${clerk}: check.create`,
        `${approverWho}: check.approve`,
        `${clerk}: check.print`,
      ]);
    expect(stepsOf(idOf('5004'))).toEqual([`${clerk}: check.create`, `${clerk}: check.print`]);
    expect(stepsOf(idOf('5002'))).toEqual([`${clerk}: check.create`, `${approverWho}: check.reject`]);
    expect(trail.find((r) => r[2] === 'check.reject')?.[4]).toContain('reason: — → Duplicate of invoice 881');
    expect(stepsOf(waiting.id)).toEqual([`${clerk}: check.create`]);
    // The import, its new payees and the new payee of the check form are the accountant's too.
    for (const action of ['import.start', 'import.complete'])
      expect(trail.filter((r) => r[2] === action).map((r) => r[1])).toEqual([clerk]);
    expect(trail.filter((r) => r[2] === 'payee.create').map((r) => r[1])).toEqual([clerk, clerk, clerk]);
    // The set-up is the owner's; the second factor the approver's.
    const ownerWho = `${ownerEmail} (owner)`;
    for (const action of ['bank-account.create', 'approvals.policy'])
      expect(trail.filter((r) => r[2] === action).map((r) => r[1])).toEqual([ownerWho]);
    expect(trail.filter((r) => r[2] === 'invitation.sent').map((r) => r[1])).toEqual([ownerWho, ownerWho]);
    expect(trail.filter((r) => r[2] === 'second-factor.enrolled').map((r) => r[1])).toEqual([approverWho]);
  }, 180_000);
});
