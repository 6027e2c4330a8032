// The address limits, API side: requests without a valid key, and requests for unknown paths, are
// limited per client address (429 + Retry-After, in the error shape); a valid key is never refused
// for its neighbours' failures; the address follows TRUST_PROXY.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, startTestApp, type Client, type TestApp } from '../support/app.ts';

describe.each(dialects())('failed requests per client address on %s', (dialect) => {
  let t: TestApp;
  let api: Client;

  beforeAll(async () => {
    t = await startTestApp(dialect, { FAILED_REQUEST_LIMIT_PER_MINUTE: '10', TRUST_PROXY: '127.0.0.1' });
    api = await t.client('limits@example.com');
  });
  afterAll(() => t.close());

  const call = (address: string, url: string, authorization?: string, forwardedFor?: string) =>
    t.app.inject({
      method: 'GET',
      url,
      remoteAddress: address,
      headers: {
        ...(authorization === undefined ? {} : { authorization }),
        ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }),
      },
    });

  it("answers 401 for a minute's budget of bad keys, then 429 with Retry-After, whatever the key", async () => {
    const address = '203.0.113.5';
    for (let i = 0; i < 10; i++) {
      const res = await call(address, `${BASE}/checks`, i % 2 === 0 ? `Bearer guess-${i}` : undefined);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthenticated.' });
    }
    for (const authorization of ['Bearer guess-x', undefined, 'Basic abc']) {
      const res = await call(address, `${BASE}/checks`, authorization);
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(res.json()).toEqual({
        success: false,
        errorMsg: 'Too many failed requests from this address; slow down.',
      });
    }
    // Unknown paths share the budget.
    expect((await call(address, '/wp-login.php')).statusCode).toBe(429);
    // A valid key from the same address is never refused for it.
    expect((await call(address, `${BASE}/checks`, `Bearer ${api.key}`)).statusCode).toBe(200);
    // Another address has its own budget.
    expect((await call('203.0.113.6', `${BASE}/checks`, 'Bearer guess')).statusCode).toBe(401);
  });

  it('counts unknown paths: 404 within the budget, then 429', async () => {
    const address = '203.0.113.7';
    for (let i = 0; i < 10; i++) {
      const res = await call(address, `/scan/${i}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, errorMsg: expect.any(String) });
    }
    const res = await call(address, '/scan/again');
    expect(res.statusCode).toBe(429);
    expect(res.json()).toEqual({ success: false, errorMsg: expect.any(String) });
  });

  it("behind a trusted proxy, each forwarded client has its own budget; an untrusted peer's header is ignored", async () => {
    // The trusted proxy (127.0.0.1) forwards for client A until A is limited; client B still gets 401.
    for (let i = 0; i < 10; i++) await call('127.0.0.1', `${BASE}/checks`, 'Bearer x', '198.51.100.1');
    expect((await call('127.0.0.1', `${BASE}/checks`, 'Bearer x', '198.51.100.1')).statusCode).toBe(429);
    expect((await call('127.0.0.1', `${BASE}/checks`, 'Bearer x', '198.51.100.2')).statusCode).toBe(401);
    // A peer that is not the proxy cannot pick a fresh address with the header.
    for (let i = 0; i < 10; i++) await call('192.0.2.50', `${BASE}/checks`, 'Bearer x', `198.51.100.${100 + i}`);
    expect((await call('192.0.2.50', `${BASE}/checks`, 'Bearer x', '198.51.100.200')).statusCode).toBe(429);
  });

  it('is off with FAILED_REQUEST_LIMIT_PER_MINUTE=0', async () => {
    const off = await startTestApp(dialect, { FAILED_REQUEST_LIMIT_PER_MINUTE: '0' });
    try {
      for (let i = 0; i < 30; i++)
        expect(
          (await off.app.inject({ method: 'GET', url: `${BASE}/checks`, remoteAddress: '203.0.113.9' })).statusCode,
        ).toBe(401);
    } finally {
      await off.close();
    }
  });
});
