// Who hears about approvals, on both databases, through the real delivery worker: each approver
// gets one email per batch of waiting checks (never one per check, never the writer), in the
// sandbox inbox for test data and over SMTP for live data; the writer hears when checks are
// approved or rejected.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SmtpMailer } from '../../src/delivery/mailer.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';
import * as decisions from '../../src/services/approvals/decisions.service.ts';
import * as approvals from '../../src/services/approvals/approvals.service.ts';
import * as policies from '../../src/services/approvals/policy.service.ts';
import * as writeService from '../../src/services/checks/write.service.ts';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { addPerson, personPrincipal, type TestPerson } from '../support/people.ts';

describe.each(dialects())('approval emails (%s)', { timeout: 90_000 }, (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let smsPeer: SmsPeer;
  let mailer: SmtpMailer;
  let worker: DeliveryWorker;
  let test: Client;
  let live: Client;
  let ids: { bankAccountId: string; payeeId: string };
  let liveIds: { bankAccountId: string; payeeId: string };
  let ada: TestPerson;
  let cal: TestPerson;
  let accountId: string;
  const email = `news-${dialect}@example.com`;

  type Message = { to: string; subject: string; text: string };
  const inbox = async (): Promise<Message[]> =>
    (await test.get('/sandbox/messages?perPage=500')).body.data.messages as Message[];
  const drainUntil = async (done: () => Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 200; i += 1) {
      await worker.drain();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('deliveries did not settle');
  };

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    smsPeer = await startSmsPeer();
    t = await startTestApp(dialect, { ...peerEnv(smtp, smsPeer), PUBLIC_URL: 'https://checks.example' });
    mailer = new SmtpMailer(smtp.url);
    worker = new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
      secret: t.keys.secret,
      mailer,
      sms: null,
      log: pino({ level: 'silent' }),
    });
    test = await t.client(email);
    live = await t.client(email, { env: 'live' });
    ids = await seedBasics(test);
    liveIds = await seedBasics(live);
    accountId = (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
    ada = await addPerson(t, accountId, { email: `ada-news-${dialect}@example.com`, name: 'Ada', role: 'approver' });
    cal = await addPerson(t, accountId, { email: `cal-news-${dialect}@example.com`, name: 'Cal', role: 'accountant' });
    await policies.setPolicy(t.serviceContext(), await t.principal(email), { thresholdCents: 100_000, approvers: 1 });
  });
  afterAll(async () => {
    mailer?.close();
    await t?.close();
    await smtp?.close();
    await smsPeer?.close();
  });

  it('one email per approver for a batch of waiting checks, in the sandbox inbox; none for the writer', async () => {
    const before = (await inbox()).length;
    const mails = smtp.received.length;
    const made = await writeService.createChecks(t.serviceContext(), cal.principal, [
      { ...ids, amount: '1000.00' },
      { ...ids, amount: '2000.00' },
      { ...ids, amount: '3000.00' },
      { ...ids, amount: '10.00' },
    ]);
    // The owner and Ada approve; Cal wrote them and cannot.
    await drainUntil(async () => (await inbox()).length >= before + 2);
    const news = (await inbox()).slice(0, (await inbox()).length - before);
    expect(news.map((m) => m.to).sort()).toEqual([`ada-news-${dialect}@example.com`, email].sort());
    for (const m of news) {
      expect(m.subject).toMatch(/^3 checks of .+ wait for your approval$/);
      for (const c of made.slice(0, 3)) expect(m.text).toContain(`Check ${c.serialNumber} to Acme Supplies`);
      expect(m.text).not.toContain(`Check ${made[3]?.serialNumber} `);
      expect(m.text).toContain('https://checks.example/panel/approvals');
    }
    expect(smtp.received.length).toBe(mails);

    // Ada approves two: Cal hears once, listing both.
    const views = await approvals.approvalViews(t.database.db, ada.principal, [
      made[0]?.checkId ?? '',
      made[1]?.checkId ?? '',
    ]);
    await decisions.approveChecks(
      t.serviceContext(),
      ada.principal,
      [...views].map(([checkId, v]) => ({ checkId, version: v.version })),
    );
    const third = made[2]?.checkId ?? '';
    const v3 = (await approvals.approvalViews(t.database.db, ada.principal, [third])).get(third)?.version ?? 0;
    await decisions.rejectChecks(t.serviceContext(), ada.principal, [{ checkId: third, version: v3 }], 'Wrong vendor');
    await drainUntil(async () => (await inbox()).filter((m) => m.to === cal.email).length >= 2);
    const toCal = (await inbox()).filter((m) => m.to === cal.email);
    expect(toCal.map((m) => m.subject).sort()).toEqual(
      [expect.stringMatching(/^1 check of .+ rejected$/), expect.stringMatching(/^2 checks of .+ approved$/)].sort(),
    );
    expect(toCal.find((m) => m.subject.includes('rejected'))?.text).toContain('Reason: Wrong vendor');
  });

  it('live data: the approvers get their email over SMTP', async () => {
    const mails = smtp.received.length;
    const livePrincipal = {
      ...personPrincipal(accountId, { id: cal.id, email: cal.email, name: 'Cal', role: 'accountant' }),
      env: 'live' as const,
    };
    await writeService.createChecks(t.serviceContext(), livePrincipal, [{ ...liveIds, amount: '5000.00' }]);
    await drainUntil(async () => smtp.received.length >= mails + 2);
    const raw = smtp.received.slice(mails).map((m) => m.raw);
    expect(raw.some((r) => r.includes(`ada-news-${dialect}@example.com`))).toBe(true);
    expect(raw.every((r) => r.includes('1 check of') && r.includes('waits for your approval'))).toBe(true);
  });
});
