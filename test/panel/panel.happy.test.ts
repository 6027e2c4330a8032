import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { testWorker } from '../support/worker.ts';
import { dialects } from '../support/databases.ts';
import { clientFor, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { parseMail, peerEnv, startSmsPeer, startSmtpPeer, type SmsPeer, type SmtpPeer } from '../support/mail-peers.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { purgeExpiredSessions } from '../../src/services/account.service.ts';
import { parsePdf } from '../render/support/pdf.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('developer panel (%s)', (dialect) => {
  let t: TestApp;
  let smtp: SmtpPeer;
  let sms: SmsPeer;
  let worker: DeliveryWorker;
  let closeWorker: () => void;

  beforeAll(async () => {
    smtp = await startSmtpPeer();
    sms = await startSmsPeer();
    t = await startTestApp(dialect, {
      ...peerEnv(smtp, sms),
      PUBLIC_URL: 'https://checks.example',
      // The webhook form below points at loopback, which only the development switch allows.
      WEBHOOKS_ALLOW_PRIVATE: 'true',
    });
    ({ worker, close: closeWorker } = testWorker(t));
  });

  afterAll(async () => {
    closeWorker();
    await t.close();
    await smtp.close();
    await sms.close();
  });

  /** The newest email to `to` with `subject`, parsed (the worker sends in parallel: arrival order is not queue order). */
  const lastMailTo = async (to: string, subject: string) => {
    for (const m of [...smtp.received].reverse()) {
      const parsed = await parseMail(m.raw);
      if (parsed.to?.some((a) => a.address === to) === true && parsed.subject === subject) return parsed;
    }
    throw new Error(`no mail to ${to} about ${subject}`);
  };
  const lastCodeTo = (phone: string): string => {
    const text =
      [...sms.received]
        .reverse()
        .find((r) => r.form.get('To') === phone)
        ?.form.get('Body') ?? '';
    const code = /\b(\d{6})\b/.exec(text)?.[1];
    if (code === undefined) throw new Error(`no code texted to ${phone}`);
    return code;
  };
  const pathOf = (link: string): string => {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  };

  async function signedUp(email: string, phone = '+14155552671'): Promise<Visitor> {
    const v = new Visitor(t.app);
    const r = await v.signUp({ company: 'Acme Payables', email, phone, password: PASSWORD });
    expect(r.status).toBe(303);
    expect(r.location).toBe('/panel');
    return v;
  }

  it('signs up, verifies the email by link and the phone by code through the real mail and SMS peers', async () => {
    const v = await signedUp('owner@acme.test');
    let home = await v.get('/panel');
    expect(home.status).toBe(200);
    expect(home.body).toContain('answers <strong>403</strong>');
    expect(home.body).toContain('Please verify your phone number and email address to enable mail check.');

    await worker.drain();
    const mail = await lastMailTo('owner@acme.test', 'Verify your email address for checkwriter');
    const link = /https:\/\/checks\.example\/panel\/verify-email\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0];
    expect(link).toBeDefined();
    // Opening the link changes nothing (scanners fetch links); its page's button confirms.
    const opened = await v.get(pathOf(link ?? ''));
    expect(opened.status).toBe(200);
    expect(opened.body).toContain('Confirm my email address');
    const stillUnverified = await t.database.db.get<{ email_verified_at: unknown }>(
      "SELECT email_verified_at FROM accounts WHERE email = 'owner@acme.test'",
    );
    expect(stillUnverified?.email_verified_at ?? null).toBeNull();
    const verified = await v.submit(pathOf(link ?? ''), '/panel/verify-email', {
      token: new URL(link ?? '').searchParams.get('token') ?? '',
    });
    expect(verified.status).toBe(303);
    expect(verified.location).toBe('/panel?notice=email-verified');
    // The link is good once; a second click still lands on a verified account, not an error.
    expect((await v.get(pathOf(link ?? ''))).location).toBe('/panel?notice=email-verified');

    const code = lastCodeTo('+14155552671');
    const wrong = code === '000000' ? '111111' : '000000';
    const refused = await v.submit('/panel', '/panel/verify-phone', { code: wrong });
    expect(refused.status).toBe(422);
    expect(refused.body).toContain('That code is not right');
    const ok = await v.submit('/panel', '/panel/verify-phone', { code });
    expect(ok.status).toBe(303);
    expect(ok.location).toBe('/panel?notice=phone-verified');

    home = await v.get('/panel');
    expect(home.body).toContain('Your email address and phone number are verified');
    const account = await t.database.db.get<{
      email_verified_at: number | null;
      phone_verified_at: number | null;
      password_hash: string;
    }>(
      // The password is the person's (one across their companies), kept on people since migration 026.
      'SELECT a.email_verified_at, a.phone_verified_at, p.password_hash FROM accounts a JOIN people p ON p.email = a.email WHERE a.email = ?',
      ['owner@acme.test'],
    );
    expect(account?.email_verified_at).not.toBeNull();
    expect(account?.phone_verified_at).not.toBeNull();
    expect(account?.password_hash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(account?.password_hash).not.toContain(PASSWORD);
  });

  it('a phone code stops working after five wrong tries, and a new one can be sent after a minute', async () => {
    const v = await signedUp('tries@acme.test', '+14155550100');
    await worker.drain();
    const code = lastCodeTo('+14155550100');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) await v.submit('/panel', '/panel/verify-phone', { code: wrong });
    const late = await v.submit('/panel', '/panel/verify-phone', { code });
    expect(late.status).toBe(422);
    expect(late.body).toContain('Too many wrong codes');
    const soon = await v.submit('/panel', '/panel/resend', { what: 'phone' });
    expect(soon.location).toBe('/panel?notice=too-soon');
  });

  it('resets a forgotten password by emailed link: the old password and every session stop working', async () => {
    const first = await signedUp('reset@acme.test', '+14155550101');
    const other = new Visitor(t.app);
    expect((await other.signIn('reset@acme.test', PASSWORD)).status).toBe(303);

    const asked = await new Visitor(t.app).submit('/panel/forgot-password', '/panel/forgot-password', {
      email: 'reset@acme.test',
    });
    expect(asked.status).toBe(200);
    // Unknown emails get the same answer (no account discovery).
    const unknown = await new Visitor(t.app).submit('/panel/forgot-password', '/panel/forgot-password', {
      email: 'nobody@acme.test',
    });
    expect(unknown.body).toContain('If an account uses that email');
    expect(asked.body).toContain('If an account uses that email');

    await worker.drain();
    const mail = await lastMailTo('reset@acme.test', 'Reset your checkwriter password');
    const link =
      /https:\/\/checks\.example\/panel\/reset-password\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0] ?? '';
    const browser = new Visitor(t.app);
    const short = await browser.submit(pathOf(link), '/panel/reset-password', {
      token: new URL(link).searchParams.get('token') ?? '',
      password: 'short',
    });
    expect(short.status).toBe(422);
    const done = await browser.submit(pathOf(link), '/panel/reset-password', {
      token: new URL(link).searchParams.get('token') ?? '',
      password: 'a brand new passphrase',
    });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/panel/sign-in?notice=password-reset');
    // Used once: the link is dead now.
    expect((await browser.get(pathOf(link))).status).toBe(410);

    expect((await first.get('/panel')).status).toBe(303);
    expect((await other.get('/panel')).status).toBe(303);
    expect((await new Visitor(t.app).signIn('reset@acme.test', PASSWORD)).status).toBe(401);
    expect((await new Visitor(t.app).signIn('reset@acme.test', 'a brand new passphrase')).status).toBe(303);
  });

  it('signing out ends the session on the server; expired sessions, links and codes stop working and are purged', async () => {
    const v = await signedUp('expiry@acme.test', '+14155550106');
    const cookie = v.cookies.get('cw_session') ?? '';
    const out = await v.submit('/panel', '/panel/sign-out', {});
    expect(out.location).toBe('/panel/sign-in?notice=signed-out');
    expect(v.cookies.has('cw_session')).toBe(false);
    // The old cookie value, replayed, opens nothing: the row is gone, not just the cookie.
    const replay = new Visitor(t.app);
    replay.cookies.set('cw_session', cookie);
    expect((await replay.get('/panel')).status).toBe(303);

    const again = new Visitor(t.app);
    expect((await again.signIn('expiry@acme.test', PASSWORD)).status).toBe(303);
    expect((await again.get('/panel')).status).toBe(200);
    const account = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'expiry@acme.test',
    ]);
    await t.database.db.run('UPDATE panel_sessions SET expires_at = 1 WHERE account_id = ?', [account?.id ?? '']);
    const sessionsLeft = async (): Promise<number> =>
      Number(
        (
          await t.database.db.get<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM panel_sessions WHERE account_id = ?',
            [account?.id ?? ''],
          )
        )?.n,
      );
    // Refused, but the GET wrote nothing: the row waits for the sweep.
    expect((await again.get('/panel')).status).toBe(303);
    expect(await sessionsLeft()).toBe(1);
    // A second session, idle past the limit but not past its end: refused, and swept too.
    const idle = new Visitor(t.app);
    expect((await idle.signIn('expiry@acme.test', PASSWORD)).status).toBe(303);
    await t.database.db.run('UPDATE panel_sessions SET last_seen_at = 1 WHERE account_id = ? AND expires_at > 1', [
      account?.id ?? '',
    ]);
    expect((await idle.get('/panel')).status).toBe(303);
    expect(await sessionsLeft()).toBe(2);
    expect(await purgeExpiredSessions(t.serviceContext())).toBeGreaterThanOrEqual(2);
    expect(await sessionsLeft()).toBe(0);

    // Expired email link and phone code: refused, nothing verified.
    await worker.drain();
    const mail = await lastMailTo('expiry@acme.test', 'Verify your email address for checkwriter');
    const link =
      /https:\/\/checks\.example\/panel\/verify-email\?token=[A-Za-z0-9_-]+/.exec(mail.text ?? '')?.[0] ?? '';
    await t.database.db.run('UPDATE account_tokens SET expires_at = 1 WHERE account_id = ?', [account?.id ?? '']);
    const dead = await new Visitor(t.app).get(pathOf(link));
    expect(dead.status).toBe(410);
    expect(dead.body).toContain('This verification link has expired.');
    const signedIn = new Visitor(t.app);
    await signedIn.signIn('expiry@acme.test', PASSWORD);
    const late = await signedIn.submit('/panel', '/panel/verify-phone', { code: lastCodeTo('+14155550106') });
    expect(late.status).toBe(422);
    expect(late.body).toContain('That code has expired. Ask for a new one.');
    const row = await t.database.db.get<{ email_verified_at: number | null; phone_verified_at: number | null }>(
      'SELECT email_verified_at, phone_verified_at FROM accounts WHERE id = ?',
      [account?.id ?? ''],
    );
    expect(row).toEqual({ email_verified_at: null, phone_verified_at: null });

    // A new link can be asked for once the last is a minute old; the old one is retired.
    await t.database.db.run('UPDATE account_tokens SET created_at = created_at - 120000 WHERE account_id = ?', [
      account?.id ?? '',
    ]);
    expect((await signedIn.submit('/panel', '/panel/resend', { what: 'email' })).location).toBe(
      '/panel?notice=email-sent',
    );
    expect((await signedIn.submit('/panel', '/panel/resend', { what: 'email' })).location).toBe(
      '/panel?notice=too-soon',
    );

    // An expired reset link shows the dead-link page, and the password stays.
    await new Visitor(t.app).submit('/panel/forgot-password', '/panel/forgot-password', { email: 'expiry@acme.test' });
    await worker.drain();
    const reset = await lastMailTo('expiry@acme.test', 'Reset your checkwriter password');
    const resetLink =
      /https:\/\/checks\.example\/panel\/reset-password\?token=[A-Za-z0-9_-]+/.exec(reset.text ?? '')?.[0] ?? '';
    await t.database.db.run(
      "UPDATE account_tokens SET expires_at = 1 WHERE purpose = 'reset-password' AND account_id = ?",
      [account?.id ?? ''],
    );
    const expired = await new Visitor(t.app).get(pathOf(resetLink));
    expect(expired.status).toBe(410);
    expect(expired.body).toContain('This reset link has expired.');
    expect((await new Visitor(t.app).signIn('expiry@acme.test', PASSWORD)).status).toBe(303);
  });

  it('creates a named key shown once with a curl example, lists it, and revoking it makes the API answer 401', async () => {
    const v = await signedUp('keys@acme.test', '+14155550102');
    const created = await v.submit('/panel/keys', '/panel/keys', { name: 'AP sync', env: 'test' });
    expect(created.status).toBe(201);
    expect(created.headers['cache-control']).toBe('no-store');
    const key = /<code class="secret" id="new-key">([^<]+)<\/code>/.exec(created.body)?.[1] ?? '';
    expect(key.split('.')).toHaveLength(3);
    expect(created.body).toContain(`curl https://checks.example/api/v3/checks \\\n  -H "Authorization: Bearer ${key}"`);
    expect(created.body).toContain('data-copy="new-key"');

    const api = clientFor(t.app, key);
    expect((await api.get('/checks')).status).toBe(200);
    const list = await v.get('/panel/keys');
    expect(list.body).not.toContain(key);
    expect(list.body).toContain('AP sync');
    expect(list.body).toContain(`test…${key.slice(-6)}`);
    const keyId = /action="\/panel\/keys\/(key_[0-9A-Z]+)\/revoke"/.exec(list.body)?.[1] ?? '';

    const revoked = await v.submit('/panel/keys', `/panel/keys/${keyId}/revoke`, {});
    expect(revoked.location).toBe('/panel/keys?notice=key-revoked');
    expect((await api.get('/checks')).status).toBe(401);
    expect((await v.get('/panel/keys')).body).toContain('Revoked');
  });

  it('shows checks with the API filters and paging, a check page with statements and its PDF, and the records lists', async () => {
    const v = await signedUp('work@acme.test', '+14155550103');
    const api = clientFor(t.app, await v.createKey('work'));
    const ids = await seedBasics(api, { name: 'Globex Corporation' });
    const from = await api.post('/customFromAddresses', {
      addresses: [
        {
          name: 'HQ',
          companyName: 'Acme HQ',
          addressLine1: '1 Main St',
          city: 'Springfield',
          state: 'IL',
          zip: '62701',
        },
      ],
    });
    expect(from.status).toBe(201);
    const made = await api.post('/checks', {
      checks: Array.from({ length: 12 }, (_, i) => ({
        ...ids,
        amount: `${100 + i}.25`,
        memo: `Invoice ${i}`,
        referenceId: `ref-${i}`,
      })),
    });
    expect(made.status).toBe(201);
    const firstId = made.body.data.checks[0].checkId as string;
    await api.post('/checks/print', { checkIds: [firstId] });

    const all = await v.get('/panel/checks');
    expect(all.status).toBe(200);
    expect(all.body).toContain('Page 1 of 2 · 12 in all');
    const api10 = await api.get('/checks');
    for (const c of api10.body.data.checks) expect(all.body).toContain(`/panel/checks/${c.checkId}`);
    const paged = await v.get('/panel/checks?perPage=5&page=3');
    expect(paged.body).toContain('Page 3 of 3 · 12 in all');
    // The API's clamping, which clients in the field rely on: page 0 is page 1, perPage 0 the
    // default, a page too large for SQL the last one served, never an error page.
    expect((await v.get('/panel/checks?perPage=0&page=0')).body).toContain('Page 1 of 2 · 12 in all');
    const huge = await v.get('/panel/checks?page=99999999999999999999&perPage=99999999999999999999');
    expect(huge.status).toBe(200);
    expect(huge.body).toContain('12 in all');
    for (const list of ['/panel/payees', '/panel/bank-accounts', '/panel/inbox']) {
      expect((await v.get(`${list}?page=99999999999999999999&perPage=-4`)).status, list).toBe(200);
    }
    const byStatus = await v.get('/panel/checks?status=printed');
    expect(byStatus.body).toContain('1 in all');
    expect(byStatus.body).toContain(`/panel/checks/${firstId}`);
    const byRef = await v.get('/panel/checks?referenceId=ref-7');
    expect(byRef.body).toContain('1 in all');
    expect(byRef.body).toContain('$107.25');
    const byTerm = await v.get('/panel/checks?term=Globex');
    expect(byTerm.body).toContain('12 in all');
    // Live data is separate: the test checks are not there.
    expect((await v.get('/panel/checks?env=live')).body).toContain('0 in all');

    const one = await v.get(`/panel/checks/${firstId}`);
    expect(one.status).toBe(200);
    expect(one.body).toContain('One Hundred and 25/100');
    expect(one.body).toMatch(/<td>created<\/td>[\s\S]*<td>printed<\/td>/);
    const pdf = await v.get(`/panel/checks/${firstId}/pdf`);
    expect(pdf.status).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const parsed = await parsePdf(Buffer.from(pdf.body, 'latin1'));
    expect(parsed).toHaveLength(1);

    expect((await v.get('/panel/payees')).body).toContain('Globex Corporation');
    const banks = await v.get('/panel/bank-accounts');
    expect(banks.body).toContain('First Test Bank');
    expect(banks.body).not.toContain('123456789');
    expect((await v.get('/panel/from-addresses')).body).toContain('Acme HQ');
    expect((await v.get('/panel/payees?term=nomatch')).body).toContain('None match');
  });

  it('shows what test keys sent in the sandbox inbox, with the payee page link working', async () => {
    const v = await signedUp('inbox@acme.test', '+14155550104');
    await t.database.db.run('UPDATE accounts SET email_verified_at = 1, phone_verified_at = 1 WHERE email = ?', [
      'inbox@acme.test',
    ]);
    const api = clientFor(t.app, await v.createKey('inbox'));
    const ids = await seedBasics(api, { name: 'Initech' });
    const checkId = (await api.post('/checks', { checks: [{ ...ids, amount: '42.00' }] })).body.data.checks[0]
      .checkId as string;
    expect((await api.post('/emailchecks', { emailChecks: [{ checkId, enableSmsInform: true }] })).status).toBe(200);
    // Queued, not yet sent: the inbox says the delivery is on its way rather than looking empty.
    expect((await v.get('/panel/inbox')).body).toContain('Sending… 2 messages queued');
    await worker.drain();

    const inbox = await v.get('/panel/inbox');
    expect(inbox.body).not.toContain('Sending…');
    expect(inbox.body).toContain('ap@acme.test');
    expect(inbox.body).toContain('Acme Payables sent you a check for $42.00');
    const messageIds = [...inbox.body.matchAll(/href="\/panel\/inbox\/(msg_[0-9A-Z]+)"/g)].map((m) => m[1]);
    expect(messageIds).toHaveLength(2);
    const emailId = /<td>Email<\/td>[\s\S]*?href="\/panel\/inbox\/(msg_[0-9A-Z]+)"/.exec(inbox.body)?.[1] ?? '';
    expect(messageIds).toContain(emailId);
    const email = await v.get(`/panel/inbox/${emailId}`);
    const link = /href="(https:\/\/checks\.example\/c\/[A-Za-z0-9_-]+)"/.exec(email.body)?.[1] ?? '';
    expect(link).not.toBe('');
    const payeePage = await v.get(pathOf(link));
    expect(payeePage.status).toBe(200);
    expect(payeePage.body).toContain('Acme Payables sent you a check');
    const frame = /src="(\/panel\/inbox\/msg_[0-9A-Z]+\/html)"/.exec(email.body)?.[1] ?? '';
    expect(frame).not.toBe('');
    const mailHtml = await v.get(frame);
    expect(mailHtml.body).toContain('<base target="_blank">');
    expect(mailHtml.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('adds a webhook endpoint, shows its secret and deliveries, and redelivers one', async () => {
    const v = await signedUp('hooks@acme.test', '+14155550105');
    const added = await v.submit('/panel/webhooks', '/panel/webhooks', {
      url: 'http://127.0.0.1:9/hook',
      env: 'test',
      events: ['check.created'],
    });
    expect(added.status).toBe(303);
    const page = await v.get(added.location);
    expect(page.body).toMatch(/id="webhook-secret">whsec_[A-Za-z0-9_-]+</);
    expect(page.body).toContain('No events sent yet');
    const bad = await v.submit('/panel/webhooks', '/panel/webhooks', { url: 'ftp://example.com', env: 'test' });
    expect(bad.status).toBe(422);
    expect(bad.body).toContain('The url field must be an http or https URL.');

    const api = clientFor(t.app, await v.createKey('hooks'));
    const ids = await seedBasics(api);
    await api.post('/checks', { checks: [{ ...ids, amount: '5.00' }] });
    // Nothing listens on port 9: the delivery fails for good after its attempts.
    await t.database.db.run("UPDATE deliveries SET status = 'failed', attempts = 3 WHERE channel = 'webhook'");
    const withLog = await v.get(added.location.split('?')[0] ?? '');
    expect(withLog.body).toContain('check.created');
    const deliveryId = /name="deliveryId" value="(dlv_[0-9A-Z]+)"/.exec(withLog.body)?.[1] ?? '';
    const endpointPath = added.location.split('?')[0] ?? '';
    const again = await v.submit(endpointPath, `${endpointPath}/redeliver`, { deliveryId, env: 'test' });
    expect(again.location).toContain('notice=redelivered');
    const row = await t.database.db.get<{ status: string }>('SELECT status FROM deliveries WHERE id = ?', [deliveryId]);
    expect(row?.status).toBe('queued');
  });
});
