// The sign-in limits, panel side: brute force against one account stays slow, but a stranger can
// no longer lock the owner out (5 wrong passwords from anywhere used to lock the account for 15
// minutes); and sign-up answers the same for a taken email as for a new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery staple';

describe.each(dialects())('sign-in limits and sign-up on %s', (dialect) => {
  let t: TestApp;
  let n = 0;
  const address = (): string => `198.18.${Math.floor(++n / 250)}.${(n % 250) + 1}`;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  async function owner(email: string): Promise<void> {
    const r = await new Visitor(t.app, address()).signUp({
      company: 'Owner Co',
      email,
      phone: `+1415555${String(1000 + n).slice(-4)}`,
      password: PASSWORD,
    });
    expect(r.status).toBe(303);
  }

  it('one address guessing one account: 401 five times, then 429 even with the right password; the owner elsewhere signs in', async () => {
    await owner('target@limits.test');
    const attacker = address();
    for (let i = 0; i < 5; i++)
      expect((await new Visitor(t.app, attacker).signIn('target@limits.test', `guess ${i}`)).status).toBe(401);
    const blocked = await new Visitor(t.app, attacker).signIn('target@limits.test', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.setCookies.some((c) => c.startsWith('cw_session='))).toBe(false);
    expect((await new Visitor(t.app, address()).signIn('target@limits.test', PASSWORD)).status).toBe(303);
  });

  it('many addresses guessing one account: past 20 failures each failed address is refused and each fresh one gets one guess, while the owner from a clean address signs in', async () => {
    await owner('wanted@limits.test');
    const attackers = Array.from({ length: 20 }, () => address());
    for (const a of attackers)
      expect((await new Visitor(t.app, a).signIn('wanted@limits.test', 'guess')).status).toBe(401);
    // Every address that already failed on this account now waits, whatever it sends.
    expect((await new Visitor(t.app, attackers[0]).signIn('wanted@limits.test', 'guess 2')).status).toBe(429);
    // A fresh address gets one guess, then waits.
    const fresh = address();
    expect((await new Visitor(t.app, fresh).signIn('wanted@limits.test', 'guess')).status).toBe(401);
    expect((await new Visitor(t.app, fresh).signIn('wanted@limits.test', 'guess again')).status).toBe(429);
    // The owner, from an address that has not failed, is not locked out.
    expect((await new Visitor(t.app, address()).signIn('wanted@limits.test', PASSWORD)).status).toBe(303);
  });

  it('sign-up with a taken email: the same answer and page as a new one, nobody signed in, the owner emailed a reset link, the account unchanged', async () => {
    await owner('taken@limits.test');
    const fields = (email: string) => ({
      company: 'Squatter',
      email,
      phone: '+14155550199',
      password: 'another long password',
    });
    const outcomes = [];
    for (const email of ['taken@limits.test', 'fresh@limits.test']) {
      const visitor = new Visitor(t.app, address());
      const res = await visitor.submit('/panel/sign-up', '/panel/sign-up', fields(email));
      const next = await visitor.get(res.location);
      outcomes.push({
        status: res.status,
        location: res.location,
        session: res.setCookies.some((c) => c.startsWith('cw_session=')),
        page: next.body.replace(/name="_csrf" value="[^"]+"/, ''),
        nextStatus: next.status,
      });
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
    expect(outcomes[0]?.status).toBe(303);
    expect(outcomes[0]?.session).toBe(false);
    const resets = await t.database.db.all<{ n: number }>(
      "SELECT COUNT(*) AS n FROM deliveries d JOIN accounts a ON a.id = d.account_id WHERE a.email = 'taken@limits.test' AND d.recipient = 'taken@limits.test' AND d.payload LIKE '%reset-password%'",
    );
    expect(Number(resets[0]?.n)).toBe(1);
    // The owner's password still works; the squatter's does not.
    expect((await new Visitor(t.app, address()).signIn('taken@limits.test', PASSWORD)).status).toBe(303);
    expect((await new Visitor(t.app, address()).signIn('taken@limits.test', 'another long password')).status).toBe(401);
  });
});
