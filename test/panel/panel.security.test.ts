import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('developer panel security (%s)', (dialect) => {
  let t: TestApp;
  let phone = 100;

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'http://panel.test' });
  });
  afterAll(async () => {
    await t.close();
  });

  async function account(email: string): Promise<{ visitor: Visitor; api: Client }> {
    const visitor = new Visitor(t.app);
    phone += 1;
    const signedUp = await visitor.signUp({
      company: `Company of ${email}`,
      email,
      phone: `+1415555${String(phone).padStart(4, '0')}`,
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    return { visitor, api: clientFor(t.app, await visitor.createKey('k')) };
  }

  const keyCount = async (): Promise<number> =>
    Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM api_keys'))?.n ?? 0);

  it('refuses forms without the CSRF token, with another browser’s token, or from another origin', async () => {
    const { visitor } = await account('csrf@panel.test');
    const before = await keyCount();
    const missing = await visitor.post('/panel/keys', { name: 'forged', env: 'live' });
    expect(missing.status).toBe(403);
    expect(missing.body).toContain('This form has expired or did not come from this site');

    const attacker = new Visitor(t.app);
    const attackerPage = await attacker.get('/panel/sign-in');
    const foreign = await visitor.post('/panel/keys', {
      name: 'forged',
      env: 'live',
      _csrf: csrfOf(attackerPage.body),
    });
    expect(foreign.status).toBe(403);

    const page = await visitor.get('/panel/keys');
    const crossSite = await visitor.post(
      '/panel/keys',
      { name: 'forged', env: 'live', _csrf: csrfOf(page.body) },
      { origin: 'https://evil.example' },
    );
    expect(crossSite.status).toBe(403);
    expect(await keyCount()).toBe(before);

    // The same token from our own origin works.
    const ours = await visitor.post(
      '/panel/keys',
      { name: 'real', env: 'test', _csrf: csrfOf(page.body) },
      { origin: 'http://panel.test' },
    );
    expect(ours.status).toBe(201);
    // Sign-in and sign-out forms are protected too (login CSRF).
    const loginCsrf = await new Visitor(t.app).post('/panel/sign-in', { email: 'csrf@panel.test', password: PASSWORD });
    expect(loginCsrf.status).toBe(403);
    expect(loginCsrf.setCookies.some((c) => c.startsWith('cw_session='))).toBe(false);
    expect((await visitor.post('/panel/sign-out', {})).status).toBe(403);
    expect((await visitor.get('/panel')).status).toBe(200);
  });

  it('makes a new session id at sign-in: a planted session cookie is never promoted (session fixation)', async () => {
    await account('fixation@panel.test');
    const victim = new Visitor(t.app);
    const planted = 'AttackerChosenSessionValue0123456789abcd';
    victim.cookies.set('cw_session', planted);
    const signedIn = await victim.signIn('fixation@panel.test', PASSWORD);
    expect(signedIn.status).toBe(303);
    const issued = victim.cookies.get('cw_session') ?? '';
    expect(issued).not.toBe(planted);
    expect(issued.length).toBeGreaterThanOrEqual(40);
    const attacker = new Visitor(t.app);
    attacker.cookies.set('cw_session', planted);
    expect((await attacker.get('/panel/keys')).status).toBe(303);

    // An attacker who plants their own real session: signing in replaces it, it does not carry over.
    const own = await account('fixer@panel.test');
    const attackerSession = own.visitor.cookies.get('cw_session') ?? '';
    const victim2 = new Visitor(t.app);
    victim2.cookies.set('cw_session', attackerSession);
    // (The sign-in page itself redirects a signed-in browser, so the form is posted from another page.)
    await victim2.submit('/panel/forgot-password', '/panel/sign-in', {
      email: 'fixation@panel.test',
      password: PASSWORD,
    });
    expect(victim2.cookies.get('cw_session')).not.toBe(attackerSession);
    expect((await victim2.get('/panel')).body).toContain('Company of fixation@panel.test');
  });

  it('sets the session cookie httpOnly and SameSite, Secure when the panel is served over https', async () => {
    const visitor = new Visitor(t.app);
    const r = await visitor.signUp({
      company: 'Cookies',
      email: 'cookie@panel.test',
      phone: '+14155559001',
      password: PASSWORD,
    });
    const session = r.setCookies.find((c) => c.startsWith('cw_session=')) ?? '';
    expect(session).toMatch(/HttpOnly/);
    expect(session).toMatch(/SameSite=Lax/);
    expect(session).not.toMatch(/Secure/);
    const secure = await startTestApp(dialect, { PUBLIC_URL: 'https://panel.example' });
    try {
      const page = await new Visitor(secure.app).get('/panel/sign-in');
      expect(page.setCookies.find((c) => c.startsWith('cw_csrf=')) ?? '').toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it("never shows one account's checks, PDFs, messages, webhooks or keys to another (404), nor test data as live", async () => {
    const a = await account('alice@panel.test');
    const b = await account('bob@panel.test');
    const ids = await seedBasics(a.api);
    const checkId = (await a.api.post('/checks', { checks: [{ ...ids, amount: '10.00', memo: 'alice only' }] })).body
      .data.checks[0].checkId as string;
    const hook = await a.visitor.submit('/panel/webhooks', '/panel/webhooks', {
      url: 'https://hooks.example/a',
      env: 'test',
    });
    const hookPath = hook.location.split('?')[0] ?? '';
    await t.database.db.run(
      "INSERT INTO sandbox_messages (id, account_id, delivery_id, check_id, channel, recipient, subject, text_body, created_at) SELECT 'msg_ALICE', id, 'dlv_x', NULL, 'email', 'p@x.test', 'secret subject', 'body', 1 FROM accounts WHERE email = 'alice@panel.test'",
    );
    expect((await a.visitor.get(`/panel/checks/${checkId}`)).status).toBe(200);
    expect((await a.visitor.get('/panel/inbox/msg_ALICE')).status).toBe(200);

    for (const path of [
      `/panel/checks/${checkId}`,
      `/panel/checks/${checkId}/pdf`,
      '/panel/inbox/msg_ALICE',
      '/panel/inbox/msg_ALICE/html',
      hookPath,
    ]) {
      const r = await b.visitor.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body).not.toContain('alice only');
      expect(r.body).not.toContain('secret subject');
    }
    expect((await b.visitor.get('/panel/checks')).body).not.toContain(checkId);
    expect((await b.visitor.get('/panel/inbox')).body).not.toContain('msg_ALICE');
    // Another environment is another world: the test check is not found as live.
    expect((await a.visitor.get(`/panel/checks/${checkId}?env=live`)).status).toBe(404);

    // Revoking or redelivering another account's things: 404, and nothing changes.
    const aliceKey = await t.database.db.get<{ id: string }>(
      "SELECT k.id FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE a.email = 'alice@panel.test'",
    );
    const aliceKeyId = aliceKey?.id ?? '';
    expect(aliceKeyId).toMatch(/^key_/);
    const revoke = await b.visitor.submit('/panel/keys', `/panel/keys/${aliceKeyId}/revoke`, {});
    expect(revoke.status).toBe(404);
    expect((await a.api.get('/checks')).status).toBe(200);
    const delete_ = await b.visitor.submit('/panel/webhooks', `${hookPath}/delete`, { env: 'test' });
    expect(delete_.status).toBe(404);
    expect((await a.visitor.get(hookPath)).status).toBe(200);
  });

  it('rate limits brute-force sign-in per address and email: after five failures even the right password waits (429) there', async () => {
    await account('brute@panel.test');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await new Visitor(t.app, '192.0.2.99').signIn('brute@panel.test', `wrong password ${i}`);
      expect(wrong.status).toBe(401);
      expect(wrong.body).toContain('That email and password do not match an account.');
    }
    const blocked = await new Visitor(t.app, '192.0.2.99').signIn('brute@panel.test', PASSWORD);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    expect(blocked.setCookies.some((c) => c.startsWith('cw_session='))).toBe(false);
    // The owner, from another address, is not locked out by it; nor is another account.
    expect((await new Visitor(t.app).signIn('brute@panel.test', PASSWORD)).status).toBe(303);
    await account('calm@panel.test');
    expect((await new Visitor(t.app).signIn('calm@panel.test', PASSWORD)).status).toBe(303);
  });

  it('rate limits sign-in per client address across many emails (credential stuffing)', async () => {
    const app = await startTestApp(dialect);
    try {
      let last = 0;
      for (let i = 0; i < 21; i += 1)
        last = (await new Visitor(app.app, '192.0.2.7').signIn(`nobody${i}@panel.test`, 'whatever it is')).status;
      expect(last).toBe(429);
      // Another client address is not affected.
      expect((await new Visitor(app.app, '192.0.2.8').signIn('nobody@panel.test', 'whatever it is')).status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('limits sign-ups per client address (each one texts a phone)', async () => {
    let status = 0;
    for (let i = 0; i < 11; i += 1) {
      status = (
        await new Visitor(t.app, '198.51.100.9').signUp({
          company: 'Flood',
          email: `flood${i}@panel.test`,
          phone: `+1415555${String(7000 + i)}`,
          password: PASSWORD,
        })
      ).status;
    }
    expect(status).toBe(429);
    const texts = await t.database.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM deliveries WHERE channel = 'sms' AND recipient LIKE '+14155557%'",
    );
    expect(Number(texts?.n)).toBe(10);
  });

  it('sends signed-out visitors to sign in, follows only panel paths afterwards, and answers odd input with 4xx', async () => {
    const anonymous = new Visitor(t.app);
    const keys = await anonymous.get('/panel/keys?env=live');
    expect(keys.status).toBe(303);
    expect(keys.location).toBe('/panel/sign-in?next=%2Fpanel%2Fkeys%3Fenv%3Dlive');
    await account('next@panel.test');
    const v = new Visitor(t.app);
    const page = await v.get('/panel/sign-in?next=https://evil.example/');
    const signedIn = await v.post('/panel/sign-in', {
      email: 'next@panel.test',
      password: PASSWORD,
      next: '//evil.example/',
      _csrf: csrfOf(page.body),
    });
    expect(signedIn.location).toBe('/panel');
    // This app has no SMTP server and no SMS provider: the home page says why nothing arrives.
    const home = await v.get('/panel');
    expect(home.body).toContain(
      'This server has no SMTP server (SMTP_URL) and no SMS provider (SMS_PROVIDER) configured',
    );
    expect(home.body).toContain('npx checkwriter accounts verify --email next@panel.test');
    expect((await v.get('/panel/checks/%00')).status).toBe(404);
    expect((await v.get('/panel/checks?term=%00')).status).toBe(404);
    const nul = await v.submit('/panel/keys', '/panel/keys', { name: 'a\u0000b', env: 'test' });
    expect(nul.status).toBe(422);
    const unknown = await v.get('/panel/checks/chk_NOPE');
    expect(unknown.status).toBe(404);
    expect(unknown.headers['content-type']).toContain('text/html');
    expect((await v.get('/panel/no-such-page')).status).toBe(404);
    const headers = (await v.get('/panel')).headers;
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['cache-control']).toBe('no-store');
  });
});

describe.each(dialects())('sign-in limits behind a reverse proxy (%s)', (dialect) => {
  it('count the forwarded client address when TRUST_PROXY names the proxy, and ignore the header otherwise', async () => {
    for (const [trust, separate] of [
      ['127.0.0.1', true],
      ['', false],
    ] as const) {
      const app = await startTestApp(dialect, { TRUST_PROXY: trust });
      try {
        let n = 0;
        // A new email each time, so only the per-address limit can stop it.
        const attempt = (client: string): Promise<number> => {
          n += 1;
          return new Visitor(app.app, '127.0.0.1')
            .submit(
              '/panel/sign-in',
              '/panel/sign-in',
              { email: `user${n}@proxy.test`, password: 'not the password' },
              { 'x-forwarded-for': client },
            )
            .then((r) => r.status);
        };
        for (let i = 0; i < 20; i += 1) await attempt('203.0.113.1');
        expect(await attempt('203.0.113.1')).toBe(429);
        // Another user behind the same proxy is still let in only when the proxy is trusted.
        expect(await attempt('203.0.113.2')).toBe(separate ? 401 : 429);
      } finally {
        await app.close();
      }
    }
    // 44 failed sign-ins, each hashing a password (scrypt, ~120 ms alone, far more on a busy machine).
  }, 90_000);
});
