// /healthz (the process lives) and /readyz (this server can write now), and what a server on a
// database it cannot write answers: 503 with Retry-After in the API's error shape, a 503 page in
// the panel. PostgreSQL's read-only case runs against real servers in
// test/server/database-failover.test.ts; here SQLite's file is made read-only.
import { execFileSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { ApiKeys } from '../../src/services/api-key.service.ts';
import { connect } from '../../src/store/connect.ts';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';

describe.each(dialects())('/healthz and /readyz (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('both answer 200 without a key, say nothing secret, and /readyz asks the database at most once a second', async () => {
    const writable = vi.spyOn(t.database.db, 'writable');
    const health = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    expect(health.json()).toEqual({ status: 'ok' });
    const answers = await Promise.all(
      Array.from({ length: 20 }, () => t.app.inject({ method: 'GET', url: '/readyz' })),
    );
    for (const answer of answers) {
      expect(answer.statusCode).toBe(200);
      expect(answer.json()).toEqual({ status: 'ready' });
    }
    expect(writable).toHaveBeenCalledTimes(1);
    await new Promise((r) => setTimeout(r, 1_050));
    expect((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
    expect(writable).toHaveBeenCalledTimes(2);
    // Liveness never asks the database.
    await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(writable).toHaveBeenCalledTimes(2);
    writable.mockRestore();
  });

  it('name neither the database nor the SMS provider nor the mail set-up, to a caller without a key', async () => {
    const named = await startTestApp(dialect, {
      SMS_PROVIDER: 'twilio',
      SMS_ACCOUNT_SID: 'AC00000000000000000000000000000000',
      SMS_AUTH_TOKEN: 'a-token-for-this-test-only',
      SMS_FROM: '+14155550100',
      SMTP_URL: 'smtp://mail.example.com:587',
    });
    try {
      for (const url of ['/healthz', '/readyz']) {
        const res = await named.app.inject({ method: 'GET', url });
        expect(res.statusCode).toBe(200);
        expect(res.body).not.toMatch(/sqlite|postgres|twilio|smtp|sms|mail|delivery|database/i);
      }
    } finally {
      await named.close();
    }
  });
});

describe('a server on a read-only SQLite file', () => {
  let t: TestApp;
  let key = '';
  let ids: { bankAccountId: string; payeeId: string };
  beforeAll(async () => {
    t = await startTestApp('sqlite');
    const client = await t.client('readonly@example.com');
    key = client.key;
    ids = await seedBasics(client);
    await t.app.close();
    await t.database.db.close();
  });
  afterAll(async () => {
    await t.database.drop();
  });

  it('lives (/healthz 200), is not ready (/readyz 503), and answers writes 503 with Retry-After: API and panel', async () => {
    const file = t.database.config.url;
    // chmod does not stop root; the immutable flag does.
    const asRoot = process.getuid?.() === 0;
    if (asRoot) execFileSync('chattr', ['+i', file]);
    else chmodSync(file, 0o444);
    const db = connect(t.database.config);
    try {
      const app = await buildApp(t.config, { db, keys: await ApiKeys.open(db, t.config) });
      try {
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        const ready = await app.inject({ method: 'GET', url: '/readyz' });
        expect(ready.statusCode).toBe(503);
        expect(ready.headers['retry-after']).toBe('1');
        expect(ready.json()).toEqual({ status: 'database not writable' });

        const write = await app.inject({
          method: 'POST',
          url: '/api/v3/checks',
          headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'ro-1' },
          payload: { checks: [{ ...ids, amount: 1000 }] },
        });
        expect(write.statusCode).toBe(503);
        expect(Number(write.headers['retry-after'])).toBeGreaterThanOrEqual(1);
        expect(write.json()).toEqual({ success: false, errorMsg: expect.stringMatching(/Idempotency-Key/) });
        // Reads still work.
        const read = await app.inject({
          method: 'GET',
          url: '/api/v3/checks',
          headers: { authorization: `Bearer ${key}` },
        });
        expect(read.statusCode).toBe(200);

        const visitor = new Visitor(app);
        const page = await visitor.submit('/panel/sign-up', '/panel/sign-up', {
          company: 'Acme',
          email: 'new-owner@example.com',
          phone: '+14155552671',
          password: 'a long enough passphrase 42',
        });
        expect(page.status).toBe(503);
        expect(page.headers['retry-after']).toBeDefined();
        expect(page.headers['content-type']).toMatch(/text\/html/);
        expect(page.body).toContain('Try again in a moment');
      } finally {
        await app.close();
      }
    } finally {
      await db.close();
      if (asRoot) execFileSync('chattr', ['-i', file]);
      else chmodSync(file, 0o644);
    }
  });
});
