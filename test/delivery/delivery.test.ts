import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { SmtpMailer } from '../../src/delivery/mailer.ts';
import { TwilioSms } from '../../src/delivery/sms.ts';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, BASE, type Client, type TestApp } from '../support/app.ts';
import { parseMail, peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { parsePdf } from '../render/support/pdf.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';
import { deliveryStatus } from '../../src/delivery-worker.ts';

describe.each(dialects())('email and SMS delivery (%s)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let smsPeer: SmsPeer;
  let worker: DeliveryWorker;
  let mailer: SmtpMailer;
  let live: Client;
  let test: Client;
  let liveIds: { bankAccountId: string; payeeId: string };
  let testIds: { bankAccountId: string; payeeId: string };

  /** Runs the worker until `done` holds (retries are due a few milliseconds later). */
  const drainUntil = async (done: () => boolean | Promise<boolean>): Promise<void> => {
    for (let i = 0; i < 200; i += 1) {
      await worker.drain();
      if (await done()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('deliveries did not settle');
  };
  const newCheck = async (
    client: Client,
    ids: { bankAccountId: string; payeeId: string },
    extra: Record<string, unknown> = {},
  ) =>
    (await client.post('/checks', { checks: [{ ...ids, amount: '1234.56', memo: 'Invoice 42', ...extra }] })).body.data
      .checks[0].checkId as string;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    smsPeer = await startSmsPeer();
    t = await startTestApp(dialect, {
      ...peerEnv(smtp, smsPeer),
      MAIL_FROM: 'Checks <checks@sender.test>',
      PUBLIC_URL: 'https://checks.example',
      DELIVERY_RETRY_BASE_MS: '2',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
    mailer = new SmtpMailer(smtp.url);
    worker = new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
      secret: t.keys.secret,
      mailer,
      sms: new TwilioSms(t.config.delivery.sms),
      log: pino({ level: 'silent' }),
    });
    live = await t.client('sender@example.com', { env: 'live' });
    test = await t.client('sender@example.com', { env: 'test' });
    liveIds = await seedBasics(live);
    testIds = await seedBasics(test);
  });
  afterAll(async () => {
    mailer.close();
    await t.close();
    await smtp.close();
    await smsPeer.close();
  });

  it('live: the payee gets an email over SMTP with the check details, a payee link and a stable Message-ID', async () => {
    const checkId = await newCheck(live, liveIds);
    const before = smtp.received.length;
    expect((await live.post('/emailchecks', { emailChecks: [{ checkId }] })).status).toBe(200);
    await drainUntil(() => smtp.received.length === before + 1);
    const mail = smtp.received.at(-1);
    expect(mail?.messageId).toMatch(/^<dlv_[0-9A-Z]+@checkwriter>$/);
    const parsed = await parseMail(mail?.raw ?? '');
    expect(parsed.subject).toBe('sender@example.com sent you a check for $1,234.56');
    expect(parsed.to?.[0]?.address).toBe('ap@acme.test');
    expect(parsed.from?.address).toBe('checks@sender.test');
    expect(parsed.text).toContain('Memo: Invoice 42');
    expect(parsed.html).toContain('<strong>$1,234.56</strong>');
    const link = /https:\/\/checks\.example\/c\/([A-Za-z0-9_-]+)/.exec(parsed.text ?? '');
    expect(link).not.toBeNull();
    const deliveries = (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries;
    expect(deliveries).toEqual([
      expect.objectContaining({
        channel: 'email',
        recipient: 'ap@acme.test',
        status: 'sent',
        attempts: 1,
        lastError: null,
      }),
    ]);

    // The payee page behind the link, and the download that makes it an e-printed check.
    const token = link?.[1] ?? '';
    const pageRes = await t.app.inject({ method: 'GET', url: `/c/${token}` });
    expect(pageRes.statusCode).toBe(200);
    expect(pageRes.body).toContain('$1,234.56');
    expect(pageRes.body).toContain('Acme Supplies');
    const pdf = await t.app.inject({ method: 'POST', url: `/c/${token}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(await parsePdf(pdf.rawPayload)).toHaveLength(1);
    const check = (await live.get(`/checks/${checkId}`)).body.data;
    expect(check.checkStatus).toEqual({ status: 4, description: 'E-Printed' });
    expect(check.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'emailed', 'eprinted']);
    expect((await t.app.inject({ method: 'GET', url: '/c/not-a-real-token' })).statusCode).toBe(404);
  });

  it('live: sendAttachment sends the check attachments; enableSmsInform sends an SMS through the provider API', async () => {
    const checkId = await newCheck(live, liveIds);
    const pdfBytes = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const boundary = 'cwboundary';
    const upload = await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/${checkId}/attachments`,
      headers: { authorization: `Bearer ${live.key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="invoice-42.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        pdfBytes,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    });
    expect(upload.statusCode).toBe(201);
    expect(JSON.parse(upload.body).data).toMatchObject({
      filename: 'invoice-42.pdf',
      contentType: 'application/pdf',
      size: pdfBytes.length,
    });
    expect((await live.get(`/checks/${checkId}/attachments`)).body.data.attachments).toHaveLength(1);

    const mails = smtp.received.length;
    const texts = smsPeer.received.length;
    expect(
      (await live.post('/emailchecks', { emailChecks: [{ checkId, sendAttachment: 1, enableSmsInform: true }] }))
        .status,
    ).toBe(200);
    await drainUntil(() => smtp.received.length === mails + 1 && smsPeer.received.length === texts + 1);
    const parsed = await parseMail(smtp.received.at(-1)?.raw ?? '');
    expect(parsed.attachments.map((a) => [a.filename, a.mimeType])).toEqual([['invoice-42.pdf', 'application/pdf']]);
    const sms = smsPeer.received.at(-1);
    expect(sms?.path).toBe('/2010-04-01/Accounts/AC123/Messages.json');
    expect(sms?.authorization).toBe(`Basic ${Buffer.from('AC123:secret-token').toString('base64')}`);
    expect(sms?.form.get('To')).toBe('+14155552671');
    expect(sms?.form.get('From')).toBe('+15005550006');
    expect(sms?.form.get('Body')).toMatch(
      /^sender@example\.com sent you a check for \$1,234\.56\. View and print it: https:\/\/checks\.example\/c\/[A-Za-z0-9_-]+$/,
    );
  });

  it('payee links stop working when they expire or the check is voided', async () => {
    const checkId = await newCheck(test, testIds);
    await test.post('/emailchecks', { emailChecks: [{ checkId }] });
    await drainUntil(async () =>
      (await test.get('/sandbox/messages?perPage=500')).body.data.messages.some(
        (m: { checkId: string }) => m.checkId === checkId,
      ),
    );
    const message = (await test.get('/sandbox/messages?perPage=500')).body.data.messages.find(
      (m: { checkId: string }) => m.checkId === checkId,
    );
    const path = new URL(message.link).pathname;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    expect((await test.post(`/checks/${checkId}/void`)).status).toBe(200);
    const cancelled = await t.app.inject({ method: 'GET', url: path });
    expect(cancelled.statusCode).toBe(410);
    expect(cancelled.body).toContain('Check cancelled');
    expect((await t.app.inject({ method: 'POST', url: `${path}/pdf` })).statusCode).toBe(410);

    const other = await newCheck(test, testIds);
    await test.post('/emailchecks', { emailChecks: [{ checkId: other }] });
    await drainUntil(async () =>
      (await test.get('/sandbox/messages?perPage=500')).body.data.messages.some(
        (m: { checkId: string }) => m.checkId === other,
      ),
    );
    const link = (await test.get('/sandbox/messages?perPage=500')).body.data.messages.find(
      (m: { checkId: string }) => m.checkId === other,
    ).link;
    await t.database.db.run('UPDATE check_links SET expires_at = ? WHERE check_id = ?', [Date.now() - 1, other]);
    const expired = await t.app.inject({ method: 'GET', url: new URL(link).pathname });
    expect(expired.statusCode).toBe(410);
    expect(expired.body).toContain('Link expired');
  });

  it('retries a temporary SMTP failure with backoff and keeps the same Message-ID', async () => {
    const checkId = await newCheck(live, liveIds);
    smtp.failNext(2);
    const before = smtp.received.length;
    await live.post('/emailchecks', { emailChecks: [{ checkId }] });
    await drainUntil(() => smtp.received.length === before + 1);
    const [delivery] = (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries;
    expect(delivery).toMatchObject({ status: 'sent', attempts: 3 });
    expect(smtp.received.at(-1)?.messageId).toBe(`<${delivery.deliveryId}@checkwriter>`);
  });

  it('after the last attempt a delivery is failed and visible, never dropped', async () => {
    const checkId = await newCheck(live, liveIds);
    smtp.failAlways(true);
    try {
      await live.post('/emailchecks', { emailChecks: [{ checkId }] });
      await drainUntil(
        async () => (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries[0]?.status === 'failed',
      );
    } finally {
      smtp.failAlways(false);
    }
    const [delivery] = (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries;
    expect(delivery).toMatchObject({ status: 'failed', attempts: 3 });
    expect(delivery.lastError).toMatch(/451/);
  });

  it('an SMS number the provider refuses fails at once (no retry helps)', async () => {
    const checkId = await newCheck(live, liveIds);
    smsPeer.answer(400);
    try {
      await live.post('/emailchecks', { emailChecks: [{ checkId, enableSmsInform: true }] });
      await drainUntil(async () =>
        (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries.every(
          (d: { status: string }) => d.status !== 'queued' && d.status !== 'sending',
        ),
      );
    } finally {
      smsPeer.answer(201);
    }
    const deliveries = (await live.get(`/checks/${checkId}/deliveries`)).body.data.deliveries;
    expect(deliveries.find((d: { channel: string }) => d.channel === 'sms')).toMatchObject({
      status: 'failed',
      attempts: 1,
    });
    expect(deliveries.find((d: { channel: string }) => d.channel === 'email')).toMatchObject({ status: 'sent' });
  });

  it('test keys: nothing leaves the machine; the messages land in the sandbox inbox with working links', async () => {
    const checkId = await newCheck(test, testIds, { memo: 'Sandbox memo' });
    const mails = smtp.received.length;
    const texts = smsPeer.received.length;
    await test.post('/emailchecks', { emailChecks: [{ checkId, enableSmsInform: true }] });
    await drainUntil(async () => (await test.get('/sandbox/messages')).body.data.meta.total >= 2);
    expect(smtp.received.length).toBe(mails);
    expect(smsPeer.received.length).toBe(texts);
    const inbox = (await test.get('/sandbox/messages')).body.data;
    const email = inbox.messages.find((m: { channel: string }) => m.channel === 'email');
    const sms = inbox.messages.find((m: { channel: string }) => m.channel === 'sms');
    expect(email).toMatchObject({
      checkId,
      to: 'ap@acme.test',
      subject: 'sender@example.com sent you a check for $1,234.56',
    });
    expect(email.text).toContain('Memo: Sandbox memo');
    expect(sms).toMatchObject({ checkId, to: '+14155552671' });
    const path = new URL(email.link).pathname;
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(200);
    const pdf = await t.app.inject({ method: 'POST', url: `${path}/pdf` });
    expect(pdf.statusCode).toBe(200);
    expect((await test.get(`/checks/${checkId}`)).body.data.status).toBe(4);
    // The sandbox is the test environment's: a live key is told to use a test key.
    const denied = await live.get('/sandbox/messages');
    expect(denied.status).toBe(403);
  });

  it('without SMTP, live emails stay queued (and the start banner says why) until a worker with SMTP sends them', async () => {
    const bare = await startTestApp(dialect, {});
    try {
      expect(deliveryStatus(bare.config).smtp).toBe('not configured: live emails stay queued until SMTP_URL is set');
      const client = await bare.client('nosmtp@example.com', { env: 'live' });
      const ids = await seedBasics(client);
      const checkId = await newCheck(client, ids);
      await client.post('/emailchecks', { emailChecks: [{ checkId }] });
      const idle = new DeliveryWorker({
        db: bare.database.db,
        config: bare.config,
        webhooks: new HttpWebhookSender({ allowPrivate: bare.config.webhooksAllowPrivate }),
        secret: bare.keys.secret,
        mailer: null,
        sms: null,
        log: pino({ level: 'silent' }),
      });
      await idle.drain();
      expect((await client.get(`/checks/${checkId}/deliveries`)).body.data.deliveries[0]).toMatchObject({
        status: 'queued',
        attempts: 0,
      });
      const before = smtp.received.length;
      const configured = new DeliveryWorker({
        db: bare.database.db,
        config: bare.config,
        webhooks: new HttpWebhookSender({ allowPrivate: bare.config.webhooksAllowPrivate }),
        secret: bare.keys.secret,
        mailer,
        sms: null,
        log: pino({ level: 'silent' }),
      });
      await configured.drain();
      expect(smtp.received.length).toBe(before + 1);
      expect((await client.get(`/checks/${checkId}/deliveries`)).body.data.deliveries[0]).toMatchObject({
        status: 'sent',
        attempts: 1,
      });
    } finally {
      await bare.close();
    }
  });

  it('attachments: type, size and count limits answer clearly', async () => {
    const checkId = await newCheck(live, liveIds);
    const send = (name: string, bytes: Buffer) =>
      t.app.inject({
        method: 'POST',
        url: `${BASE}/checks/${checkId}/attachments`,
        headers: { authorization: `Bearer ${live.key}`, 'content-type': 'multipart/form-data; boundary=b' },
        payload: Buffer.concat([
          Buffer.from(`--b\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`),
          bytes,
          Buffer.from('\r\n--b--\r\n'),
        ]),
      });
    const text = await send('notes.txt', Buffer.from('just text'));
    expect(text.statusCode).toBe(422);
    expect(JSON.parse(text.body)).toEqual({
      success: false,
      errorMsg: 'The file field must be a PDF, PNG or JPEG file.',
    });
    const huge = await send('big.pdf', Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(5 * 1024 * 1024 + 10)]));
    expect(huge.statusCode).toBe(413);
    for (let i = 0; i < 10; i += 1) expect((await send(`p${i}.pdf`, Buffer.from('%PDF-1.4 x'))).statusCode).toBe(201);
    const eleventh = await send('p10.pdf', Buffer.from('%PDF-1.4 x'));
    expect(eleventh.statusCode).toBe(422);
    expect(JSON.parse(eleventh.body).errorMsg).toBe(
      'The file field cannot be added: a check holds at most 10 attachments.',
    );
    const list = (await live.get(`/checks/${checkId}/attachments`)).body.data.attachments;
    expect((await live.delete(`/checks/${checkId}/attachments/${list[0].attachmentId}`)).status).toBe(200);
    expect((await live.delete(`/checks/${checkId}/attachments/${list[0].attachmentId}`)).status).toBe(404);
    const stranger = await t.client('stranger-att@example.com', { env: 'live' });
    expect((await stranger.get(`/checks/${checkId}/attachments`)).status).toBe(404);
  });
});
