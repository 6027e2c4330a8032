// Webhooks may not reach the operator's own network, or a client
// could probe it through them: with WEBHOOKS_ALLOW_PRIVATE
// off, loopback, private, link-local, CGNAT, multicast, broadcast, unspecified and IPv6 forms that
// embed such an IPv4 address are refused when the endpoint is created (where the URL decides it)
// and again at connect time for every delivery (where only DNS decides it), in both environments;
// a refused delivery fails at once with its reason in the delivery log, and nothing is sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { nonPublicReason } from '../../src/domain/public-address.ts';
import { publicOnlyLookup, RefusedDestination } from '../../src/delivery/webhook-post.ts';
import * as events from '../../src/store/events.repository.ts';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';

// Forms an attacker uses to name this machine or its network without writing 127.0.0.1.
const REFUSED_URLS = [
  'http://127.0.0.1:8080/x',
  'http://localhost/x',
  'http://localhost.:8080/x',
  'http://api.localhost/x',
  'http://0x7f.1/x',
  'http://2130706433/x',
  'http://[::1]/x',
  'http://[::7f00:1]/x',
  'http://[::ffff:127.0.0.1]/x',
  'http://[64:ff9b::7f00:1]/x',
  'http://[2002:7f00:1::]/x',
  'http://[::ffff:10.0.0.1]/x',
  'http://[fd00::1]/x',
  'http://[fe80::1]/x',
  'http://[ff02::1]/x',
  'http://[::]/x',
  'http://10.1.2.3/x',
  'http://172.16.0.1/x',
  'http://192.168.1.1/x',
  'http://100.64.0.1/x',
  'http://169.254.169.254/latest/meta-data',
  'http://0.0.0.0/x',
  'http://224.0.0.1/x',
  'http://255.255.255.255/x',
  'https://hooks.example.com:22/x',
  'https://hooks.example.com:25/x',
];

describe('public address classification (IANA special-purpose registries)', () => {
  it('refuses every special-purpose range and embedded form, and allows public unicast', () => {
    for (const address of [
      '127.0.0.1',
      '10.0.0.1',
      '100.64.0.1',
      '169.254.0.1',
      '172.31.255.255',
      '192.168.0.1',
      '0.0.0.0',
      '224.0.0.251',
      '255.255.255.255',
      '198.18.0.1',
      '192.0.2.1',
      '::',
      '::1',
      '::7f00:1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '64:ff9b::7f00:1',
      '64:ff9b::a00:1',
      '2002:7f00:1::',
      '2002:c0a8:101::1',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '2001:db8::1',
      '2001::1',
      '100::1',
    ]) {
      expect([address, nonPublicReason(address)]).not.toEqual([address, null]);
    }
    for (const address of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.215.14',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
    ]) {
      expect([address, nonPublicReason(address)]).toEqual([address, null]);
    }
    expect(nonPublicReason('hooks.example.com')).toBe('not an address');
  });
});

describe('the connect-time lookup', () => {
  const zone: Record<string, LookupAddress[]> = {
    'public.example': [
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ],
    'private.example': [{ address: '10.0.0.7', family: 4 }],
  };
  const lookup = publicOnlyLookup((hostname, _options, callback) => callback(null, zone[hostname] ?? []));
  const ask = (hostname: string, options: { all?: boolean }) =>
    new Promise<{ error: Error | null; address: unknown; family?: number }>((resolve) =>
      lookup(hostname, options, (error, address, family) => resolve({ error, address, family })),
    );

  it('answers public addresses in both shapes net.connect asks for, and refuses private ones', async () => {
    expect(await ask('public.example', { all: true })).toEqual({
      error: null,
      address: zone['public.example'],
      family: undefined,
    });
    expect(await ask('public.example', {})).toEqual({ error: null, address: '93.184.215.14', family: 4 });
    const refused = await ask('private.example', { all: true });
    expect(refused.error).toBeInstanceOf(RefusedDestination);
    expect(refused.error?.message).toBe(
      'private.example resolves to 10.0.0.7, a private address; set WEBHOOKS_ALLOW_PRIVATE=true to allow it',
    );
  });
});

describe.each(dialects())('webhook destinations with WEBHOOKS_ALLOW_PRIVATE off (%s)', (dialect) => {
  let t: TestApp;
  let live: Client;
  let sandbox: Client;
  let server: Server;
  let port = 0;
  let hits = 0;
  /** What the stand-in DNS answers for each name (the real dns.lookup for anything else). */
  const zone = new Map<string, LookupAddress[]>();
  let worker: DeliveryWorker;

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits += 1;
      request.resume();
      response.writeHead(204).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
    t = await startTestApp(dialect, {
      WEBHOOKS_ALLOW_PRIVATE: 'false',
      DELIVERY_RETRY_BASE_MS: '2',
      DELIVERY_MAX_ATTEMPTS: '3',
    });
    worker = new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      secret: t.keys.secret,
      mailer: null,
      sms: null,
      log: pino({ level: 'silent' }),
      webhooks: new HttpWebhookSender({
        allowPrivate: t.config.webhooksAllowPrivate,
        resolve: (hostname, _options, callback) => {
          const answer = zone.get(hostname);
          if (answer === undefined)
            callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
          else callback(null, answer);
        },
      }),
    });
    live = await t.client('dest@example.com', { env: 'live' });
    sandbox = await t.client('dest@example.com', { env: 'test' });
  });
  afterAll(async () => {
    await t.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  it('refuses loopback, private and embedded-IPv4 URLs and privileged ports when the endpoint is created, for live and test keys', async () => {
    for (const client of [live, sandbox]) {
      for (const url of REFUSED_URLS) {
        const reply = await client.post('/webhooks', { url });
        expect([url, reply.status]).toEqual([url, 422]);
        expect(reply.body.errorMsg).toMatch(
          /^The url field must point at a public address on port 80, 443 or 1024-65535 \(.+\)\.$/,
        );
      }
    }
    expect((await live.post('/webhooks', { url: 'http://[::ffff:127.0.0.1]/x' })).body.errorMsg).toContain(
      'a loopback address (127.0.0.1) inside an IPv6 address',
    );
    expect((await live.post('/webhooks', { url: 'https://hooks.example.com:8443/x' })).status).toBe(201);
    expect((await sandbox.post('/webhooks', { url: 'https://hooks.example.com/x' })).status).toBe(201);
  });

  /** Registers `url` (public-looking, so accepted), queues one event for it, delivers, and answers its log entry. */
  async function deliverTo(client: Client, url: string) {
    const created = await client.post('/webhooks', { url, events: ['check.created'] });
    expect(created.status).toBe(201);
    const ids = await seedBasics(client);
    expect((await client.post('/checks', { checks: [{ ...ids, amount: 1 }] })).status).toBe(201);
    await worker.drain();
    const log = (await client.get(`/webhooks/${created.body.data.webhookId}/deliveries`)).body.data.deliveries;
    expect(log).toHaveLength(1);
    return log[0];
  }

  it('refuses at connect time a name that resolves to loopback, records the delivery as failed with the reason, and sends nothing', async () => {
    zone.set('hooks.rebind.example', [{ address: '127.0.0.1', family: 4 }]);
    const entry = await deliverTo(live, `http://hooks.rebind.example:${port}/hooks`);
    // Refused once, for good: retrying would not make the address public.
    expect(entry).toMatchObject({ status: 'failed', attempts: 1, responseStatus: null });
    expect(entry.lastError).toBe(
      'delivery refused: hooks.rebind.example resolves to 127.0.0.1, a loopback address; set WEBHOOKS_ALLOW_PRIVATE=true to allow it',
    );
    expect(hits).toBe(0);
  });

  it('refuses a name with any non-public answer (IPv6 embedding loopback, or mixed with a public one), in the test environment too', async () => {
    zone.set('v6.rebind.example', [{ address: '::ffff:127.0.0.1', family: 6 }]);
    const v6 = await deliverTo(sandbox, `http://v6.rebind.example:${port}/hooks`);
    expect(v6).toMatchObject({ status: 'failed', attempts: 1 });
    expect(v6.lastError).toContain(
      'v6.rebind.example resolves to ::ffff:127.0.0.1, a loopback address (127.0.0.1) inside an IPv6 address',
    );
    zone.set('mixed.rebind.example', [
      { address: '93.184.215.14', family: 4 },
      { address: '64:ff9b::7f00:1', family: 6 },
    ]);
    const other = await t.client('mixed@example.com', { env: 'live' });
    const mixed = await deliverTo(other, `http://mixed.rebind.example:${port}/hooks`);
    expect(mixed.lastError).toContain('resolves to 64:ff9b::7f00:1');
    expect(hits).toBe(0);
  });

  it('refuses at delivery an endpoint stored before the switch was turned off (URL literal forms)', async () => {
    for (const [i, url] of [
      `http://localhost.:${port}/hooks`,
      `http://[::ffff:127.0.0.1]:${port}/hooks`,
      `http://127.0.0.1:${port}/hooks`,
    ].entries()) {
      const client = await t.client(`stored-${i}@example.com`, { env: 'live' });
      const owner = { accountId: await accountOf(client), env: 'live' as const };
      await events.insertEndpoint(t.database.db, owner, {
        id: `whk_stored_${i}_${dialect}`,
        url,
        secret: 'whsec_x',
        events: ['check.created'],
        createdAt: Date.now(),
      });
      const ids = await seedBasics(client);
      expect((await client.post('/checks', { checks: [{ ...ids, amount: 1 }] })).status).toBe(201);
      await worker.drain();
      const log = (await client.get(`/webhooks/whk_stored_${i}_${dialect}/deliveries`)).body.data.deliveries;
      expect(log).toHaveLength(1);
      expect(log[0]).toMatchObject({ status: 'failed', attempts: 1 });
      expect(log[0].lastError).toMatch(/^delivery refused: .+; set WEBHOOKS_ALLOW_PRIVATE=true to allow it$/);
    }
    expect(hits).toBe(0);
  });

  /** The account behind a client's key (read from the database: the API does not show it). */
  async function accountOf(client: Client): Promise<string> {
    const principal = await t.keys.verify(client.key);
    return principal.accountId;
  }
});
