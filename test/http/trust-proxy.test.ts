// TRUST_PROXY believes only the X-Forwarded-For entries the configured proxies appended. Over real
// HTTP from 127.0.0.1 (the proxy), each request carries the header as a proxy appends it: what the
// client wrote, then the client's own address. Rotating the client-written part must not escape
// the per-address limits, and writing a victim's address must not lock the victim out — for the
// failed-request budget of the API and the panel's password guesses, on both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, startTestApp, type TestApp } from '../support/app.ts';
import { csrfOf } from '../support/panel-visitor.ts';

/** What a proxy forwards: the client's own header (if any), then the address it saw. */
const appended = (written: string | null, client: string): string =>
  written === null ? client : `${written}, ${client}`;

async function listen(t: TestApp): Promise<string> {
  return t.app.listen({ port: 0, host: '127.0.0.1' });
}

async function keyless(url: string, forwardedFor: string): Promise<number> {
  const res = await fetch(`${url}${BASE}/checks`, {
    headers: { authorization: 'Bearer guess', 'x-forwarded-for': forwardedFor },
  });
  await res.arrayBuffer();
  return res.status;
}

describe.each(dialects())('TRUST_PROXY hops on %s', (dialect) => {
  for (const setting of ['true', '1']) {
    describe(`TRUST_PROXY=${setting} (one proxy)`, () => {
      let t: TestApp;
      let url = '';
      beforeAll(async () => {
        t = await startTestApp(dialect, { FAILED_REQUEST_LIMIT_PER_MINUTE: '10', TRUST_PROXY: setting });
        url = await listen(t);
      });
      afterAll(() => t.close());

      it('a client rotating the left-most entry is still one address: 429 after its budget', async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 15; i++) statuses.push(await keyless(url, appended(`192.0.2.${i + 1}`, '198.51.100.7')));
        expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
        expect(statuses.slice(10)).toEqual(Array(5).fill(429));
      });

      it("a client writing a victim's address spends only its own budget; the victim is not locked out", async () => {
        const victim = '203.0.113.66';
        for (let i = 0; i < 12; i++) await keyless(url, appended(victim, '198.51.100.8'));
        expect(await keyless(url, appended(victim, '198.51.100.8'))).toBe(429);
        // The victim, through the same proxy, still has its whole budget.
        expect(await keyless(url, appended(null, victim))).toBe(401);
        // A client that sent no header of its own is counted by the address the proxy saw.
        expect(await keyless(url, appended(null, '198.51.100.9'))).toBe(401);
      });
    });
  }

  describe('TRUST_PROXY=2 (two proxies)', () => {
    let t: TestApp;
    let url = '';
    beforeAll(async () => {
      t = await startTestApp(dialect, { FAILED_REQUEST_LIMIT_PER_MINUTE: '10', TRUST_PROXY: '2' });
      url = await listen(t);
    });
    afterAll(() => t.close());

    it('counts the entry the outer proxy appended (second from the right), whatever the client wrote', async () => {
      const statuses: number[] = [];
      // client-written, then the client (appended by the outer proxy), then the outer proxy (by the inner one).
      for (let i = 0; i < 12; i++) statuses.push(await keyless(url, `192.0.2.${i + 1}, 198.51.100.10, 10.0.0.5`));
      expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
      expect(statuses.slice(10)).toEqual([429, 429]);
      // Another client behind the same two proxies has its own budget.
      expect(await keyless(url, '198.51.100.11, 10.0.0.5')).toBe(401);
    });
  });

  describe('panel password guesses behind one proxy (TRUST_PROXY=true)', () => {
    let t: TestApp;
    let url = '';
    beforeAll(async () => {
      t = await startTestApp(dialect, { TRUST_PROXY: 'true' });
      url = await listen(t);
    });
    afterAll(() => t.close());

    /** One failed sign-in for a fresh email (so only the per-address limit can stop it), over HTTP. */
    let n = 0;
    async function guess(forwardedFor: string): Promise<number> {
      n += 1;
      const page = await fetch(`${url}/panel/sign-in`, { headers: { 'x-forwarded-for': forwardedFor } });
      const cookie = (page.headers.getSetCookie() ?? []).map((line) => line.split(';')[0]).join('; ');
      const csrf = csrfOf(await page.text());
      const res = await fetch(`${url}/panel/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': forwardedFor },
        body: new URLSearchParams({ email: `user${n}@proxy.test`, password: 'not the password', _csrf: csrf }),
      });
      await res.arrayBuffer();
      return res.status;
    }

    it('rotating the left-most entry does not buy more guesses, and a victim written there is not locked out', async () => {
      const statuses: number[] = [];
      // The sign-in budget is 20 per address in 15 minutes.
      for (let i = 0; i < 22; i++) statuses.push(await guess(appended(`203.0.113.${i + 1}`, '198.51.100.20')));
      expect(statuses.slice(0, 20).every((s) => s === 401)).toBe(true);
      expect(statuses.slice(20)).toEqual([429, 429]);
      // Those guesses wrote 203.0.113.1 … 22 as the left-most entry; that address is not locked out.
      expect(await guess(appended(null, '203.0.113.1'))).toBe(401);
    }, 90_000);
  });
});
