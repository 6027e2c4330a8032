// The sandbox inbox keeps what test keys "sent", payee links included. A copy of the database must
// not open a test check's payee page: the text, HTML and link of each message are sealed at rest
// (domain/sealed-sandbox.ts), and migration 025 seals the messages an older version stored in
// clear. The inbox (API and panel) still shows each message and its link to its owner, and the
// link works.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sandboxMessageContext, sealedKeyId, Vault } from '../../src/domain/sealed.ts';
import { openSandboxColumns, UNREADABLE_SANDBOX_TEXT } from '../../src/domain/sealed-sandbox.ts';
import { rotateDataKey } from '../../src/services/data-keys.service.ts';
import { allSandboxSealed } from '../../src/store/sandbox-inbox.repository.ts';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import type { Db } from '../../src/store/db.ts';
import { migrate } from '../../src/store/migrate.ts';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { dialects, type TestDatabase } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PUBLIC_URL = 'https://checks.example';
const LINK = /https:\/\/checks\.example\/c\/([A-Za-z0-9_-]+)/;

/** Every row of every table, as pg_dump or a copied file would give it to a thief. */
async function dumpText(db: Db): Promise<string> {
  const tables =
    db.dialect === 'sqlite'
      ? await db.all<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
        )
      : await db.all<{ name: string }>(
          "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        );
  const dump: Record<string, unknown[]> = {};
  for (const { name } of tables) dump[name] = await db.all(`SELECT * FROM ${name}`);
  return JSON.stringify(dump, (_k, v: unknown) =>
    Buffer.isBuffer(v) ? v.toString('latin1') : typeof v === 'bigint' ? String(v) : v,
  );
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

interface InboxMessage {
  messageId: string;
  checkId: string;
  channel: 'email' | 'sms';
  text: string;
  html: string;
  link: string;
}

describe.each(dialects())('the sandbox inbox at rest (%s)', (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let checkId = '';

  const drain = (): Promise<void> =>
    new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: t.config.webhooksAllowPrivate }),
      secret: t.keys.secret,
      mailer: null,
      sms: null,
      log: pino({ level: 'silent' }),
    }).drain();

  const inbox = async (): Promise<InboxMessage[]> => {
    const reply = await api.get('/sandbox/messages?perPage=100');
    expect(reply.status, reply.raw).toBe(200);
    return reply.body.data.messages as InboxMessage[];
  };

  /** The message's token, from what the owner is shown; and that the panel shows and the link opens. */
  const shownAndWorking = async (m: InboxMessage): Promise<string> => {
    const token = LINK.exec(m.link)?.[1] ?? '';
    expect(token.length).toBeGreaterThan(20);
    expect(m.text).toContain(m.link);
    if (m.channel === 'email') expect(m.html).toContain(m.link);
    const page = await visitor.get(`/panel/inbox/${m.messageId}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain(`href="${m.link}"`);
    if (m.channel === 'email') {
      const mail = await visitor.get(`/panel/inbox/${m.messageId}/html`);
      expect(mail.status).toBe(200);
      expect(mail.body).toContain(m.link);
    }
    const payeePage = await t.app.inject({ method: 'GET', url: `/c/${token}` });
    expect(payeePage.statusCode).toBe(200);
    return token;
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL });
    visitor = new Visitor(t.app);
    const signedUp = await visitor.signUp({
      company: 'Sandbox Co',
      email: 'sandbox@example.com',
      phone: '+14155552671',
      password: 'correct horse battery',
    });
    expect(signedUp.status).toBe(303);
    api = clientFor(t.app, await visitor.createKey('test key', 'test'));
    // Emailing checks asks for a verified email and phone; the codes' own flow is tested elsewhere.
    await t.database.db.run('UPDATE accounts SET email_verified_at = ?, phone_verified_at = ? WHERE email = ?', [
      Date.now(),
      Date.now(),
      'sandbox@example.com',
    ]);
    const ids = await seedBasics(api);
    checkId = (await api.post('/checks', { checks: [{ ...ids, amount: '12.34' }] })).body.data.checks[0].checkId;
    const emailed = await api.post('/emailchecks', {
      emailChecks: [{ checkId, payeeEmail: 'payee@example.com', enableSmsInform: true, payeePhone: '(212) 555-0123' }],
    });
    expect(emailed.status, emailed.raw).toBe(200);
    await drain();
  });
  afterAll(() => t.close());

  it('keeps no payee link in clear in any table (nor, on SQLite, in its files); the inbox shows it and it works', async () => {
    const messages = (await inbox()).filter((m) => m.checkId === checkId);
    expect(messages.map((m) => m.channel).sort()).toEqual(['email', 'sms']);
    const tokens = new Set<string>();
    for (const m of messages) tokens.add(await shownAndWorking(m));
    // The email and the text each carry their own delivery's link.
    expect(tokens.size).toBe(2);

    const dump = await dumpText(t.database.db);
    expect(dump).not.toContain(`${PUBLIC_URL}/c/`);
    const files = dialect === 'sqlite' ? sqliteFiles(t.database) : null;
    for (const token of tokens) {
      expect(dump).not.toContain(token);
      if (files !== null) expect(files.includes(Buffer.from(token))).toBe(false);
    }

    // Each column is sealed and bound to its message and column: a value copied elsewhere does not open.
    const rows = await t.database.db.all<{ id: string; text_body: string; html_body: string; link: string }>(
      'SELECT id, text_body, html_body, link FROM sandbox_messages',
    );
    expect(rows.length).toBe(2);
    for (const row of rows)
      for (const v of [row.text_body, row.html_body, row.link]) expect(sealedKeyId(v)).not.toBeNull();
    const [first] = rows;
    if (first === undefined) throw new Error('no row');
    expect(() => t.keys.vault.open(first.link, sandboxMessageContext(first.id, 'text_body'))).toThrow();
    expect(() => t.keys.vault.open(first.link, sandboxMessageContext('msg_other', 'link'))).toThrow();
  });

  it('migration 025 seals messages stored in clear by an older version, and refuses without the server secret', async () => {
    const db = t.database.db;
    const [message] = (await inbox()).filter((m) => m.checkId === checkId && m.channel === 'email');
    if (message === undefined) throw new Error('no email in the inbox');
    const token = LINK.exec(message.link)?.[1] ?? '';
    // The state before 025: the message in clear, as the older version wrote it.
    await db.run('UPDATE sandbox_messages SET text_body = ?, html_body = ?, link = ? WHERE id = ?', [
      message.text,
      message.html,
      message.link,
      message.messageId,
    ]);
    await db.run('DELETE FROM schema_migrations WHERE id = 25');
    expect(await dumpText(db)).toContain(token);
    // The older version's row still shows while it waits for the migration.
    expect((await visitor.get(`/panel/inbox/${message.messageId}`)).body).toContain(`href="${message.link}"`);

    await expect(migrate(db)).rejects.toThrow(/migration 025 encrypts the links of the sandbox inbox/);
    expect(await migrate(db, t.config)).toEqual([25]);

    expect(await dumpText(db)).not.toContain(token);
    if (dialect === 'sqlite') expect(sqliteFiles(t.database).includes(Buffer.from(token))).toBe(false);
    const row = await db.get<{ link: string }>('SELECT link FROM sandbox_messages WHERE id = ?', [message.messageId]);
    expect(sealedKeyId(row?.link ?? '')).not.toBeNull();
    const after = (await inbox()).find((m) => m.messageId === message.messageId);
    expect(after).toEqual(message);
    if (after !== undefined) expect(await shownAndWorking(after)).toBe(token);
  });

  it('a message sealed under a replaced server secret shows a note, not an error', async () => {
    const db = t.database.db;
    const [row] = await db.all<{ id: string }>('SELECT id FROM sandbox_messages ORDER BY id LIMIT 1');
    if (row === undefined) throw new Error('no message');
    const other = new Vault(randomBytes(32));
    await db.run('UPDATE sandbox_messages SET text_body = ?, link = ? WHERE id = ?', [
      other.seal('x', 'kother', sandboxMessageContext(row.id, 'text_body')),
      other.seal('x', 'kother', sandboxMessageContext(row.id, 'link')),
      row.id,
    ]);
    const shown = (await inbox()).find((m) => m.messageId === row.id);
    expect(shown).toMatchObject({ text: UNREADABLE_SANDBOX_TEXT, html: '', link: '' });
    const page = await visitor.get(`/panel/inbox/${row.id}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('can no longer be shown');
  });

  it('keys rotate-encryption with the previous secret moves the inbox to the new one, leaving what opens with neither', async () => {
    const db = t.database.db;
    const before = await allSandboxSealed(db);
    const old = (m: (typeof before)[number]) => openSandboxColumns(m, (v, c) => t.keys.vault.open(v, c));
    const readable = before.filter((m) => {
      try {
        old(m);
        return true;
      } catch {
        return false;
      }
    });
    // The previous test left one message that opens with neither secret.
    expect(readable.length).toBe(before.length - 1);
    // One stored in clear, as an old server writes it during a rolling upgrade: the rotation seals it.
    const [plain] = readable;
    if (plain === undefined) throw new Error('no readable message');
    const inClear = old(plain);
    await db.run('UPDATE sandbox_messages SET text_body = ?, html_body = ?, link = ? WHERE id = ?', [
      inClear.text,
      inClear.html,
      inClear.link,
      plain.id,
    ]);
    const replaced = new Vault(randomBytes(32));
    const rotation = await rotateDataKey(db, replaced, t.keys.vault);
    expect(rotation.sandboxResealed).toBe(readable.length);
    const after = new Map((await allSandboxSealed(db)).map((m) => [m.id, m]));
    for (const m of readable) {
      const moved = after.get(m.id);
      if (moved === undefined) throw new Error('message gone');
      expect(sealedKeyId(moved.link)).toBe(rotation.keyId);
      expect(openSandboxColumns(moved, (v, c) => replaced.open(v, c))).toEqual(old(m));
      expect(() => old(moved)).toThrow();
    }
  });
});
