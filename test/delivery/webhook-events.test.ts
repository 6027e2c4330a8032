// The webhooks' promise, event by event: every event type reaches an endpoint that listens to all of
// them, an endpoint's events filter is honoured, each endpoint signs with its own secret, and an
// endpoint deleted while an event waits for it receives nothing more.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { testWorker } from '../support/worker.ts';
import { EVENT_TYPES } from '../../src/domain/event-types.ts';
import { approveChecks, rejectChecks } from '../../src/services/approvals/decisions.service.ts';
import { setPolicy } from '../../src/services/approvals/policy.service.ts';
import { addPerson } from '../support/people.ts';
import { operatorSettle } from '../../src/services/mailing.service.ts';
import { payeeLinkToken } from '../support/links.ts';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';

interface Posted {
  body: string;
  headers: IncomingHttpHeaders;
  event: { id: string; type: string; data: Record<string, unknown>; createdAt: string };
}

/** A receiver that keeps every POST as it came (raw body and headers) and accepts it. */
async function startRecorder() {
  const posts: Posted[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      posts.push({ body, headers: request.headers, event: (JSON.parse(body) as { event: Posted['event'] }).event });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    posts,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const hmac = (secret: string, text: string): string => createHmac('sha256', secret).update(text).digest('hex');

/** Whether both signatures of a POST verify with `secret` (and the stamped one is fresh). */
function signedWith(post: Posted, secret: string): boolean {
  const stamped = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(post.headers['checkwriter-signature']));
  return (
    post.headers.signature === hmac(secret, post.body) &&
    stamped !== null &&
    stamped[2] === hmac(secret, `${stamped[1]}.${post.body}`) &&
    Math.abs(Date.now() / 1000 - Number(stamped[1])) < 300
  );
}

const sorted = (values: Iterable<string>): string[] => [...values].sort();

describe.each(dialects())('webhook events, filters and secrets (%s)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let smsPeer: SmsPeer;
  let closeWorker: () => void;
  let worker: DeliveryWorker;
  let live: Client;
  let ids: { bankAccountId: string; payeeId: string };
  let all: Awaited<ReturnType<typeof startRecorder>>;
  let filtered: Awaited<ReturnType<typeof startRecorder>>;
  let removed: Awaited<ReturnType<typeof startRecorder>>;

  const drainUntil = async (done: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 300; i += 1) {
      await worker.drain();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('deliveries did not settle');
  };
  const newCheck = async (client: Client, bank: { bankAccountId: string; payeeId: string }): Promise<string> => {
    const created = await client.post('/checks', { checks: [{ ...bank, amount: 42 }] });
    expect(created.status).toBe(201);
    return created.body.data.checks[0].checkId as string;
  };
  const checkDeliveries = async (
    checkId: string,
  ): Promise<{ deliveryId: string; channel: string; status: string; lastError: string | null }[]> =>
    (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    smsPeer = await startSmsPeer();
    all = await startRecorder();
    filtered = await startRecorder();
    removed = await startRecorder();
    t = await startTestApp(dialect, {
      ...peerEnv(smtp, smsPeer),
      MAIL_FROM: 'Checks <checks@sender.test>',
      PUBLIC_URL: 'https://checks.example',
      DELIVERY_RETRY_BASE_MS: '2',
      DELIVERY_MAX_ATTEMPTS: '2',
      // The receivers listen on loopback; live endpoints may point there only when allowed.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    ({ worker, close: closeWorker } = testWorker(t));
    live = await t.client('events@example.com', { env: 'live' });
    ids = await seedBasics(live, { address1: '1 Main Street', city: 'Springfield', state: 'IL', zip: '62701' });
  });
  afterAll(async () => {
    closeWorker();
    await t.close();
    await smtp.close();
    await smsPeer.close();
    await all.close();
    await filtered.close();
    await removed.close();
  });

  // The approval events need a policy and people who approve: the last test below sends them.
  const APPROVAL_EVENTS = ['check.approval_required', 'check.approved', 'check.rejected'];
  const WITHOUT_POLICY = EVENT_TYPES.filter((type) => !APPROVAL_EVENTS.includes(type));

  it('every event type without a policy reaches the default endpoint; a filtered endpoint gets only its types; each signs with its own secret', async () => {
    const first = await live.post('/webhooks', { url: all.url });
    expect(first.status).toBe(201);
    expect(sorted(first.body.data.events)).toEqual(sorted(EVENT_TYPES));
    const second = await live.post('/webhooks', {
      url: filtered.url,
      events: ['check.refunded', 'delivery.sms.failed'],
    });
    expect(second.status).toBe(201);
    expect(sorted(second.body.data.events)).toEqual(['check.refunded', 'delivery.sms.failed']);
    const allSecret: string = first.body.data.secret;
    const filteredSecret: string = second.body.data.secret;
    expect(allSecret).toMatch(/^whsec_/);
    expect(filteredSecret).toMatch(/^whsec_/);
    expect(filteredSecret).not.toBe(allSecret);

    // created, printed, voided
    const voided = await newCheck(live, ids);
    const printed = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${live.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [voided] }),
    });
    expect(printed.statusCode).toBe(200);
    expect((await live.post(`/checks/${voided}/void`)).status).toBe(200);

    // created, emailed, delivery.email.sent, delivery.sms.sent, then eprinted by the payee's download
    const emailed = await newCheck(live, ids);
    expect(
      (await live.post('/emailchecks', { emailChecks: [{ checkId: emailed, enableSmsInform: true }] })).status,
    ).toBe(200);
    await drainUntil(async () => (await checkDeliveries(emailed)).every((d) => d.status === 'sent'));
    const emailDelivery = (await checkDeliveries(emailed)).find((d) => d.channel === 'email');
    expect(emailDelivery).toBeDefined();
    const download = await t.app.inject({
      method: 'POST',
      url: `/c/${await payeeLinkToken(t, emailDelivery?.deliveryId ?? '', smtp.received)}/pdf`,
    });
    expect(download.statusCode).toBe(200);
    expect((await live.get(`/checks/${emailed}`)).body.data.checkStatus).toEqual({
      status: 4,
      description: 'E-Printed',
    });

    // created, mailed (the operator dispatches the mailing)
    const mailed = await newCheck(live, ids);
    const mailing = await live.post('/mailchecks', { mailChecks: [{ checkId: mailed, shippingTypeId: 1 }] });
    expect(mailing.status).toBe(200);
    await operatorSettle(t.database.db, mailing.body.data.mailings[0].mailingId, 'dispatched');
    expect((await live.get(`/checks/${mailed}`)).body.data.checkStatus).toEqual({ status: 2, description: 'Mailed' });
    // cleared by hand, un-cleared (a mistake), cleared again from the bank's file (docs/reconciliation.md)
    expect((await live.post(`/checks/${mailed}/clear`, {})).status).toBe(200);
    expect((await live.post(`/checks/${mailed}/unclear`)).status).toBe(200);
    const serial = (await live.get(`/checks/${mailed}`)).body.data.serialNumber;
    const file = await t.app.inject({
      method: 'POST',
      url: `${BASE}/bankAccounts/${ids.bankAccountId}/clearedItems`,
      headers: { authorization: `Bearer ${live.key}`, 'content-type': 'text/csv' },
      payload: `Check Number,Amount\n${serial},42.00\n`,
    });
    expect(JSON.parse(file.body).data.cleared.count).toBe(1);

    // created, refunded (the customer cancels the mailing before dispatch)
    const refunded = await newCheck(live, ids);
    const queued = await live.post('/mailchecks', { mailChecks: [{ checkId: refunded, shippingTypeId: 1 }] });
    expect(queued.status).toBe(200);
    expect((await live.post(`/mailchecks/${queued.body.data.mailings[0].mailingId}/cancel`)).status).toBe(200);
    expect((await live.get(`/checks/${refunded}`)).body.data.checkStatus).toEqual({
      status: 6,
      description: 'Refunded',
    });

    // created, emailed, delivery.email.failed (SMTP refuses every attempt), delivery.sms.failed (provider refuses the number)
    const failing = await newCheck(live, ids);
    smtp.failAlways(true);
    smsPeer.answer(400);
    try {
      expect(
        (await live.post('/emailchecks', { emailChecks: [{ checkId: failing, enableSmsInform: true }] })).status,
      ).toBe(200);
      await drainUntil(async () => (await checkDeliveries(failing)).every((d) => d.status === 'failed'));
    } finally {
      smtp.failAlways(false);
      smsPeer.answer(201);
    }

    const expectedAll = [
      ...['check.created', 'check.printed', 'check.voided'],
      ...['check.created', 'check.emailed', 'delivery.email.sent', 'delivery.sms.sent', 'check.eprinted'],
      ...['check.created', 'check.mailed', 'check.cleared', 'check.uncleared', 'check.cleared'],
      ...['check.created', 'check.refunded'],
      ...['check.created', 'check.emailed', 'delivery.email.failed', 'delivery.sms.failed'],
    ];
    await drainUntil(() => all.posts.length >= expectedAll.length && filtered.posts.length >= 2);
    // One more pass: anything still queued would show up as an extra POST.
    await worker.drain();

    // The endpoint subscribed to everything: exactly the event types there are, each event once.
    expect(new Set(all.posts.map((p) => p.event.type))).toEqual(new Set(WITHOUT_POLICY));
    expect(sorted(all.posts.map((p) => p.event.type))).toEqual(sorted(expectedAll));
    expect(new Set(all.posts.map((p) => p.event.id)).size).toBe(all.posts.length);
    for (const post of all.posts) {
      expect(signedWith(post, allSecret), `${post.event.type} signed with the first endpoint's secret`).toBe(true);
      expect(post.headers['checkwriter-event-id']).toBe(post.event.id);
    }
    const byType = (type: string) => all.posts.filter((p) => p.event.type === type).map((p) => p.event.data);
    expect(byType('check.voided')).toEqual([
      expect.objectContaining({ checkId: voided, status: 5, statusDescription: 'Void' }),
    ]);
    expect(byType('check.printed')).toEqual([
      expect.objectContaining({ checkId: voided, status: 1, statusDescription: 'Printed' }),
    ]);
    expect(byType('check.eprinted')).toEqual([
      expect.objectContaining({ checkId: emailed, status: 4, statusDescription: 'E-Printed' }),
    ]);
    expect(byType('check.mailed')).toEqual([
      expect.objectContaining({ checkId: mailed, status: 2, statusDescription: 'Mailed' }),
    ]);
    expect(byType('check.refunded')).toEqual([
      expect.objectContaining({ checkId: refunded, status: 6, statusDescription: 'Refunded' }),
    ]);
    expect(byType('delivery.email.sent')).toEqual([
      expect.objectContaining({
        checkId: emailed,
        channel: 'email',
        status: 'sent',
        recipient: 'ap@acme.test',
        error: null,
      }),
    ]);
    expect(byType('delivery.sms.sent')).toEqual([
      expect.objectContaining({
        checkId: emailed,
        channel: 'sms',
        status: 'sent',
        recipient: '+14155552671',
        error: null,
      }),
    ]);
    expect(byType('delivery.email.failed')).toEqual([
      expect.objectContaining({
        checkId: failing,
        channel: 'email',
        status: 'failed',
        attempts: 2,
        error: expect.stringMatching(/451/),
      }),
    ]);
    expect(byType('delivery.sms.failed')).toEqual([
      expect.objectContaining({ checkId: failing, channel: 'sms', status: 'failed', attempts: 1 }),
    ]);

    // The filtered endpoint: only its two types, the same events (same ids), signed with its own secret only.
    expect(sorted(filtered.posts.map((p) => p.event.type))).toEqual(['check.refunded', 'delivery.sms.failed']);
    const allIds = new Set(all.posts.map((p) => p.event.id));
    for (const post of filtered.posts) {
      expect(allIds.has(post.event.id)).toBe(true);
      expect(signedWith(post, filteredSecret), `${post.event.type} signed with the second endpoint's secret`).toBe(
        true,
      );
      expect(signedWith(post, allSecret), `${post.event.type} must not verify with the first endpoint's secret`).toBe(
        false,
      );
    }
    for (const post of all.posts) expect(signedWith(post, filteredSecret)).toBe(false);

    // Each endpoint's delivery log holds exactly its events, all delivered.
    const firstLog = (await live.get(`/webhooks/${first.body.data.webhookId}/deliveries`)).body.data.deliveries;
    const secondLog = (await live.get(`/webhooks/${second.body.data.webhookId}/deliveries`)).body.data.deliveries;
    expect(firstLog).toHaveLength(expectedAll.length);
    expect(sorted(secondLog.map((d: { eventType: string }) => d.eventType))).toEqual([
      'check.refunded',
      'delivery.sms.failed',
    ]);
    for (const d of [...firstLog, ...secondLog])
      expect(d).toMatchObject({ status: 'sent', attempts: 1, responseStatus: 204 });
  });

  it('a held check sends check.approval_required; an approval check.approved; a rejection check.rejected', async () => {
    const from = all.posts.length;
    const { accountId } = await t.principal('events@example.com', 'live');
    await setPolicy(
      t.serviceContext(),
      { ...(await t.principal('events@example.com', 'live')) },
      {
        thresholdCents: 0,
        approvers: 1,
      },
    );
    const approver = await addPerson(t, accountId, {
      email: 'approver@events.test',
      name: 'Ada Approver',
      role: 'approver',
    });
    const asApprover = { ...approver.principal, env: 'live' as const };
    const released = await newCheck(live, ids);
    const refused = await newCheck(live, ids);
    const version = async (id: string): Promise<number> =>
      Number(
        (
          await t.database.db.get<{ version: number }>('SELECT version FROM check_approval_rules WHERE check_id = ?', [
            id,
          ])
        )?.version ?? 0,
      );
    await approveChecks(t.serviceContext(), asApprover, [{ checkId: released, version: await version(released) }]);
    await rejectChecks(
      t.serviceContext(),
      asApprover,
      [{ checkId: refused, version: await version(refused) }],
      'Wrong vendor',
    );
    const types = (): string[] => all.posts.slice(from).map((p) => p.event.type);
    await drainUntil(() => types().filter((type) => APPROVAL_EVENTS.includes(type)).length >= 4);
    await worker.drain();
    const approvalPosts = all.posts.slice(from).filter((p) => APPROVAL_EVENTS.includes(p.event.type));
    expect(sorted(approvalPosts.map((p) => `${p.event.type} ${p.event.data.checkId}`))).toEqual(
      sorted([
        `check.approval_required ${released}`,
        `check.approval_required ${refused}`,
        `check.approved ${released}`,
        `check.rejected ${refused}`,
      ]),
    );
    // Every event type there is has now reached the endpoint subscribed to everything.
    expect(new Set(all.posts.map((p) => p.event.type))).toEqual(new Set(EVENT_TYPES));
  });

  it('an endpoint deleted while an event waits for it receives nothing; the delivery fails for good', async () => {
    // Its own account, so no other endpoint listens to what happens here.
    const other = await t.client('deleted-hook@example.com', { env: 'live' });
    const bank = await seedBasics(other);
    const created = await other.post('/webhooks', { url: removed.url });
    expect(created.status).toBe(201);
    const endpointId: string = created.body.data.webhookId;

    await newCheck(other, bank);
    const pending = await t.database.db.all<{ id: string; status: string }>(
      'SELECT id, status FROM deliveries WHERE endpoint_id = ?',
      [endpointId],
    );
    expect(pending).toEqual([{ id: expect.any(String), status: 'queued' }]);

    expect((await other.delete(`/webhooks/${endpointId}`)).status).toBe(200);
    // Nothing new is queued for it once deleted.
    await newCheck(other, bank);

    await drainUntil(async () => {
      const row = await t.database.db.get<{ status: string }>('SELECT status FROM deliveries WHERE endpoint_id = ?', [
        endpointId,
      ]);
      return row?.status !== 'queued' && row?.status !== 'sending';
    });
    // Later passes change nothing: the row is not retried.
    await new Promise((r) => setTimeout(r, 50));
    await worker.drain();

    expect(removed.posts).toEqual([]);
    const rows = await t.database.db.all<{
      status: string;
      attempts: number;
      last_error: string | null;
      sent_at: number | null;
    }>('SELECT status, attempts, last_error, sent_at FROM deliveries WHERE endpoint_id = ?', [endpointId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('failed');
    expect(Number(rows[0]?.attempts)).toBe(1);
    expect(rows[0]?.sent_at).toBeNull();
    expect(rows[0]?.last_error).toBe('webhook endpoint deleted');
  });
});
