// GET /checks/{id} carries a strong ETag; If-None-Match with it answers 304 with no body while the
// check reads the same, and 200 with the new bytes and a new ETag after any change to what it
// shows: an edit, a void, a print, an approval, a mailing queued and dispatched, a delivery
// statement (the payee's download), a renamed payee. Both databases. The ETag is checked against
// SHA-1 of the bytes received, computed here, and every "changed" is also seen in the body itself.
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tokenHash } from '../../src/domain/secret-tokens.ts';
import { operatorSettle } from '../../src/services/mailing.service.ts';
import { insertLinks } from '../../src/store/payee-links.repository.ts';
import {
  BASE,
  clientFor,
  replyOf,
  type Reply,
  seedBasics,
  startTestApp,
  type Client,
  type TestApp,
} from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { addPerson, type TestPerson } from '../support/people.ts';

const PASSWORD = 'correct horse battery';

function sha1Tag(body: string): string {
  return `"${createHash('sha1').update(body, 'utf8').digest('base64url')}"`;
}

describe.each(dialects())('GET /checks/{id} ETag (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let api: Client;
  let accountId: string;
  let basics: { bankAccountId: string; payeeId: string };
  let approver: TestPerson;
  const email = `etag-owner-${dialect}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const owner = new Visitor(t.app);
    expect(
      (await owner.signUp({ company: 'Tagged Payables', email, phone: '+14155550100', password: PASSWORD })).status,
    ).toBe(303);
    api = clientFor(t.app, await owner.createKey('payables'));
    basics = await seedBasics(api, { address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' });
    accountId = (await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]))?.id ?? '';
    // Email and mail need a verified company.
    await t.database.db.run('UPDATE accounts SET email_verified_at = ?, phone_verified_at = ? WHERE id = ?', [
      Date.now(),
      Date.now(),
      accountId,
    ]);
    approver = await addPerson(t, accountId, {
      email: `etag-approver-${dialect}@example.com`,
      name: 'Ada Approver',
      role: 'approver',
    });
    const set = await owner.submit('/panel/settings/approvals', '/panel/settings/approvals', {
      bankAccountId: '',
      threshold: '1,000',
      approvers: '1',
    });
    expect(set.status).toBe(303);
  });
  afterAll(async () => {
    await t?.close();
  });

  const write = async (amount = '50.00'): Promise<string> => {
    const made = await api.post('/checks', { checks: [{ ...basics, amount }] });
    expect(made.status, made.raw).toBe(201);
    return made.body.data.checks[0].checkId;
  };
  const read = async (id: string, ifNoneMatch?: string): Promise<Reply> =>
    replyOf(
      await t.app.inject({
        method: 'GET',
        url: `${BASE}/checks/${id}`,
        headers: {
          authorization: `Bearer ${api.key}`,
          ...(ifNoneMatch === undefined ? {} : { 'if-none-match': ifNoneMatch }),
        },
      }),
    );
  /** A 200 whose ETag is the SHA-1 of its own bytes; answers that ETag. */
  const tagOf = async (id: string): Promise<{ etag: string; reply: Reply }> => {
    const reply = await read(id);
    expect(reply.status).toBe(200);
    const etag = String(reply.headers.etag);
    expect(etag).toBe(sha1Tag(reply.raw));
    return { etag, reply };
  };
  const expectNotModified = async (id: string, etag: string): Promise<void> => {
    const reply = await read(id, etag);
    expect(reply.status).toBe(304);
    expect(reply.raw).toBe('');
    expect(reply.headers.etag).toBe(etag);
    expect(reply.headers['content-type']).toBeUndefined();
  };
  /** After `change`, the old ETag no longer matches: a 200 with other bytes, their own ETag. */
  const expectChanged = async (id: string, etag: string, before: Reply): Promise<Reply> => {
    const reply = await read(id, etag);
    expect(reply.status).toBe(200);
    expect(reply.raw).not.toBe(before.raw);
    expect(reply.headers.etag).not.toBe(etag);
    expect(reply.headers.etag).toBe(sha1Tag(reply.raw));
    await expectNotModified(id, String(reply.headers.etag));
    return reply;
  };

  it('answers 304 with no body to its own ETag, in any form If-None-Match may name it', async () => {
    const id = await write();
    const { etag, reply } = await tagOf(id);
    await expectNotModified(id, etag);
    for (const header of [`W/${etag}`, `"other", ${etag}`, '*'])
      expect((await read(id, header)).status, header).toBe(304);
    const other = await read(id, '"not-this-one"');
    expect(other.status).toBe(200);
    expect(other.raw).toBe(reply.raw);
    // Without If-None-Match nothing changes but the header: the same body again.
    expect((await read(id)).raw).toBe(reply.raw);
  });

  it('never answers 304 for a check the caller cannot see', async () => {
    const id = await write();
    const { etag } = await tagOf(id);
    const stranger = await t.client(`etag-stranger-${dialect}@example.com`);
    const foreign = replyOf(
      await t.app.inject({
        method: 'GET',
        url: `${BASE}/checks/${id}`,
        headers: { authorization: `Bearer ${stranger.key}`, 'if-none-match': etag },
      }),
    );
    expect(foreign.status).toBe(404);
    expect(foreign.headers.etag).toBeUndefined();
  });

  it('an edit changes it', async () => {
    const id = await write();
    const { etag, reply } = await tagOf(id);
    expect((await api.put(`/checks/${id}`, { memo: 'edited' })).status).toBe(200);
    expect((await expectChanged(id, etag, reply)).body.data.memo).toBe('edited');
  });

  it('a void changes it', async () => {
    const id = await write();
    const { etag, reply } = await tagOf(id);
    expect((await api.post(`/checks/${id}/void`)).status).toBe(200);
    expect((await expectChanged(id, etag, reply)).body.data.checkStatus.description).toBe('Void');
  });

  it('a print changes it', async () => {
    const id = await write();
    const { etag, reply } = await tagOf(id);
    expect((await api.post('/checks/print', { checkIds: [id] })).status).toBe(200);
    const after = await expectChanged(id, etag, reply);
    expect(after.body.data.checkStatements.map((s: { status: string }) => s.status)).toEqual(['created', 'printed']);
  });

  it('an approval changes it', async () => {
    const id = await write('1500.00');
    const { etag, reply } = await tagOf(id);
    expect(reply.body.data.approval.status).toBe('pending');
    const version = await t.database.db.get<{ version: number }>(
      'SELECT version FROM check_approval_rules WHERE check_id = ?',
      [id],
    );
    const approved = await approver.visitor.submit('/panel/approvals', '/panel/approvals/approve', {
      checks: [`${id}:${Number(version?.version)}`],
      reason: '',
    });
    expect(approved.status).toBe(303);
    const after = await expectChanged(id, etag, reply);
    expect(after.body.data.approval).toMatchObject({ status: 'approved', approvals: [{ by: 'Ada Approver' }] });
  });

  it('a mailing queued, then dispatched, changes it each time', async () => {
    const id = await write();
    const first = await tagOf(id);
    const queued = await api.post('/mailchecks', { mailChecks: [{ checkId: id, shippingTypeId: 1 }] });
    expect(queued.status).toBe(200);
    const waiting = await expectChanged(id, first.etag, first.reply);
    expect(waiting.body.data.mailing.status).toBe('queued');
    await operatorSettle(t.database.db, queued.body.data.mailings[0].mailingId, 'dispatched');
    const sent = await expectChanged(id, String(waiting.headers.etag), waiting);
    expect(sent.body.data.mailing.status).toBe('dispatched');
  });

  it("an email and the payee's download (a delivery statement) change it each time", async () => {
    const id = await write();
    const first = await tagOf(id);
    expect((await api.post('/emailchecks', { emailChecks: [{ checkId: id }] })).status).toBe(200);
    const emailed = await expectChanged(id, first.etag, first.reply);
    expect(emailed.body.data.checkStatus.description).toBe('Emailed');
    const token = `etag-link-${dialect}-0123456789abcdef`;
    await insertLinks(t.database.db, { accountId, env: 'test' }, [
      { tokenHash: tokenHash(token), checkId: id, expiresAt: Date.now() + 86_400_000, createdAt: Date.now() },
    ]);
    expect((await t.app.inject({ method: 'POST', url: `/c/${token}/pdf` })).statusCode).toBe(200);
    const downloaded = await expectChanged(id, String(emailed.headers.etag), emailed);
    expect(downloaded.body.data.checkStatements.at(-1).status).toBe('eprinted');
  });

  it('a renamed payee changes it (a name the read joins in)', async () => {
    const payee = await api.post('/payees', { payees: [{ name: 'Before Rename' }] });
    const payeeId = payee.body.data.payees[0].payeeId;
    const made = await api.post('/checks', { checks: [{ ...basics, payeeId, amount: '12.00' }] });
    const id = made.body.data.checks[0].checkId;
    const { etag, reply } = await tagOf(id);
    expect((await api.put(`/payees/${payeeId}`, { name: 'After Rename' })).status).toBe(200);
    expect((await expectChanged(id, etag, reply)).body.data.payee.name).toBe('After Rename');
  });
});
