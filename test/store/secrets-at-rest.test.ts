// A copy of the database yields nothing usable: no server secret, no API
// key, payee link, panel session or account token that can be rebuilt or used, and no bank account
// number. Migration 009 moves an old secret out of `settings` into a 0600 file and seals plain
// numbers; `keys rotate-encryption` re-seals under a new data key while old key ids still open.
import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { accountToken } from '../../src/domain/account-tokens.ts';
import { linkToken } from '../../src/domain/payee-links.ts';
import { bankAccountNumberContext, deliveryTokenContext, sealedKeyId, Vault } from '../../src/domain/sealed.ts';
import { tokenHash } from '../../src/domain/secret-tokens.ts';
import { ApiKeys, ensureAccount } from '../../src/services/api-key.service.ts';
import * as accountService from '../../src/services/account.service.ts';
import * as peopleService from '../../src/services/people/people.service.ts';
import { rotateDataKey } from '../../src/services/data-keys.service.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { pino } from 'pino';
import type { Mailer, OutgoingEmail } from '../../src/delivery/mailer.ts';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { dialects, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { BASE, clientFor, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';

const NUMBER = '987654321012';

/** Every row of every table, as pg_dump or a copied file would give it to a thief. */
async function dumpAll(db: Db): Promise<Record<string, Record<string, unknown>[]>> {
  const tables =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        );
  const dump: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of tables) dump[name] = await db.all<Record<string, unknown>>(`SELECT * FROM ${name}`);
  return dump;
}

/** Every string a thief could try as the secret: each value in the dump, as text. */
function candidateSecrets(dump: Record<string, Record<string, unknown>[]>): Buffer[] {
  const out = new Set<string>();
  for (const rows of Object.values(dump)) {
    for (const row of rows)
      for (const value of Object.values(row)) if (typeof value === 'string' && value.length >= 16) out.add(value);
  }
  return [...out].map((s) => Buffer.from(s, 'utf8'));
}

/** The JWT an old-style key would be, rebuilt from its row and a guessed secret. */
function rebuiltKey(secret: Buffer, row: Record<string, unknown>): string {
  const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');
  const claims = { sub: row.id, acc: row.account_id, env: row.env, iat: Math.floor(Number(row.created_at) / 1000) };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${header}.${payload}.${createHmac('sha256', secret).update(`${header}.${payload}`).digest('base64url')}`;
}

/** The SQLite file and its WAL, byte for byte (what copying the data folder gives). */
function sqliteFiles(t: TestDatabase): Buffer {
  const file = t.config.url;
  const dir = file.slice(0, file.lastIndexOf('/'));
  const base = file.slice(file.lastIndexOf('/') + 1);
  return Buffer.concat(
    readdirSync(dir)
      .filter((f) => f.startsWith(base))
      .map((f) => readFileSync(join(dir, f))),
  );
}

describe.each(dialects())('a stolen copy of the database (%s)', (dialect) => {
  let t: TestApp;
  let ctx: ServiceContext;
  let key = '';
  let bankAccountId = '';

  /** What went out: the links in these work; the database must not give them back. */
  const sent: OutgoingEmail[] = [];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    ctx = t.serviceContext();
    const live = await t.client('owner@example.com', { env: 'live' });
    key = live.key;
    const ids = await seedBasics(live);
    const bank = await live.post('/bankAccounts', {
      bankAccounts: [{ name: 'Payroll', routingNumber: '011000015', accountNumber: NUMBER }],
    });
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    const newCheck = async (): Promise<string> =>
      (await live.post('/checks', { checks: [{ ...ids, bankAccountId, amount: 25 }] })).body.data.checks[0].checkId;
    expect((await live.post('/emailchecks', { emailChecks: [{ checkId: await newCheck() }] })).status).toBe(200);
    const account = await accountService.signUp(ctx, {
      company: 'Owner Co',
      email: 'panel@example.com',
      phone: '+14155552671',
      password: 'correct horse battery',
    });
    if (account === null) throw new Error('the email already had an account');
    await peopleService.startSession(ctx, { accountId: account.id, personId: peopleService.ownerIdFor(account.id) });
    await accountService.requestPasswordReset(ctx, 'panel@example.com');
    // Send what is queued (a mail server that keeps what it is given), then queue one more that stays unsent.
    const mailer: Mailer = { send: async (email) => void sent.push(email), close: () => undefined };
    await new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
      secret: t.keys.secret,
      mailer,
      sms: null,
      log: pino({ level: 'silent' }),
    }).drain();
    expect((await live.post('/emailchecks', { emailChecks: [{ checkId: await newCheck() }] })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('holds no server secret and no bank account number, in its rows or (SQLite) its files', async () => {
    const dump = await dumpAll(t.database.db);
    const text = JSON.stringify(dump);
    expect(text).not.toContain(t.keys.secret.toString('utf8'));
    expect(text).not.toContain(NUMBER);
    expect(dump.settings?.map((r) => r.name)).not.toContain('key_signing_secret');
    const stored = dump.bank_accounts?.find((r) => r.id === bankAccountId);
    expect(sealedKeyId(String(stored?.account_number))).not.toBeNull();
    expect(stored?.account_number_masked).toBe('****1012');
    if (dialect === 'sqlite') {
      const bytes = sqliteFiles(t.database);
      expect(bytes.includes(Buffer.from(NUMBER))).toBe(false);
      expect(bytes.includes(t.keys.secret)).toBe(false);
      // The secret is in its own file beside the database, readable by its owner only.
      expect(t.config.secretFile).toBe(t.database.config.url.replace(/\.db$/, '.secret'));
      expect(statSync(t.config.secretFile).mode & 0o777).toBe(0o600);
    }
    // The API still shows the masked number and prints the real one (micr-test-page.test.ts reads it back).
    expect((await clientFor(t.app, key).get(`/bankAccounts/${bankAccountId}`)).body.data.accountNumber).toBe(
      '****1012',
    );
  });

  it('yields no API key, payee link, session or account token that works', async () => {
    const dump = await dumpAll(t.database.db);
    const candidates = candidateSecrets(dump);
    const keyRows = dump.api_keys ?? [];
    const keyHashes = new Set(keyRows.map((r) => r.key_hash));
    // API keys: rebuilt from each row under every candidate secret; none is a stored key, none is let in.
    for (const secret of candidates) {
      for (const row of keyRows) {
        const guess = rebuiltKey(secret, row);
        expect(keyHashes.has(tokenHash(guess))).toBe(false);
      }
    }
    const firstRow = keyRows[0];
    if (firstRow === undefined) throw new Error('no keys in the dump');
    for (const secret of candidates.slice(0, 5)) {
      const reply = await t.app.inject({
        method: 'GET',
        url: `${BASE}/checks`,
        headers: { authorization: `Bearer ${rebuiltKey(secret, firstRow)}` },
      });
      expect(reply.statusCode).toBe(401);
    }
    // Even holding the real secret, a key cannot be rebuilt: it carries 128 random bits.
    for (const row of keyRows) expect(keyHashes.has(tokenHash(rebuiltKey(t.keys.secret, row)))).toBe(false);

    // Payee links and account tokens are derived from their row's id with the server secret.
    const linkHashes = new Set((dump.check_links ?? []).map((r) => r.token_hash));
    const tokenHashes = new Set((dump.account_tokens ?? []).map((r) => r.token_hash));
    expect(linkHashes.size).toBeGreaterThan(0);
    expect(tokenHashes.size).toBeGreaterThan(0);
    for (const secret of candidates) {
      for (const d of dump.deliveries ?? []) {
        const id = String(d.id);
        expect(linkHashes.has(tokenHash(linkToken(secret, id)))).toBe(false);
        expect(tokenHashes.has(tokenHash(accountToken(secret, id)))).toBe(false);
      }
    }
    const someDelivery = String(dump.deliveries?.[0]?.id);
    for (const secret of candidates.slice(0, 5)) {
      expect((await t.app.inject({ method: 'GET', url: `/c/${linkToken(secret, someDelivery)}` })).statusCode).toBe(
        404,
      );
      expect(await accountService.resetLinkState(ctx, accountToken(secret, someDelivery))).toBe('invalid');
    }
    // Sent messages keep no token in their outbox row; an unsent one keeps its token sealed, and
    // no value of the dump opens it.
    const outbox = (dump.deliveries ?? []).filter((d) => d.channel === 'email');
    expect(outbox.filter((d) => d.status === 'sent' && d.sealed_token !== null)).toEqual([]);
    const unsent = outbox.filter((d) => d.status === 'queued');
    expect(unsent).toHaveLength(1);
    for (const secret of candidates) {
      expect(() =>
        new Vault(secret).open(String(unsent[0]?.sealed_token), deliveryTokenContext(String(unsent[0]?.id))),
      ).toThrow();
    }
    // The links that went out work, so the refusals above are not for want of a working link.
    const links = sent
      .map((m) => /\/c\/([A-Za-z0-9_-]+)/.exec(m.text)?.[1])
      .filter((x): x is string => x !== undefined);
    expect(links).toHaveLength(1);
    expect((await t.app.inject({ method: 'GET', url: `/c/${links[0]}` })).statusCode).toBe(200);
    const reset =
      sent.map((m) => /reset-password\?token=([A-Za-z0-9_-]+)/.exec(m.text)?.[1]).find((x) => x !== undefined) ?? '';
    expect(await accountService.resetLinkState(ctx, reset)).toBe('usable');
    for (const stored of [...linkHashes, ...tokenHashes])
      expect((await t.app.inject({ method: 'GET', url: `/c/${String(stored)}` })).statusCode).toBe(404);

    // Sessions: the table holds hashes of random ids; a stored value used as the cookie signs no one in.
    const sessions = dump.panel_sessions ?? [];
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      const page = await t.app.inject({ method: 'GET', url: '/panel', cookies: { cw_session: String(s.id_hash) } });
      expect(page.statusCode).toBe(303);
      expect(await peopleService.sessionFor(ctx, String(s.id_hash))).toBeUndefined();
    }
    // The real key still works: nothing above was refused for being malformed.
    expect((await clientFor(t.app, key).get('/checks')).status).toBe(200);
  });
});

describe.each(dialects())('migration 009 on a database of an older version (%s)', (dialect) => {
  let database: TestDatabase;
  let dir: string;
  const legacySecret = randomBytes(32).toString('base64url');

  beforeAll(async () => {
    database = await freshDatabase(dialect);
    dir = mkdtempSync(join(tmpdir(), 'checkwriter-secret-'));
  });
  afterAll(async () => {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves the secret to a 0600 file, deletes it from settings, seals plain numbers, and old keys keep working', async () => {
    const db = database.db;
    // The state before 009: the secret in settings, numbers in plain text, no masked column.
    await db.run('DELETE FROM schema_migrations WHERE id = 9');
    await db.run('ALTER TABLE bank_accounts DROP COLUMN account_number_masked');
    await db.run('ALTER TABLE deliveries DROP COLUMN sealed_token');
    await db.run('INSERT INTO settings (name, value) VALUES (?, ?)', ['key_signing_secret', legacySecret]);
    const { account } = await ensureAccount(db, { email: 'old@example.com', verified: true });
    const oldKeys = new ApiKeys(db, Buffer.from(legacySecret), new Vault(Buffer.from(legacySecret)));
    const { key } = await oldKeys.create(account.id, 'live', 'from before');
    for (const [i, number] of ['000111222333', '4444'].entries()) {
      await db.run(
        `INSERT INTO bank_accounts (id, account_id, env, name, bank_name, bank_address, routing_number, account_number, next_serial, created_at)
         VALUES (?, ?, 'live', 'Old', '', '', '011000015', ?, 10001, ?)`,
        [`bank_old${i}`, account.id, number, Date.now()],
      );
    }
    // A reset link sent before the upgrade: derived from its id with the old secret.
    const oldLink = accountToken(Buffer.from(legacySecret), 'dlv_old');
    await db.run(
      'INSERT INTO account_tokens (id, account_id, purpose, token_hash, attempts, created_at, expires_at, used_at) VALUES (?, ?, ?, ?, 0, ?, ?, NULL)',
      ['dlv_old', account.id, 'reset-password', tokenHash(oldLink), Date.now(), Date.now() + 3_600_000],
    );
    // Without the server's configuration the migration refuses rather than leave the secret behind.
    await expect(migrate(db)).rejects.toThrow(/migration 009 moves the server secret out of the database/);

    const secretFile = join(dir, 'nested', 'checkwriter.secret');
    expect(await migrate(db, { keySigningSecret: '', secretFile })).toEqual([9]);
    expect(readFileSync(secretFile, 'utf8').trim()).toBe(legacySecret);
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    expect(await db.get('SELECT value FROM settings WHERE name = ?', ['key_signing_secret'])).toBeUndefined();
    const rows = await db.all<{ id: string; account_number: string; account_number_masked: string }>(
      'SELECT id, account_number, account_number_masked FROM bank_accounts ORDER BY id',
    );
    expect(rows.map((r) => r.account_number_masked)).toEqual(['****2333', '4444']);
    for (const r of rows) expect(sealedKeyId(r.account_number)).not.toBeNull();
    if (dialect === 'sqlite') expect(sqliteFiles(database).includes(Buffer.from('000111222333'))).toBe(false);

    // The server now reads the same secret from the file: the key made before still verifies,
    // and the sealed numbers open.
    const keys = await ApiKeys.open(db, { keySigningSecret: '', secretFile });
    expect((await keys.verify(key)).accountId).toBe(account.id);
    expect(keys.vault.open(rows[0]?.account_number ?? '', bankAccountNumberContext('bank_old0'))).toBe('000111222333');
    const config = loadConfig({ ...database.env, SECRET_FILE: secretFile });
    const after: ServiceContext = {
      db,
      config,
      now: Date.now,
      secret: keys.secret,
      vault: keys.vault,
      heavyWork: new InlineHeavyWork(),
    };
    expect(await accountService.resetLinkState(after, oldLink)).toBe('usable');
  });
});

describe.each(dialects())('checkwriter keys rotate-encryption (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t.close());

  it('re-seals every number under a new key id; values under the old id still open until rotated', async () => {
    // Live: a live key's MICR test page opens and prints the number (a test key's prints a test number).
    const api = await t.client('rotate@example.com', { env: 'live' });
    const created = await api.post('/bankAccounts', {
      bankAccounts: [
        { name: 'A', routingNumber: '011000015', accountNumber: '123456789' },
        { name: 'B', routingNumber: '011000015', accountNumber: '55556666' },
      ],
    });
    expect(created.status, created.raw).toBe(201);
    const [a, b] = created.body.data.bankAccounts.map((x: { bankAccountId: string }) => x.bankAccountId);
    const raw = async (id: string): Promise<string> =>
      (
        await t.database.db.get<{ account_number: string }>('SELECT account_number FROM bank_accounts WHERE id = ?', [
          id,
        ])
      )?.account_number ?? '';
    const before = await raw(a);
    const firstKeyId = sealedKeyId(before);
    expect(firstKeyId).not.toBeNull();
    expect(before).not.toContain('123456789');

    const rotation = await rotateDataKey(t.database.db, t.keys.vault);
    expect(rotation.previousKeyId).toBe(firstKeyId);
    expect(rotation.keyId).not.toBe(firstKeyId);
    expect(rotation.resealed).toBeGreaterThanOrEqual(2);
    for (const id of [a, b]) expect(sealedKeyId(await raw(id))).toBe(rotation.keyId);
    expect(t.keys.vault.open(await raw(b), bankAccountNumberContext(b))).toBe('55556666');
    // A value still under the old key id (written by a server during the rotation) opens and prints.
    expect(t.keys.vault.open(before, bankAccountNumberContext(a))).toBe('123456789');
    await t.database.db.run('UPDATE bank_accounts SET account_number = ? WHERE id = ?', [before, a]);
    expect((await api.get(`/bankAccounts/${a}/micr-test.pdf`)).status).toBe(200);
    // New accounts are sealed under the new key id; a second rotation picks the stray one up.
    const c = (
      await api.post('/bankAccounts', {
        bankAccounts: [{ name: 'C', routingNumber: '011000015', accountNumber: '77770000' }],
      })
    ).body.data.bankAccounts[0].bankAccountId;
    expect(sealedKeyId(await raw(c))).toBe(rotation.keyId);
    const again = await rotateDataKey(t.database.db, t.keys.vault);
    for (const id of [a, b, c]) expect(sealedKeyId(await raw(id))).toBe(again.keyId);
    // A sealed number copied into another row does not open there (the row id is bound in).
    expect(() => t.keys.vault.open(before, bankAccountNumberContext(b))).toThrow(/does not open/);

    // Replacing the server secret: with the old secret as `previous`, every number moves to the new one.
    const replaced = new Vault(randomBytes(32));
    const moved = await rotateDataKey(t.database.db, replaced, t.keys.vault);
    expect(moved.resealed).toBe(again.resealed);
    expect(replaced.open(await raw(a), bankAccountNumberContext(a))).toBe('123456789');
    const movedA = await raw(a);
    expect(() => t.keys.vault.open(movedA, bankAccountNumberContext(a))).toThrow(/does not open/);
  });
});

describe('where the server secret may live', () => {
  it('PostgreSQL without KEY_SIGNING_SECRET or SECRET_FILE fails at start with a clear message', () => {
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.example/checkwriter' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'postgres://db.example/checkwriter' })).toThrow(
      /PostgreSQL deployments must keep the server secret outside the database/,
    );
    expect(
      loadConfig({ DATABASE_URL: 'postgres://db.example/checkwriter', SECRET_FILE: '/etc/checkwriter/secret' })
        .secretFile,
    ).toBe('/etc/checkwriter/secret');
    expect(loadConfig({ DATABASE_URL: 'sqlite:./data/checkwriter.db' }).secretFile).toBe('./data/checkwriter.secret');
    expect(() => loadConfig({ KEY_SIGNING_SECRET: 'short' })).toThrow(/at least 32 characters/);
  });
});
