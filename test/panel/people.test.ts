// People of a company through the panel, on both databases: invitations (single use, 7 days,
// revocable, refused for someone already in, email case ignored), joining as a new or an existing
// person, role changes and removals that end the person's sessions at once, the last owner's rule
// (also under two changes at once), the company switcher, and the audit trail of all of it.
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpWebhookSender } from '../../src/delivery/webhook-sender.ts';
import { DeliveryWorker } from '../../src/services/delivery-worker.service.ts';
import { deliveryTokenContext } from '../../src/domain/sealed.ts';
import { tokenHash } from '../../src/domain/secret-tokens.ts';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { snapshotTables } from '../support/table-snapshot.ts';

const PASSWORD = 'correct horse battery';
let companies = 0;

describe.each(dialects())('people of a company (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => {
    await t.close();
  });

  /** A new company and its signed-in owner. */
  const company = async (name: string): Promise<{ owner: Visitor; accountId: string; email: string }> => {
    const email = `owner${++companies}@people.test`;
    const owner = new Visitor(t.app);
    expect((await owner.signUp({ company: name, email, phone: '+14155552671', password: PASSWORD })).status).toBe(303);
    const row = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [email]);
    return { owner, accountId: row?.id ?? '', email };
  };

  /** The link token of the newest invitation email queued to `email` (sealed in the outbox row). */
  const linkTo = async (email: string): Promise<string> => {
    const row = await t.database.db.get<{ id: string; sealed_token: string }>(
      'SELECT id, sealed_token FROM deliveries WHERE recipient = ? ORDER BY created_at DESC, id DESC LIMIT 1',
      [email.toLowerCase()],
    );
    if (row === undefined) throw new Error(`no invitation to ${email}`);
    return t.keys.vault.open(row.sealed_token, deliveryTokenContext(row.id));
  };

  const invite = (v: Visitor, email: string, role: string, extra: Record<string, string> = {}) =>
    v.submit('/panel/people', '/panel/people/invite', { email, role, via: 'sandbox', ...extra });

  /** A new person accepting `token`: name and password on the join page. */
  const joinAsNew = async (token: string, name = 'New Person'): Promise<{ v: Visitor; status: number }> => {
    const v = new Visitor(t.app);
    const response = await v.submit(`/panel/join/${token}`, `/panel/join/${token}`, { name, password: PASSWORD });
    return { v, status: response.status };
  };

  const personId = async (email: string): Promise<string> =>
    (await t.database.db.get<{ id: string }>('SELECT id FROM people WHERE email = ?', [email]))?.id ?? '';

  const actions = async (accountId: string): Promise<string[]> =>
    (
      await t.database.db.all<{ action: string }>('SELECT action FROM audit_events WHERE account_id = ? ORDER BY seq', [
        accountId,
      ])
    ).map((r) => r.action);

  it('invites by a single-use link; a new person sets a name and password and is signed in with the role', async () => {
    const { owner, accountId } = await company('Acme Payables');
    expect((await invite(owner, 'Clerk@Acme.test', 'accountant')).status).toBe(303);
    const stored = await t.database.db.get<{
      email: string;
      token_hash: string;
      expires_at: number;
      created_at: number;
    }>('SELECT email, token_hash, expires_at, created_at FROM invitations WHERE account_id = ?', [accountId]);
    expect(stored?.email).toBe('clerk@acme.test');
    expect(Number(stored?.expires_at) - Number(stored?.created_at)).toBe(7 * 24 * 3600 * 1000);
    const token = await linkTo('clerk@acme.test');
    // Only the hash is kept.
    expect(stored?.token_hash).toBe(tokenHash(token));
    expect(stored?.token_hash).not.toContain(token);

    const page = await new Visitor(t.app).get(`/panel/join/${token}`);
    expect(page.status).toBe(200);
    expect(page.body).toContain('Acme Payables');
    expect(page.body).toContain('Accountant');

    const { v, status } = await joinAsNew(token, 'Casey Clerk');
    expect(status).toBe(303);
    const home = await v.get('/panel');
    expect(home.status).toBe(200);
    const member = await t.database.db.get<{ role: string }>(
      'SELECT role FROM memberships WHERE account_id = ? AND person_id = ?',
      [accountId, await personId('clerk@acme.test')],
    );
    expect(member?.role).toBe('accountant');
    expect((await owner.get('/panel/people')).body).toContain('Casey Clerk');
    expect(await actions(accountId)).toEqual(expect.arrayContaining(['invitation.sent', 'person.joined', 'sign-in']));
  });

  it('refuses a reused, forged, expired or revoked link with its own page, writing nothing', async () => {
    const { owner, accountId } = await company('Reuse Co');
    await invite(owner, 'once@reuse.test', 'viewer');
    const token = await linkTo('once@reuse.test');
    expect((await joinAsNew(token)).status).toBe(303);

    const tryAgain = async (link: string, status: number, words: string) => {
      const before = await snapshotTables(t.database.db);
      const v = new Visitor(t.app);
      const shown = await v.get(`/panel/join/${link}`);
      expect(shown.status).toBe(status);
      expect(shown.body).toContain(words);
      // The refusal page has no form; the token of any page of this browser goes with the post.
      const csrf = csrfOf((await v.get('/panel/sign-in')).body);
      const posted = await v.post(`/panel/join/${link}`, { _csrf: csrf, name: 'Mallory', password: PASSWORD });
      expect(posted.status).toBe(status);
      expect(await snapshotTables(t.database.db)).toEqual(before);
    };
    await tryAgain(token, 410, 'already used');
    await tryAgain(`${token.slice(0, -2)}xy`, 404, 'not valid');

    await invite(owner, 'late@reuse.test', 'viewer');
    const late = await linkTo('late@reuse.test');
    await t.database.db.run('UPDATE invitations SET expires_at = ? WHERE token_hash = ?', [
      Date.now() - 1,
      tokenHash(late),
    ]);
    await tryAgain(late, 410, 'expired');

    await invite(owner, 'gone@reuse.test', 'viewer');
    const revokedLink = await linkTo('gone@reuse.test');
    const id = (
      await t.database.db.get<{ id: string }>('SELECT id FROM invitations WHERE token_hash = ?', [
        tokenHash(revokedLink),
      ])
    )?.id;
    expect((await owner.submit('/panel/people', `/panel/people/invitations/${id}/revoke`, {})).status).toBe(303);
    await tryAgain(revokedLink, 410, 'withdrawn');
    expect(await actions(accountId)).toContain('invitation.revoked');
  });

  it('joins once when the same link is accepted twice at once', async () => {
    const { owner, accountId } = await company('Twice At Once Co');
    await invite(owner, 'racer@twice.test', 'viewer');
    const token = await linkTo('racer@twice.test');
    const a = new Visitor(t.app);
    const b = new Visitor(t.app);
    const [pageA, pageB] = [await a.get(`/panel/join/${token}`), await b.get(`/panel/join/${token}`)];
    const [x, y] = await Promise.all([
      a.post(`/panel/join/${token}`, { _csrf: csrfOf(pageA.body), name: 'A', password: PASSWORD }),
      b.post(`/panel/join/${token}`, { _csrf: csrfOf(pageB.body), name: 'B', password: PASSWORD }),
    ]);
    expect([x.status, y.status].sort()).toEqual([303, 410]);
    const joined = await t.database.db.get<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM memberships m JOIN people p ON p.id = m.person_id WHERE m.account_id = ? AND p.email = ?',
      [accountId, 'racer@twice.test'],
    );
    expect(Number(joined?.n)).toBe(1);
  });

  it('refuses to invite someone already in the company, whatever the case of the email', async () => {
    const { owner, accountId, email } = await company('Member Co');
    const before = await snapshotTables(t.database.db);
    const refused = await invite(owner, email.toUpperCase(), 'viewer');
    expect(refused.status).toBe(409);
    expect(refused.body).toContain('is already in Member Co');
    expect(await snapshotTables(t.database.db)).toEqual(before);
    // A second invitation to the same email (another case) replaces the first: one link works.
    await invite(owner, 'twice@member.test', 'viewer');
    const first = await linkTo('twice@member.test');
    await invite(owner, 'TWICE@member.test', 'accountant');
    const second = await linkTo('twice@member.test');
    expect((await new Visitor(t.app).get(`/panel/join/${first}`)).status).toBe(410);
    expect((await joinAsNew(second)).status).toBe(303);
    const role = await t.database.db.get<{ role: string }>(
      'SELECT role FROM memberships WHERE account_id = ? AND person_id = ?',
      [accountId, await personId('twice@member.test')],
    );
    expect(role?.role).toBe('accountant');
  });

  it('lets an existing person join after signing in, then switch between companies; others are not found', async () => {
    const a = await company('Alpha Books');
    const b = await company('Beta Books');
    await invite(a.owner, b.email, 'admin');
    const token = await linkTo(b.email);
    // Not signed in: they may not set a new password for an email that has one.
    const before = await snapshotTables(t.database.db);
    const stranger = new Visitor(t.app);
    const shown = await stranger.get(`/panel/join/${token}`);
    expect(shown.body).toContain('Sign in to join');
    const forced = await stranger.post(`/panel/join/${token}`, {
      _csrf: csrfOf((await stranger.get('/panel/sign-in')).body),
      name: 'Mallory',
      password: 'another password!',
    });
    expect(forced.status).toBe(303);
    expect(forced.location).toContain('/panel/sign-in?next=');
    expect(await snapshotTables(t.database.db)).toEqual(before);
    // Someone else signed in is told the link is not theirs.
    expect((await a.owner.get(`/panel/join/${token}`)).status).toBe(403);

    expect((await b.owner.submit(`/panel/join/${token}`, `/panel/join/${token}`, {})).status).toBe(303);
    const home = await b.owner.get('/panel');
    expect(home.body).toContain('Switch company');
    const session = async () =>
      (
        await t.database.db.get<{ account_id: string }>('SELECT account_id FROM panel_sessions WHERE id_hash = ?', [
          tokenHash(b.owner.cookies.get('cw_session') ?? ''),
        ])
      )?.account_id;
    expect(await session()).toBe(a.accountId);
    expect((await b.owner.submit('/panel', '/panel/switch-company', { account: b.accountId })).status).toBe(303);
    expect(await session()).toBe(b.accountId);
    const c = await company('Gamma Books');
    const before2 = await snapshotTables(t.database.db);
    expect((await b.owner.submit('/panel', '/panel/switch-company', { account: c.accountId })).status).toBe(404);
    expect((await b.owner.submit('/panel', '/panel/switch-company', { account: 'acct_nothing' })).status).toBe(404);
    expect(await snapshotTables(t.database.db)).toEqual(before2);
    expect(await actions(b.accountId)).toContain('company.switched');
    expect(await actions(a.accountId)).toEqual(expect.arrayContaining(['person.joined', 'company.switched']));
  });

  it('ends a person’s sessions in the company at once when their role changes or they are removed', async () => {
    const { owner, accountId } = await company('Session Co');
    await invite(owner, 'moved@session.test', 'accountant');
    const { v: moved } = await joinAsNew(await linkTo('moved@session.test'));
    await invite(owner, 'removed@session.test', 'accountant');
    const { v: removed } = await joinAsNew(await linkTo('removed@session.test'));
    expect((await moved.get('/panel')).status).toBe(200);
    expect((await removed.get('/panel')).status).toBe(200);

    const movedId = await personId('moved@session.test');
    expect(
      (
        await owner.submit('/panel/people', `/panel/people/${movedId}/role`, {
          from: 'accountant',
          fromApproves: '0',
          role: 'viewer',
        })
      ).status,
    ).toBe(303);
    expect((await moved.get('/panel')).status).toBe(303);
    expect((await moved.signIn('moved@session.test', PASSWORD)).status).toBe(303);
    const print = await moved.submit('/panel/checks', '/panel/checks/print', {});
    expect(print.status).toBe(403);
    expect(print.body).toContain('Your role, Viewer, can&#39;t print checks.');

    const removedId = await personId('removed@session.test');
    expect((await owner.submit('/panel/people', `/panel/people/${removedId}/remove`, {})).status).toBe(303);
    // A form posted from a page opened before the removal: signed out, nothing done.
    expect((await removed.post('/panel/people/leave', { _csrf: 'x', confirm: 'leave' })).status).toBe(401);
    expect((await removed.get('/panel')).status).toBe(303);
    expect(await actions(accountId)).toEqual(expect.arrayContaining(['person.role-changed', 'person.removed']));
    const changed = await t.database.db.get<{ changes: string }>(
      "SELECT changes FROM audit_events WHERE account_id = ? AND action = 'person.role-changed'",
      [accountId],
    );
    expect(changed?.changes).toContain('Accountant');
    expect(changed?.changes).toContain('Viewer');
  });

  it('keeps the last owner: not demoted, not removed, cannot leave; admins never make or touch owners', async () => {
    const { owner, accountId, email } = await company('Owner Co');
    const ownerId = await personId(email);
    await invite(owner, 'admin@owner.test', 'admin');
    const { v: admin } = await joinAsNew(await linkTo('admin@owner.test'));
    const before = await snapshotTables(t.database.db);
    const leave = await owner.submit('/panel/people', '/panel/people/leave', { confirm: 'leave' });
    expect(leave.status).toBe(409);
    expect(leave.body).toContain('A company needs an owner');
    // An admin can neither demote nor remove the owner, nor make an owner.
    const demote = await admin.submit('/panel/people', `/panel/people/${ownerId}/role`, {
      from: 'owner',
      fromApproves: '0',
      role: 'viewer',
    });
    expect(demote.status).toBe(403);
    expect((await admin.submit('/panel/people', `/panel/people/${ownerId}/remove`, {})).status).toBe(403);
    expect((await invite(admin, 'boss@owner.test', 'owner')).status).toBe(403);
    expect(await snapshotTables(t.database.db)).toEqual(before);
    expect(
      (
        await t.database.db.get<{ role: string }>(
          'SELECT role FROM memberships WHERE account_id = ? AND person_id = ?',
          [accountId, ownerId],
        )
      )?.role,
    ).toBe('owner');
  });

  it('two owners demoting each other at once leave one owner; two changes from the same role: one wins, one is told', async () => {
    const { owner, accountId, email } = await company('Race Co');
    await invite(owner, 'second@race.test', 'owner');
    const { v: second } = await joinAsNew(await linkTo('second@race.test'));
    const firstId = await personId(email);
    const secondId = await personId('second@race.test');
    const pageA = csrfOf((await owner.get('/panel/people')).body);
    const pageB = csrfOf((await second.get('/panel/people')).body);
    const [a, b] = await Promise.all([
      owner.post(`/panel/people/${secondId}/role`, { _csrf: pageA, from: 'owner', fromApproves: '0', role: 'viewer' }),
      second.post(`/panel/people/${firstId}/role`, { _csrf: pageB, from: 'owner', fromApproves: '0', role: 'viewer' }),
    ]);
    // One demotion wins (303). The other is refused either inside its transaction, the last owner
    // kept (409), or, when it reached the server after the winner's commit, at its session: a role
    // change ends the person's sessions in the company, so it is signed out (401). Either way one
    // owner is left, which is what the race must never break.
    expect([a.status, b.status].filter((status) => status === 303)).toHaveLength(1);
    expect([409, 401]).toContain(a.status === 303 ? b.status : a.status);
    const owners = await t.database.db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM memberships WHERE account_id = ? AND role = 'owner'",
      [accountId],
    );
    expect(Number(owners?.n)).toBe(1);

    // The remaining owner and a second admin change one accountant's role at once, from the same page.
    const winner = a.status === 303 ? owner : second;
    await invite(winner, 'admin2@race.test', 'admin');
    const { v: admin } = await joinAsNew(await linkTo('admin2@race.test'));
    await invite(winner, 'target@race.test', 'accountant');
    await joinAsNew(await linkTo('target@race.test'));
    const targetId = await personId('target@race.test');
    const csrfW = csrfOf((await winner.get('/panel/people')).body);
    const csrfA = csrfOf((await admin.get('/panel/people')).body);
    const [x, y] = await Promise.all([
      winner.post(`/panel/people/${targetId}/role`, {
        _csrf: csrfW,
        from: 'accountant',
        fromApproves: '0',
        role: 'viewer',
      }),
      admin.post(`/panel/people/${targetId}/role`, {
        _csrf: csrfA,
        from: 'accountant',
        fromApproves: '0',
        role: 'approver',
      }),
    ]);
    expect([x.status, y.status].sort()).toEqual([303, 409].sort());
    const loser = x.status === 409 ? x : y;
    expect(loser.body).toContain('changed this person');
    const role = await t.database.db.get<{ role: string }>(
      'SELECT role FROM memberships WHERE account_id = ? AND person_id = ?',
      [accountId, targetId],
    );
    expect(role?.role).toBe(x.status === 303 ? 'viewer' : 'approver');
    const changes = (await actions(accountId)).filter((action) => action === 'person.role-changed');
    expect(changes).toHaveLength(2);
  });

  it('shows the invitation mail in the sandbox inbox to managers only, and records sign-out', async () => {
    const { owner, accountId } = await company('Inbox Co');
    await invite(owner, 'viewer@inbox.test', 'viewer');
    const { v: viewer } = await joinAsNew(await linkTo('viewer@inbox.test'));
    await invite(owner, 'next@inbox.test', 'admin');
    // Drain the outbox into the sandbox inbox as the worker does.
    const worker = new DeliveryWorker({
      db: t.database.db,
      config: t.config,
      webhooks: new HttpWebhookSender({ allowPrivate: false }),
      secret: t.keys.secret,
      mailer: null,
      sms: null,
      log: pino({ level: 'silent' }),
    });
    await worker.drain();
    const list = await owner.get('/panel/inbox');
    const id = /href="\/panel\/inbox\/(msg_[A-Za-z0-9]+)"/.exec(list.body)?.[1] ?? '';
    expect(id).not.toBe('');
    const message = await owner.get(`/panel/inbox/${id}`);
    expect(message.status).toBe(200);
    expect(message.body).toMatch(/\/panel\/join\/[\w-]+/);
    const refused = await viewer.get(`/panel/inbox/${id}`);
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('can&#39;t manage people');
    expect((await viewer.submit('/panel', '/panel/sign-out', {})).status).toBe(303);
    expect(await actions(accountId)).toContain('sign-out');
  });
});
