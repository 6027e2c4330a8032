// Approvals on both databases: with a policy (threshold $1,000, two approvers) a $999.99 check
// prints at once and a $1,000.00 check waits; every channel refuses it whole, naming it and what it
// lacks; approving is a person's act in the panel (never the API, never the check's writer); two
// approvals by two people release it; an edit sends it back; void stays allowed; a rejected check
// can only be voided or deleted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as writeService from '../../src/services/checks/write.service.ts';
import { startImport } from '../../src/services/imports/preview.service.ts';
import type { Principal } from '../../src/domain/owner.ts';
import { tokenHash } from '../../src/domain/secret-tokens.ts';
import { insertLinks } from '../../src/store/payee-links.repository.ts';
import { operatorQueue, operatorSettle } from '../../src/services/mailing.service.ts';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { addPerson, type TestPerson } from '../support/people.ts';
import { clearBandFills, pageText, parsePdf } from '../render/support/pdf.ts';
import { eventually } from '../support/until.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('approvals (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let owner: Visitor;
  let api: Client;
  let accountId: string;
  let basics: { bankAccountId: string; payeeId: string };
  let ada: TestPerson;
  let bea: TestPerson;
  const email = `approvals-owner-${dialect}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    owner = new Visitor(t.app);
    expect(
      (await owner.signUp({ company: 'Held Payables', email, phone: '+14155550100', password: PASSWORD })).status,
    ).toBe(303);
    api = clientFor(t.app, await owner.createKey('payables'));
    basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    accountId = (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
    // Email and mail need a verified company (API decisions, "Email checks").
    await t.database.db.run('UPDATE accounts SET email_verified_at = ?, phone_verified_at = ? WHERE id = ?', [
      Date.now(),
      Date.now(),
      accountId,
    ]);
    ada = await addPerson(t, accountId, {
      email: `ada-${dialect}@example.com`,
      name: 'Ada Approver',
      role: 'approver',
    });
    bea = await addPerson(t, accountId, {
      email: `bea-${dialect}@example.com`,
      name: 'Bea Approver',
      role: 'approver',
    });
    const set = await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', {
      bankAccountId: '',
      threshold: '1,000',
      approvers: '2',
    });
    expect(set.status).toBe(303);
  });
  afterAll(async () => {
    await t?.close();
  });

  const write = async (amount: string): Promise<{ id: string; serial: string }> => {
    const made = await api.post('/checks', { checks: [{ ...basics, amount }] });
    expect(made.status, made.raw).toBe(201);
    return { id: made.body.data.checks[0].checkId, serial: made.body.data.checks[0].serialNumber };
  };
  const approval = async (id: string) => (await api.get(`/checks/${id}`)).body.data.approval;
  const print = (...ids: string[]) => api.post('/checks/print', { checkIds: ids });
  const version = async (id: string): Promise<number> =>
    Number(
      (
        await t.database.db.get<{ version: number }>('SELECT version FROM check_approval_rules WHERE check_id = ?', [
          id,
        ])
      )?.version ?? 0,
    );
  const decide = async (person: TestPerson, what: 'approve' | 'reject', ids: string[], reason = '') => {
    const checks = await Promise.all(ids.map(async (id) => `${id}:${await version(id)}`));
    return person.visitor.submit('/panel/approvals', `/panel/approvals/${what}`, { checks, reason });
  };

  it('prints a $999.99 check at once; holds a $1,000.00 check, listed by ?approval=pending', async () => {
    const small = await write('999.99');
    expect(await approval(small.id)).toEqual({
      status: 'not_required',
      required: 0,
      approvals: [],
      rejectedBy: null,
      rejectedAt: null,
      reason: null,
    });
    expect((await print(small.id)).status).toBe(200);

    const big = await write('1000.00');
    expect(await approval(big.id)).toMatchObject({ status: 'pending', required: 2, approvals: [] });
    expect((await api.get(`/checks/${big.id}`)).body.data.status).toBe(0);
    // The panel: on the check, in the list, and by the list's filter.
    expect((await owner.get(`/panel/checks/${big.id}`)).body).toContain('waiting for approval (0 of 2)');
    const waiting = await owner.get('/panel/checks?approval=pending');
    expect(waiting.body).toContain(`>${big.serial}</a>`);
    expect(waiting.body).toContain('waiting for approval (0 of 2)');
    expect(waiting.body).not.toContain(`>${small.serial}</a>`);
    const pending = await api.get('/checks?approval=pending');
    expect(pending.status).toBe(200);
    expect(pending.body.data.checks.map((c: { checkId: string }) => c.checkId)).toEqual([big.id]);
    expect(pending.body.data.checks[0].approval.status).toBe('pending');
    const listed = await api.get('/checks');
    expect(listed.body.data.checks.find((c: { checkId: string }) => c.checkId === small.id).approval.status).toBe(
      'not_required',
    );
  });

  it('refuses a waiting check on every channel, a batch whole, naming the check and what it lacks', async () => {
    const small = await write('10.00');
    const big = await write('1000.00');
    const words = `Check ${big.serial} is waiting for approval (0 of 2 approvals).`;
    const refused = await print(small.id, big.id);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ success: false, errorMsg: words });
    // The whole batch: the check that could print did not.
    expect((await api.get(`/checks/${small.id}`)).body.data.status).toBe(0);
    const emailed = await api.post('/emailchecks', { emailChecks: [{ checkId: big.id }] });
    expect([emailed.status, emailed.body.errorMsg]).toEqual([422, words]);
    const mailed = await api.post('/mailchecks', { mailChecks: [{ checkId: big.id, shippingTypeId: 1 }] });
    expect([mailed.status, mailed.body.errorMsg]).toEqual([422, words]);
    // The panel's print refuses it too.
    const panelPrint = await owner.submit('/panel/checks', '/panel/checks/print', {
      checkIds: [big.id],
      stock: 'blank',
      layout: 'top',
    });
    expect(panelPrint.status).toBe(422);
    expect(panelPrint.body).toContain('is waiting for approval (0 of 2 approvals)');
    expect((await api.get(`/checks/${big.id}`)).body.data.status).toBe(0);
  });

  const quickpayMail = async (amount: string): Promise<{ id: string; serial: string; mailingId: string }> => {
    const quick = await api.post('/quickpay/mailcheck', {
      source: { accountType: 'bankaccount', accountId: basics.bankAccountId },
      destination: {
        name: 'Big Vendor',
        address1: '2 Main St',
        city: 'Springfield',
        state: 'IL',
        zip: '62701',
        shippingTypeId: '1',
      },
      payment_details: { amount },
    });
    expect(quick.status, quick.raw).toBe(201);
    const id: string = quick.body.data.checkId;
    return {
      id,
      serial: (await api.get(`/checks/${id}`)).body.data.serialNumber,
      mailingId: quick.body.data.mailingId,
    };
  };
  const mailingStatus = async (mailingId: string): Promise<string | undefined> =>
    (await t.database.db.get<{ status: string }>('SELECT status FROM mailings WHERE id = ?', [mailingId]))?.status;
  const operatorSees = async (mailingId: string): Promise<boolean> =>
    (await operatorQueue(t.database.db, 'queued')).some((m) => m.id === mailingId);

  it("quickpay mail of a held check writes it; its mailing waits, out of the operator's reach, until approved", async () => {
    const held = await quickpayMail('5000.00');
    expect(await approval(held.id)).toMatchObject({ status: 'pending', required: 2 });
    expect((await api.get(`/checks/${held.id}`)).body.data.status).toBe(0);
    expect(await operatorSees(held.mailingId)).toBe(false);
    const words = `Check ${held.serial} is waiting for approval (0 of 2 approvals).`;
    await expect(operatorSettle(t.database.db, held.mailingId, 'dispatched')).rejects.toThrow(words);
    expect(await mailingStatus(held.mailingId)).toBe('queued');
    // Still waiting after one approval of two.
    expect((await decide(ada, 'approve', [held.id])).status).toBe(303);
    expect(await operatorSees(held.mailingId)).toBe(false);
    await expect(operatorSettle(t.database.db, held.mailingId, 'dispatched')).rejects.toThrow('(1 of 2 approvals)');
    expect((await decide(bea, 'approve', [held.id])).status).toBe(303);
    expect(await operatorSees(held.mailingId)).toBe(true);
    expect((await operatorSettle(t.database.db, held.mailingId, 'dispatched')).status).toBe('dispatched');
    expect((await api.get(`/checks/${held.id}`)).body.data.checkStatus.description).toBe('Mailed');
    // A check under the threshold goes to the operator at once, as before.
    const small = await quickpayMail('50.00');
    expect(await operatorSees(small.mailingId)).toBe(true);
  });

  it('a waiting mailing is cancelled when its check is rejected, voided or deleted', async () => {
    const rejected = await quickpayMail('6000.00');
    expect((await decide(ada, 'reject', [rejected.id], 'Not this vendor')).status).toBe(303);
    expect(await mailingStatus(rejected.mailingId)).toBe('cancelled');
    await expect(operatorSettle(t.database.db, rejected.mailingId, 'dispatched')).rejects.toThrow();
    expect((await api.get(`/checks/${rejected.id}`)).body.data.status).toBe(0);
    expect((await api.post(`/checks/${rejected.id}/void`)).status).toBe(200);

    const voided = await quickpayMail('6100.00');
    expect((await api.post(`/checks/${voided.id}/void`)).status).toBe(200);
    expect(await mailingStatus(voided.mailingId)).toBe('cancelled');

    const deleted = await quickpayMail('6200.00');
    const gone = await api.delete(`/checks/${deleted.id}`);
    expect(gone.status, gone.raw).toBe(200);
    expect(await mailingStatus(deleted.mailingId)).toBeUndefined();
    // A mailing that does not wait for an approval still belongs to the operator: cancel it first.
    const small = await quickpayMail('60.00');
    expect((await api.delete(`/checks/${small.id}`)).status).toBe(422);
    expect(await mailingStatus(small.mailingId)).toBe('queued');
  });

  it('shows the queue in the menu of those who may approve, with how many wait; Settings links to the policy', async () => {
    await write('1234.00');
    const waiting = (await api.get('/checks?approval=pending')).body.data.meta.total;
    expect(waiting).toBeGreaterThan(0);
    const home = (await ada.visitor.get('/panel')).body;
    expect(home).toContain(`<a href="/panel/approvals">Approvals (${waiting})</a>`);
    const queue = (await ada.visitor.get('/panel/approvals')).body;
    expect(queue).toContain(`<a href="/panel/approvals" aria-current="page">Approvals (${waiting})</a>`);
    // The live data of the company has none waiting: the count follows the environment shown.
    expect((await ada.visitor.get('/panel?env=live')).body).toContain(
      '<a href="/panel/approvals?env=live">Approvals</a>',
    );
    const clerk = await addPerson(t, accountId, {
      email: `menu-clerk-${dialect}@example.com`,
      name: 'Mo Clerk',
      role: 'accountant',
    });
    const clerkHome = await clerk.visitor.get('/panel');
    expect(clerkHome.status).toBe(200);
    expect(clerkHome.body).not.toContain('href="/panel/approvals');
    expect((await owner.get('/panel/settings')).body).toContain(
      '<a href="/panel/settings/approvals">Approval policy</a>',
    );
  });

  it("the payee's link of a held check answers the refusal, not the PDF, until it is approved", async () => {
    const big = await write('2200.00');
    // No API call emails a held check, so the link is made as the email service makes one.
    const token = `held-link-${dialect}-0123456789abcdef`;
    await insertLinks(t.database.db, { accountId, env: 'test' }, [
      { tokenHash: tokenHash(token), checkId: big.id, expiresAt: Date.now() + 86_400_000, createdAt: Date.now() },
    ]);
    const refused = await t.app.inject({ method: 'POST', url: `/c/${token}/pdf` });
    expect(refused.statusCode).toBe(422);
    expect(refused.headers['content-type']).not.toContain('application/pdf');
    expect(refused.json()).toEqual({
      success: false,
      errorMsg: `Check ${big.serial} is waiting for approval (0 of 2 approvals).`,
    });
    expect((await api.get(`/checks/${big.id}`)).body.data.status).toBe(0);
    await decide(ada, 'approve', [big.id]);
    await decide(bea, 'approve', [big.id]);
    const released = await t.app.inject({ method: 'POST', url: `/c/${token}/pdf` });
    expect(released.statusCode).toBe(200);
    expect(released.headers['content-type']).toContain('application/pdf');
  });

  it("stamps a waiting check's PDF NOT APPROVED — NOT NEGOTIABLE, without a MICR line", async () => {
    const big = await write('2500.00');
    const pdf = await t.app.inject({
      method: 'GET',
      url: `/api/v3/checks/${big.id}/pdf`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    expect(pdf.statusCode).toBe(200);
    const [held] = await parsePdf(pdf.rawPayload);
    if (held === undefined) throw new Error('no page');
    expect(pageText(held)).toContain('NOT APPROVED — NOT NEGOTIABLE');
    expect(clearBandFills(held, 0)).toEqual([]);
    const small = await write('25.00');
    const plain = await t.app.inject({
      method: 'GET',
      url: `/api/v3/checks/${small.id}/pdf`,
      headers: { authorization: `Bearer ${api.key}` },
    });
    const [page] = await parsePdf(plain.rawPayload);
    if (page === undefined) throw new Error('no page');
    expect(pageText(page)).not.toContain('NOT APPROVED');
    expect(clearBandFills(page, 0).length).toBeGreaterThan(20);
  });

  it('needs two approvals from two people; the API has no way to approve; then it prints', async () => {
    const big = await write('1000.00');
    expect((await api.post(`/checks/${big.id}/approve`)).status).toBe(404);
    expect((await decide(ada, 'approve', [big.id])).status).toBe(303);
    expect(await approval(big.id)).toMatchObject({
      status: 'pending',
      approvals: [{ by: 'Ada Approver' }],
    });
    const once = await print(big.id);
    expect(once.body.errorMsg).toBe(`Check ${big.serial} is waiting for approval (1 of 2 approvals).`);
    // Ada again does not count twice.
    const again = await decide(ada, 'approve', [big.id]);
    expect(again.status).toBe(422);
    expect(again.body).toContain('You have already approved check');
    expect((await decide(bea, 'approve', [big.id])).status).toBe(303);
    expect(await approval(big.id)).toMatchObject({
      status: 'approved',
      approvals: [{ by: 'Ada Approver' }, { by: 'Bea Approver' }],
    });
    expect((await print(big.id)).status).toBe(200);
    // The audit trail names each step and who did it.
    const trail = await t.database.db.all<{ action: string; actor_label: string }>(
      'SELECT action, actor_label FROM audit_events WHERE object_id = ? ORDER BY seq',
      [big.id],
    );
    expect(trail.map((r) => `${r.action} ${r.actor_label}`)).toEqual([
      'check.create API key ‹payables›',
      'check.approve Ada Approver',
      'check.approve Bea Approver',
      'check.print API key ‹payables›',
    ]);
  });

  it("refuses the check's writer approving it, in the panel's words (403)", async () => {
    const [made] = await writeService.createChecks(t.serviceContext(), ada.principal, [
      { ...basics, amount: '4000.00' },
    ]);
    if (made === undefined) throw new Error('no check');
    const refused = await decide(ada, 'approve', [made.checkId]);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`You wrote check ${made.serialNumber}, so you can&#39;t approve or reject it`);
    expect(await approval(made.checkId)).toMatchObject({ status: 'pending', approvals: [] });
    // The owner made the API key that wrote a check: theirs too, so they cannot approve it.
    const byKey = await write('4500.00');
    const own = await owner.submit('/panel/approvals', '/panel/approvals/approve', {
      checks: [`${byKey.id}:${await version(byKey.id)}`],
    });
    expect(own.status).toBe(403);
    expect(own.body).toContain(`You wrote check ${byKey.serial}`);
    // An accountant (who cannot approve) is refused by role.
    const clerk = await addPerson(t, accountId, {
      email: `clerk-${dialect}@example.com`,
      name: 'Cal Clerk',
      role: 'accountant',
    });
    expect((await clerk.visitor.get('/panel/approvals')).status).toBe(403);
  });

  it('an edit of the amount sends an approved check back to pending, approvals cleared', async () => {
    const big = await write('1500.00');
    await decide(ada, 'approve', [big.id]);
    await decide(bea, 'approve', [big.id]);
    expect((await approval(big.id)).status).toBe('approved');
    expect((await api.put(`/checks/${big.id}`, { memo: 'only the memo' })).status).toBe(200);
    expect((await approval(big.id)).status).toBe('approved');
    expect((await api.put(`/checks/${big.id}`, { amount: '1600.00' })).status).toBe(200);
    expect(await approval(big.id)).toMatchObject({ status: 'pending', approvals: [] });
    expect((await print(big.id)).status).toBe(422);
    // A small check raised above the threshold is held from then on.
    const small = await write('20.00');
    expect((await api.put(`/checks/${small.id}`, { amount: '20000.00' })).status).toBe(200);
    expect(await approval(small.id)).toMatchObject({ status: 'pending', required: 2 });
  });

  it('void stays allowed while pending', async () => {
    const big = await write('3000.00');
    const voided = await api.post(`/checks/${big.id}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body.data.status).toBe(5);
    expect(
      (await api.get('/checks?approval=pending')).body.data.checks.map((c: { checkId: string }) => c.checkId),
    ).not.toContain(big.id);
  });

  it('a rejected check carries the reason and can only be voided or deleted', async () => {
    const big = await write('7000.00');
    expect((await decide(ada, 'reject', [big.id], '')).status).toBe(422);
    expect((await decide(ada, 'reject', [big.id], 'Duplicate of the March invoice')).status).toBe(303);
    expect(await approval(big.id)).toMatchObject({
      status: 'rejected',
      rejectedBy: 'Ada Approver',
      reason: 'Duplicate of the March invoice',
    });
    const refused = await print(big.id);
    expect(refused.body.errorMsg).toBe(`Check ${big.serial} was rejected: Duplicate of the March invoice.`);
    // The writer's side of the panel shows the reason on the check and in the list.
    expect((await owner.get(`/panel/checks/${big.id}`)).body).toContain(
      'rejected by Ada Approver: Duplicate of the March invoice',
    );
    expect((await owner.get('/panel/checks?approval=rejected')).body).toContain(
      'rejected by Ada Approver: Duplicate of the March invoice',
    );
    const edit = await api.put(`/checks/${big.id}`, { amount: '10.00' });
    expect(edit.status).toBe(422);
    expect((await decide(bea, 'approve', [big.id])).status).toBe(422);
    expect((await api.delete(`/checks/${big.id}`)).status).toBe(200);
  });

  it('imported checks pass the same gate; positive pay lists only issued checks, never a waiting one', async () => {
    const csv =
      'Date,Num,Name,Memo,Account,Amount\n11/20/2026,,Acme Supplies,Big,,"2,000.00"\n11/20/2026,,Acme Supplies,Small,,$12.00\n';
    const started = await api.post('/imports', {
      type: 'checks',
      csv,
      bankAccountId: basics.bankAccountId,
      mapping: { Account: '' },
    });
    expect(started.status, started.raw).toBe(202);
    const done = await eventually(
      () => api.get(`/imports/${started.body.data.importId}`),
      (r) => r.body.data.state === 'succeeded' || r.body.data.state === 'failed',
    );
    expect(done.body.data.state, done.raw).toBe('succeeded');
    const [big, small] = done.body.data.created.checkIds as string[];
    expect((await approval(big ?? '')).status).toBe('pending');
    expect((await approval(small ?? '')).status).toBe('not_required');
    expect((await print(small ?? '')).status).toBe(200);
    const made = await api.post('/positive-pay-exports', {
      bankAccountId: basics.bankAccountId,
      from: '2026-01-01',
      to: '2026-12-31',
      format: 'csv',
    });
    expect(made.status, made.raw).toBe(201);
    const bigSerial = (await api.get(`/checks/${big}`)).body.data.serialNumber;
    const smallSerial = (await api.get(`/checks/${small}`)).body.data.serialNumber;
    const rows = (made.body.data.file.content as string).split('\r\n').map((line) => line.split(','));
    expect(rows.some((cells) => cells.includes(smallSerial))).toBe(true);
    expect(rows.some((cells) => cells.includes(bigSerial))).toBe(false);
  });

  it('an import is written as whoever started it: its checks are theirs, so they may not approve them', async () => {
    const importAs = async (who: Client | Principal, memo: string): Promise<{ id: string; serial: string }> => {
      const csv = `Date,Num,Name,Memo,Account,Amount\n11/21/2026,,Acme Supplies,${memo},,"3,000.00"\n`;
      const options = { csv, bankAccountId: basics.bankAccountId, mapping: { Account: '' } };
      const importId =
        'accountId' in who
          ? (await startImport(t.serviceContext(), who, { ...options, kind: 'checks' })).id
          : (await who.post('/imports', { ...options, type: 'checks' })).body.data.importId;
      const done = await eventually(
        () => api.get(`/imports/${importId}`),
        (r) => r.body.data.state === 'succeeded' || r.body.data.state === 'failed',
      );
      expect(done.body.data.state, done.raw).toBe('succeeded');
      const id: string = done.body.data.created.checkIds[0];
      return { id, serial: (await api.get(`/checks/${id}`)).body.data.serialNumber };
    };
    // An accountant who also approves imports a check (the panel and the API both start imports so).
    const cal = await addPerson(t, accountId, {
      email: `cal-importer-${dialect}@example.com`,
      name: 'Cal Importer',
      role: 'accountant',
      approves: true,
    });
    const imported = await importAs(cal.principal, 'Imported by Cal');
    expect(await approval(imported.id)).toMatchObject({ status: 'pending', approvals: [] });
    const refused = await decide(cal, 'approve', [imported.id]);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain(`You wrote check ${imported.serial}, so you can&#39;t approve or reject it`);
    expect(await approval(imported.id)).toMatchObject({ status: 'pending', approvals: [] });
    // The queue and the audit trail name Cal as the check's writer, not the import's runner.
    expect((await owner.get('/panel/approvals')).body).toMatch(
      new RegExp(`>${imported.serial}</a>.*?<td>Cal Importer</td>`, 's'),
    );
    const trail = (await owner.get(`/panel/audit?objectId=${imported.id}`)).body;
    expect(trail).toContain('check.create');
    expect(trail).toContain('Cal Importer');
    expect(trail).not.toContain('system (import)');

    // Imported over the API with the owner's key: the owner made the key, so the check is theirs.
    const byKey = await importAs(api, 'Imported by key');
    const own = await owner.submit('/panel/approvals', '/panel/approvals/approve', {
      checks: [`${byKey.id}:${await version(byKey.id)}`],
    });
    expect(own.status).toBe(403);
    expect(own.body).toContain(`You wrote check ${byKey.serial}`);
    // Another approver may.
    expect((await decide(ada, 'approve', [imported.id, byKey.id])).status).toBe(303);
    expect(await approval(byKey.id)).toMatchObject({ approvals: [{ by: 'Ada Approver' }] });
  });

  it('a policy form without its approvals count or bank account is refused and the rule stays (not read as 0 or every account)', async () => {
    for (const approvers of [undefined, '', '1.0', ' 2']) {
      const form: Record<string, string> = { bankAccountId: '', threshold: '5000' };
      if (approvers !== undefined) form.approvers = approvers;
      const refused = await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', form);
      expect(refused.status).toBe(422);
      expect(refused.body).toContain('Choose how many approvals the rule needs: 1, 2, or none to remove it.');
    }
    // Nor without its bank account: not read as '' (every bank account), which removed the company's rule.
    const unnamed = await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', {
      threshold: '5000',
      approvers: '0',
    });
    expect(unnamed.status).toBe(422);
    expect(unnamed.body).toContain('Choose the bank account the rule is for.');
    // The company's rule is still 2 approvals from $1,000.
    expect(await approval((await write('1200.00')).id)).toMatchObject({ status: 'pending', required: 2 });
  });

  it('a policy change applies to checks written after it', async () => {
    const waiting = await write('1200.00');
    await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', {
      bankAccountId: '',
      threshold: '5000',
      approvers: '1',
    });
    expect(await approval(waiting.id)).toMatchObject({ status: 'pending', required: 2 });
    expect((await approval((await write('1200.00')).id)).status).toBe('not_required');
    expect(await approval((await write('5000.00')).id)).toMatchObject({ status: 'pending', required: 1 });
    // Back to the rule the other tests expect, whatever order they run in.
    await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', {
      bankAccountId: '',
      threshold: '1000',
      approvers: '2',
    });
  });
});
