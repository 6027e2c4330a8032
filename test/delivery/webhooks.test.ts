import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { dialects } from '../support/databases.ts';
import { BASE, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';

interface Received {
  id: string;
  type: string;
  data: Record<string, unknown>;
}

/** A webhook receiver that verifies both signatures and refuses each event `failFirst` times with a 500. */
async function startReceiver(secret: () => string, failFirst: number) {
  const accepted = new Map<string, Received>();
  const attempts = new Map<string, number>();
  const badSignatures: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const expected = createHmac('sha256', secret()).update(body).digest('hex');
      const stamped = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(request.headers['checkwriter-signature']));
      const stampedOk =
        stamped !== null &&
        createHmac('sha256', secret()).update(`${stamped[1]}.${body}`).digest('hex') === stamped[2] &&
        Math.abs(Date.now() / 1000 - Number(stamped[1])) < 300;
      const { event } = JSON.parse(body) as { event: Received & { createdAt: string } };
      if (request.headers.signature !== expected || !stampedOk) {
        badSignatures.push(event.id);
        response.writeHead(400).end();
        return;
      }
      const seen = (attempts.get(event.id) ?? 0) + 1;
      attempts.set(event.id, seen);
      if (seen <= failFirst) {
        response.writeHead(500).end('not now');
        return;
      }
      accepted.set(event.id, { id: event.id, type: event.type, data: event.data });
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    accepted,
    attempts,
    badSignatures,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(dialects())('signed webhooks (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let worker: DeliveryWorker;
  let secret = '';
  let receiver: Awaited<ReturnType<typeof startReceiver>>;

  const drainUntil = async (done: () => boolean): Promise<void> => {
    for (let i = 0; i < 300; i += 1) {
      await worker.drain();
      if (done()) return;
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error('webhooks did not settle');
  };

  beforeAll(async () => {
    // The receiver listens on loopback: only the operator's development switch lets a webhook go there
    // (webhook-destinations.test.ts covers the switch off).
    t = await startTestApp(dialect, {
      DELIVERY_RETRY_BASE_MS: '2',
      DELIVERY_MAX_ATTEMPTS: '6',
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    worker = new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
      secret: t.keys.secret,
      mailer: null,
      sms: null,
      log: pino({ level: 'silent' }),
    });
    api = await t.client('hooks@example.com');
    receiver = await startReceiver(() => secret, 3);
  });
  afterAll(async () => {
    await t.close();
    await receiver.close();
  });

  it('every event arrives exactly once, signed, after the receiver refused it three times', async () => {
    const created = await api.post('/webhooks', { url: receiver.url });
    expect(created.status).toBe(201);
    secret = created.body.data.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(created.body.data.events).toContain('check.voided');

    const ids = await seedBasics(api);
    const checkId = (await api.post('/checks', { checks: [{ ...ids, amount: 12.5, referenceId: 'hook-1' }] })).body.data
      .checks[0].checkId;
    await t.app.inject({
      method: 'POST',
      url: `${BASE}/checks/print`,
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ checkIds: [checkId] }),
    });
    await api.post(`/checks/${checkId}/void`);
    const second = (await api.post('/checks', { checks: [{ ...ids, amount: 3 }] })).body.data.checks[0].checkId;
    await api.post('/emailchecks', { emailChecks: [{ checkId: second }] });

    const expected = [
      'check.created',
      'check.printed',
      'check.voided',
      'check.created',
      'check.emailed',
      'delivery.email.sent',
    ];
    await drainUntil(() => receiver.accepted.size === expected.length);
    const types = [...receiver.accepted.values()].map((e) => e.type).sort();
    expect(types).toEqual([...expected].sort());
    expect(receiver.badSignatures).toEqual([]);
    for (const count of receiver.attempts.values()) expect(count).toBe(4);
    const voided = [...receiver.accepted.values()].find((e) => e.type === 'check.voided');
    expect(voided?.data).toMatchObject({
      checkId,
      status: 5,
      statusDescription: 'Void',
      amount: 12.5,
      referenceId: 'hook-1',
    });

    // The delivery log shows each event delivered on its fourth attempt, with the answer.
    const log = (await api.get(`/webhooks/${created.body.data.webhookId}/deliveries`)).body.data.deliveries;
    expect(log).toHaveLength(expected.length);
    for (const d of log) expect(d).toMatchObject({ status: 'sent', attempts: 4, responseStatus: 204 });

    // Redelivery sends the same event (same id) again.
    const before = receiver.attempts.get(log[0].eventId) ?? 0;
    expect(
      (await api.post(`/webhooks/${created.body.data.webhookId}/deliveries/${log[0].deliveryId}/redeliver`)).status,
    ).toBe(200);
    await drainUntil(() => (receiver.attempts.get(log[0].eventId) ?? 0) === before + 1);
    expect(receiver.accepted.size).toBe(expected.length);
  });

  it('lists and deletes endpoints; refuses bad URLs and unknown events', async () => {
    const list = await api.get('/webhooks');
    expect(list.body.data.webhooks.length).toBeGreaterThanOrEqual(1);
    expect((await api.post('/webhooks', { url: 'ftp://example.com/x' })).body.errorMsg).toBe(
      'The url field must be an http or https URL.',
    );
    expect((await api.post('/webhooks', { url: 'https://example.com/x', events: ['check.exploded'] })).status).toBe(
      422,
    );
    const live = await t.client('hooks@example.com', { env: 'live' });
    expect(
      (await live.post('/webhooks', { url: 'https://hooks.example.com/x', events: ['check.voided'] })).status,
    ).toBe(201);
    // Another environment's endpoint does not exist here.
    const id = list.body.data.webhooks[0].webhookId;
    expect((await live.delete(`/webhooks/${id}`)).status).toBe(404);
    expect((await api.delete(`/webhooks/${id}`)).status).toBe(200);
    expect((await api.get(`/webhooks/${id}/deliveries`)).status).toBe(404);
  });
});
