import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { startSmtpPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { startWorkerProcess } from '../support/processes.ts';

const EMAILS = 1000;

async function waitFor(what: string, done: () => boolean, timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (!done()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Queues EMAILS live emails through the API; answers their check ids. */
async function queueEmails(client: Client): Promise<void> {
  const ids = await seedBasics(client);
  for (let batch = 0; batch < EMAILS / 500; batch += 1) {
    const created = await client.post('/checks', {
      checks: Array.from({ length: 500 }, () => ({ ...ids, amount: 10 })),
    });
    expect(created.status).toBe(201);
    const emailed = await client.post('/emailchecks', {
      emailChecks: created.body.data.checks.map((c: { checkId: string }) => ({ checkId: c.checkId })),
    });
    expect(emailed.status).toBe(200);
  }
}

const unique = (peer: SmtpPeer): number => new Set(peer.received.map((m) => m.messageId)).size;

describe.each(dialects())('the outbox loses nothing (%s)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let env: Record<string, string>;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ delayMs: 2 });
    t = await startTestApp(dialect);
    env = {
      ...t.database.env,
      SMTP_URL: smtp.url,
      DELIVERY_LEASE_MS: '1500',
      DELIVERY_POLL_MS: '50',
      DELIVERY_RETRY_BASE_MS: '50',
    };
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('1,000 emails, the worker killed with SIGKILL midway and restarted: every message arrives, repeats share a Message-ID', async () => {
    await queueEmails(await t.client('crash@example.com', { env: 'live' }));
    const first = await startWorkerProcess(env);
    await waitFor('the first 300 messages', () => smtp.received.length >= 300);
    await first.stop('SIGKILL');
    const atKill = smtp.received.length;
    expect(atKill).toBeLessThan(EMAILS);
    const second = await startWorkerProcess(env);
    try {
      await waitFor('all messages', () => unique(smtp) === EMAILS);
    } finally {
      await second.stop();
    }
    expect(unique(smtp)).toBe(EMAILS);
    const rows = await t.database.db.all<{ status: string; n: number }>(
      "SELECT status, COUNT(*) AS n FROM deliveries WHERE channel = 'email' GROUP BY status",
    );
    expect(rows.map((r) => [r.status, Number(r.n)])).toEqual([['sent', EMAILS]]);
    // Messages in flight at the kill may be sent twice; the receiver recognises them by Message-ID.
    expect(smtp.received.length - EMAILS).toBeLessThanOrEqual(50);
    // 1,000 real SMTP sessions and two worker start-ups: ~15 s alone, twice that on a loaded machine.
  }, 90_000);
});

describe.each(dialects().filter((d) => d === 'postgres'))('two workers on one %s database', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;

  beforeAll(async () => {
    smtp = await startSmtpPeer({ delayMs: 1 });
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  it('drain one queue of 1,000 emails with no double sends', async () => {
    await queueEmails(await t.client('pair@example.com', { env: 'live' }));
    const env = { ...t.database.env, SMTP_URL: smtp.url, DELIVERY_POLL_MS: '20' };
    const workers = await Promise.all([startWorkerProcess(env), startWorkerProcess(env)]);
    try {
      await waitFor('all messages', () => unique(smtp) === EMAILS);
      // Give a double send the time to show up before counting.
      await new Promise((r) => setTimeout(r, 500));
    } finally {
      await Promise.all(workers.map((w) => w.stop()));
    }
    expect(unique(smtp)).toBe(EMAILS);
    expect(smtp.received.length).toBe(EMAILS);
  }, 90_000);
});
