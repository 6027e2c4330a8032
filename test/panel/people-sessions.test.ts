// Signing in is by person (migration 026): one email, one password across companies; the session
// names the person and their company, and ends when idle too long, past its maximum, or when the
// person no longer belongs to the company. Checked on both databases through the panel itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { tokenHash } from '../../src/domain/secret-tokens.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('people: sign-in and sessions (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { SESSION_IDLE_MINUTES: '30', SESSION_MAX_HOURS: '12' });
  });
  afterAll(async () => {
    await t.close();
  });

  const sessionOf = async (v: Visitor) => {
    const cookie = v.cookies.get('cw_session') ?? '';
    return t.database.db.get<{ person_id: string; account_id: string; created_at: number; last_seen_at: number }>(
      'SELECT person_id, account_id, created_at, last_seen_at FROM panel_sessions WHERE id_hash = ?',
      [tokenHash(cookie)],
    );
  };

  it('signs up a company with its owner, and signs that person in by any case of the email', async () => {
    const v = new Visitor(t.app);
    expect(
      (await v.signUp({ company: 'Case Co', email: 'Mixed.Case@Acme.test', phone: '+14155552671', password: PASSWORD }))
        .status,
    ).toBe(303);
    const person = await t.database.db.get<{ id: string; email: string }>(
      'SELECT id, email FROM people WHERE email = ?',
      ['mixed.case@acme.test'],
    );
    expect(person?.email).toBe('mixed.case@acme.test');
    const member = await t.database.db.get<{ role: string }>('SELECT role FROM memberships WHERE person_id = ?', [
      person?.id ?? '',
    ]);
    expect(member?.role).toBe('owner');
    expect((await sessionOf(v))?.person_id).toBe(person?.id);

    const other = new Visitor(t.app);
    expect((await other.signIn('MIXED.CASE@ACME.TEST', PASSWORD)).status).toBe(303);
    expect((await other.get('/panel')).status).toBe(200);
  });

  it('answers a sign-up with an email that is already a person exactly as a new one, and adds no company', async () => {
    const fields = { company: 'Twice Co', email: 'twice@acme.test', phone: '+14155552671', password: PASSWORD };
    const first = await new Visitor(t.app).submit('/panel/sign-up', '/panel/sign-up', fields);
    const companies = await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM accounts');
    const second = await new Visitor(t.app).submit('/panel/sign-up', '/panel/sign-up', {
      ...fields,
      email: 'TWICE@acme.test',
      company: 'Other Co',
    });
    expect(second.status).toBe(first.status);
    expect(second.location).toBe(first.location);
    expect(Number((await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM accounts'))?.n)).toBe(
      Number(companies?.n),
    );
  });

  it('writes last_seen_at at most once a minute, so page views do not write per request', async () => {
    const v = new Visitor(t.app);
    await v.signUp({ company: 'Seen Co', email: 'seen@acme.test', phone: '+14155552671', password: PASSWORD });
    const before = await sessionOf(v);
    expect((await v.get('/panel')).status).toBe(200);
    expect((await sessionOf(v))?.last_seen_at).toBe(before?.last_seen_at);
    // Two minutes ago: the next request moves it.
    const cookie = tokenHash(v.cookies.get('cw_session') ?? '');
    const past = Date.now() - 2 * 60_000;
    await t.database.db.run('UPDATE panel_sessions SET last_seen_at = ? WHERE id_hash = ?', [past, cookie]);
    expect((await v.get('/panel')).status).toBe(200);
    expect(Number((await sessionOf(v))?.last_seen_at)).toBeGreaterThan(past);
  });

  it('signs out a session idle past SESSION_IDLE_MINUTES, and one past SESSION_MAX_HOURS however busy', async () => {
    const idle = new Visitor(t.app);
    await idle.signUp({ company: 'Idle Co', email: 'idle@acme.test', phone: '+14155552671', password: PASSWORD });
    await t.database.db.run('UPDATE panel_sessions SET last_seen_at = ? WHERE id_hash = ?', [
      Date.now() - 31 * 60_000,
      tokenHash(idle.cookies.get('cw_session') ?? ''),
    ]);
    expect((await idle.get('/panel')).status).toBe(303);
    expect(await sessionOf(idle)).toBeUndefined();

    const busy = new Visitor(t.app);
    expect((await busy.signIn('idle@acme.test', PASSWORD)).status).toBe(303);
    await t.database.db.run('UPDATE panel_sessions SET created_at = ? WHERE id_hash = ?', [
      Date.now() - 12 * 3_600_000 - 1000,
      tokenHash(busy.cookies.get('cw_session') ?? ''),
    ]);
    expect((await busy.get('/panel')).status).toBe(303);
  });

  it('signs a removed person out at their next request', async () => {
    const v = new Visitor(t.app);
    await v.signUp({ company: 'Gone Co', email: 'gone@acme.test', phone: '+14155552671', password: PASSWORD });
    const s = await sessionOf(v);
    await t.database.db.run('DELETE FROM memberships WHERE person_id = ? AND account_id = ?', [
      s?.person_id ?? '',
      s?.account_id ?? '',
    ]);
    expect((await v.get('/panel')).status).toBe(303);
    expect(await sessionOf(v)).toBeUndefined();
    expect((await new Visitor(t.app).signIn('gone@acme.test', PASSWORD)).status).toBe(401);
  });

  it('records who made a key in the panel and shows it on the keys page', async () => {
    const v = new Visitor(t.app);
    await v.signUp({ company: 'Keys Co', email: 'maker@acme.test', phone: '+14155552671', password: PASSWORD });
    await v.createKey('payroll sync');
    const row = await t.database.db.get<{ created_by: string | null }>(
      "SELECT k.created_by FROM api_keys k WHERE k.name = 'payroll sync'",
    );
    const person = await t.database.db.get<{ id: string }>('SELECT id FROM people WHERE email = ?', [
      'maker@acme.test',
    ]);
    expect(row?.created_by).toBe(person?.id);
    const page = await v.get('/panel/keys');
    expect(page.body).toContain('Created by');
    expect(page.body).toContain('maker@acme.test');
  });
});
