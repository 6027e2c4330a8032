// The second factor through the panel, on both databases: codes computed by the test's own RFC 6238
// (test/support/rfc6238.ts, checked here against the RFC's vectors), a code refused when reused,
// the shared failure limit, single-use recovery codes (recorded and emailed), the sealed secret,
// enrolment required by role and by the owner's setting, and step-up after ten minutes — the
// clock moved through the app's own clock (buildApp's `now`).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { ApiKeys } from '../../src/services/api-key.service.ts';
import { randomBytes } from 'node:crypto';
import { sealedKeyId, totpSecretContext, Vault } from '../../src/domain/sealed.ts';
import { rotateDataKey } from '../../src/services/data-keys.service.ts';
import { matchingStep } from '../../src/services/people/second-factor.service.ts';
import { hashPassword } from '../../src/services/password.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { base32Decode, totp } from '../support/rfc6238.ts';

const PASSWORD = 'correct horse battery';

describe('RFC 6238 as the tests compute it', () => {
  // Appendix B, SHA-1, key "12345678901234567890", eight digits.
  const key = Buffer.from('12345678901234567890', 'ascii');
  it.each([
    [59, '94287082'],
    [1111111109, '07081804'],
    [1111111111, '14050471'],
    [1234567890, '89005924'],
    [2000000000, '69279037'],
    [20000000000, '65353130'],
  ])('T = %i s gives %s', (seconds, code) => {
    expect(totp(key, seconds, 8)).toBe(code);
  });

  it('the service accepts the six-digit code of the RFC key within one step, and no other', () => {
    // The RFC key in base32, as an authenticator app is given it.
    const secret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
    expect(base32Decode(secret).equals(key)).toBe(true);
    const code = totp(key, 59);
    expect(code).toBe('287082');
    expect(matchingStep(secret, code, 59_000)).toBe(1);
    expect(matchingStep(secret, code, 59_000 + 30_000)).toBe(1);
    expect(matchingStep(secret, code, 59_000 + 60_000)).toBeNull();
    expect(matchingStep(secret, '287083', 59_000)).toBeNull();
  });
});

describe.each(dialects())('second factor in the panel (%s)', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;
  let keys: ApiKeys;
  let clock = Date.UTC(2026, 10, 29, 9, 0, 0);
  const now = (): number => clock;
  /** Moves the app's clock; the codes follow it. */
  const advance = (ms: number): void => {
    clock += ms;
  };

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      RATE_LIMIT_PER_KEY: '0',
      FAILED_REQUEST_LIMIT_PER_MINUTE: '0',
      SECOND_FACTOR_REQUIRED: 'true',
      ...database.env,
    });
    keys = await ApiKeys.open(database.db, config);
    app = await buildApp(config, { db: database.db, keys, now });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  const codeNow = (secret: string): string => totp(base32Decode(secret), Math.floor(clock / 1000));

  /** Signs up an owner and enrols an authenticator app; answers the secret and the recovery codes. */
  async function ownerWithApp(
    email: string,
    company: string,
  ): Promise<{ v: Visitor; secret: string; codes: string[] }> {
    const v = new Visitor(app);
    expect((await v.signUp({ company, email, phone: '+14155552671', password: PASSWORD })).status).toBe(303);
    // An owner without a factor is sent to enrol before anything else.
    const home = await v.get('/panel');
    expect(home.status).toBe(303);
    expect(home.location).toBe('/panel/security?notice=factor-required');
    expect((await v.submit('/panel/security', '/panel/security/totp/start', {})).status).toBe(303);
    const page = await v.get('/panel/security');
    const secret = (/id="totp-secret">([^<]+)</.exec(page.body)?.[1] ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(page.body).toContain('data:image/svg+xml;base64,');
    const confirmed = await v.submit('/panel/security', '/panel/security/totp/confirm', { code: codeNow(secret) });
    expect(confirmed.status).toBe(200);
    const codes = [...confirmed.body.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1] ?? '');
    expect(codes).toHaveLength(10);
    expect((await v.get('/panel')).status).toBe(200);
    return { v, secret, codes };
  }

  const personId = async (email: string): Promise<string> =>
    String((await database.db.get<{ id: string }>('SELECT id FROM people WHERE email = ?', [email]))?.id);

  it('enrols an app by QR code and secret, seals the secret, and asks for a code after the password', async () => {
    const { secret } = await ownerWithApp('ada@factor.test', 'Factor Co');
    const id = await personId('ada@factor.test');
    const row = await database.db.get<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM person_totp WHERE person_id = ?',
      [id],
    );
    expect(row?.sealed_secret.startsWith('cw1.')).toBe(true);
    expect(row?.sealed_secret).not.toContain(secret);
    const hashes = await database.db.all<{ code_hash: string }>(
      'SELECT code_hash FROM recovery_codes WHERE person_id = ?',
      [id],
    );
    expect(hashes).toHaveLength(10);

    advance(30_000);
    const v = new Visitor(app);
    const signedIn = await v.signIn('ada@factor.test', PASSWORD);
    expect(signedIn.location).toBe('/panel/sign-in/factor?next=%2Fpanel');
    // Half-signed: every page but the factor's sends back to it, and no form goes through.
    expect((await v.get('/panel/checks')).location).toBe('/panel/sign-in/factor?next=%2Fpanel%2Fchecks');
    expect((await v.post('/panel/keys', { name: 'x', env: 'test' })).status).toBe(401);
    const wrong = await v.submit('/panel/sign-in/factor', '/panel/sign-in/factor', {
      code: '000000' === codeNow(secret) ? '111111' : '000000',
    });
    expect(wrong.status).toBe(401);
    const code = codeNow(secret);
    const passed = await v.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code });
    expect(passed.status).toBe(303);
    expect(passed.location).toBe('/panel');
    expect((await v.get('/panel')).status).toBe(200);

    // The same code again, within its window, from another browser: refused.
    const other = new Visitor(app);
    await other.signIn('ada@factor.test', PASSWORD);
    const reused = await other.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code });
    expect(reused.status).toBe(401);
    expect(reused.body).toContain('already used');
    expect((await other.get('/panel')).status).toBe(303);
    advance(30_000);
    expect(
      (await other.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code: codeNow(secret) })).status,
    ).toBe(303);

    const events = await database.db.all<{ action: string }>(
      "SELECT action FROM audit_events WHERE action LIKE 'second-factor.%'",
    );
    const actions = events.map((e) => e.action);
    expect(actions).toContain('second-factor.enrolled');
    expect(actions).toContain('second-factor.passed');
    expect(actions).toContain('second-factor.failed');
    // No secret or code is in the trail.
    const trail = await database.db.all<{ changes: string }>('SELECT changes FROM audit_events');
    for (const row of trail) {
      expect(String(row.changes)).not.toContain(secret);
      expect(String(row.changes)).not.toContain(code);
    }
  });

  it('takes a recovery code once, records it and emails the person', async () => {
    const { codes } = await ownerWithApp('grace@factor.test', 'Recovery Co');
    const recovery = (codes[3] ?? '').toUpperCase();
    const v = new Visitor(app);
    await v.signIn('grace@factor.test', PASSWORD);
    const used = await v.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code: recovery });
    expect(used.status).toBe(303);
    expect((await v.get('/panel')).status).toBe(200);
    const again = new Visitor(app);
    await again.signIn('grace@factor.test', PASSWORD);
    expect((await again.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code: recovery })).status).toBe(401);
    const account = await database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'grace@factor.test',
    ]);
    const recorded = await database.db.all<{ action: string }>(
      "SELECT action FROM audit_events WHERE account_id = ? AND action = 'second-factor.recovery-code-used'",
      [String(account?.id)],
    );
    expect(recorded).toHaveLength(1);
    const mails = await database.db.all<{ recipient: string; payload: string }>(
      'SELECT recipient, payload FROM deliveries WHERE account_id = ? AND recipient = ?',
      [String(account?.id), 'grace@factor.test'],
    );
    const notices = mails.filter((m) => String(m.payload).includes('recovery-code-used'));
    expect(notices).toHaveLength(1);
    expect(String(notices[0]?.payload)).not.toContain(codes[3] ?? '-');
  });

  it('limits failed codes to five per fifteen minutes per person, across browsers and addresses', async () => {
    const { secret } = await ownerWithApp('limit@factor.test', 'Limit Co');
    advance(30_000);
    for (let i = 0; i < 5; i += 1) {
      const v = new Visitor(app);
      await v.signIn('limit@factor.test', PASSWORD);
      const wrong = codeNow(secret) === '123456' ? '654321' : '123456';
      expect((await v.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code: wrong })).status).toBe(401);
    }
    const v = new Visitor(app);
    await v.signIn('limit@factor.test', PASSWORD);
    const refused = await v.submit('/panel/sign-in/factor', '/panel/sign-in/factor', { code: codeNow(secret) });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await v.get('/panel')).status).toBe(303);
  });

  it('asks for the factor again after ten minutes before bank accounts and live keys, then returns', async () => {
    const { v, secret } = await ownerWithApp('step@factor.test', 'Step Co');
    expect((await v.get('/panel/bank-accounts/new')).status).toBe(200);
    const form = await v.get('/panel/bank-accounts/new');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(form.body)?.[1] ?? '';
    advance(10 * 60 * 1000 + 1_000);
    const away = await v.get('/panel/bank-accounts/new');
    expect(away.status).toBe(303);
    expect(away.location).toBe('/panel/step-up?next=%2Fpanel%2Fbank-accounts%2Fnew');
    const account = await database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'step@factor.test',
    ]);
    const count = async (table: string) =>
      Number(
        (
          await database.db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table} WHERE account_id = ?`, [
            String(account?.id),
          ])
        )?.n,
      );
    const posted = await v.post(
      '/panel/bank-accounts',
      { _csrf: csrf, name: 'Operating', bankName: 'First', routingNumber: '011000015', accountNumber: '123456789' },
      { referer: 'http://localhost/panel/bank-accounts/new' },
    );
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/panel/step-up?next=%2Fpanel%2Fbank-accounts%2Fnew');
    expect(await count('bank_accounts')).toBe(0);
    const keysBefore = await count('api_keys');
    const keysPage = await v.get('/panel/keys');
    const live = await v.post('/panel/keys', {
      _csrf: /name="_csrf" value="([^"]+)"/.exec(keysPage.body)?.[1] ?? '',
      name: 'Live',
      env: 'live',
    });
    expect(live.status).toBe(303);
    expect(live.location).toMatch(/^\/panel\/step-up\?next=/);
    expect(await count('api_keys')).toBe(keysBefore);
    // Approving and rejecting checks wait for the factor too (nothing is decided meanwhile).
    const queue = await v.get('/panel/approvals');
    expect(queue.status).toBe(200);
    const queueCsrf = /name="_csrf" value="([^"]+)"/.exec(queue.body)?.[1] ?? '';
    for (const act of ['approve', 'reject']) {
      const decided = await v.post(
        `/panel/approvals/${act}`,
        { _csrf: queueCsrf, checkId: 'chk_none' },
        { referer: 'http://localhost/panel/approvals' },
      );
      expect(decided.status).toBe(303);
      expect(decided.location).toBe('/panel/step-up?next=%2Fpanel%2Fapprovals');
    }

    // Adding a passkey waits for the factor too: the page links to the proof instead of the form.
    const security = await v.get('/panel/security');
    expect(security.body).toContain('href="/panel/step-up?next=%2Fpanel%2Fsecurity"');
    expect(security.body).not.toContain('data-passkey="register"');

    const back = await v.submit('/panel/step-up?next=%2Fpanel%2Fbank-accounts%2Fnew', '/panel/step-up', {
      code: codeNow(secret),
      next: '/panel/bank-accounts/new',
    });
    expect(back.status).toBe(303);
    expect(back.location).toBe('/panel/bank-accounts/new');
    expect((await v.get('/panel/bank-accounts/new')).status).toBe(200);
  });

  it('sends an approver or, when the owner asks, anyone without a factor to enrol first', async () => {
    const { v: owner, secret } = await ownerWithApp('boss@factor.test', 'Policy Co');
    const account = await database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'boss@factor.test',
    ]);
    const hash = await hashPassword(PASSWORD);
    for (const role of ['approver', 'accountant']) {
      await database.db.run('INSERT INTO people (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)', [
        `per_policy${role}`,
        `${role}@factor.test`,
        role,
        hash,
        clock,
      ]);
      await database.db.run(
        'INSERT INTO memberships (account_id, person_id, role, approves, created_at) VALUES (?, ?, ?, 0, ?)',
        [String(account?.id), `per_policy${role}`, role, clock],
      );
    }
    const approver = new Visitor(app);
    await approver.signIn('approver@factor.test', PASSWORD);
    expect((await approver.get('/panel/checks')).location).toBe('/panel/security?notice=factor-required');
    // Signing out stays open.
    expect((await approver.submit('/panel/security', '/panel/sign-out', {})).status).toBe(303);

    const accountant = new Visitor(app);
    await accountant.signIn('accountant@factor.test', PASSWORD);
    expect((await accountant.get('/panel/checks')).status).toBe(200);

    // The owner requires it of everyone (a step-up act: proven just now at enrolment).
    advance(1_000);
    expect((await owner.submit('/panel/security', '/panel/security/require', { required: 'yes' })).status).toBe(303);
    expect((await accountant.get('/panel/checks')).location).toBe('/panel/security?notice=factor-required');
    // A body without the form's yes/no (or with another word) is refused: not read as "no", which
    // would stop requiring it.
    for (const form of [{}, { required: '' }, { required: 'Yes' }] as Record<string, string>[]) {
      const refused = await owner.submit('/panel/security', '/panel/security/require', form);
      expect(refused.status).toBe(422);
      expect(refused.body).toContain('Use the button on the security page');
    }
    expect((await accountant.get('/panel/checks')).location).toBe('/panel/security?notice=factor-required');
    // Forms are refused in words, before anything is written.
    const page = await accountant.get('/panel/security');
    const refused = await accountant.post('/panel/payees', {
      _csrf: /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '',
      name: 'X',
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Set up a second factor first');
    expect(codeNow(secret)).toMatch(/^\d{6}$/);
  });

  // Last: it replaces the server secret under the app.
  it('re-seals app secrets when the server secret is replaced, so the factor survives the rotation', async () => {
    const { secret } = await ownerWithApp('rotate@factor.test', 'Rotate Co');
    const id = await personId('rotate@factor.test');
    const replaced = new Vault(randomBytes(32));
    const rotation = await rotateDataKey(database.db, replaced, keys.vault);
    expect(rotation.totpResealed).toBeGreaterThan(0);
    const row = await database.db.get<{ sealed_secret: string }>(
      'SELECT sealed_secret FROM person_totp WHERE person_id = ?',
      [id],
    );
    expect(sealedKeyId(String(row?.sealed_secret))).toBe(rotation.keyId);
    expect(replaced.open(String(row?.sealed_secret), totpSecretContext(id))).toBe(secret);
  });
});
