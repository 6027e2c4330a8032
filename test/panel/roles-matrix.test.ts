// Every panel route × every role, generated from the app's own route table (app.panelRoutes): a
// role without the route's action gets 403 in the panel's words and nothing changes; a role with
// it is not refused. A route that declares no action does not start.
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACTIONS, forbiddenWords, may, ROLES, type Role } from '../../src/domain/people/roles.ts';
import { declaredAction } from '../../src/panel/panel.ts';
import { hashPassword } from '../../src/services/password.ts';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { csrfOf, Visitor } from '../support/panel-visitor.ts';
import { snapshotTables } from '../support/table-snapshot.ts';

const PASSWORD = 'correct horse battery';
const COMPANY = 'Matrix Payables';

/** The same words the panel's error page shows (its escaping of the apostrophe). */
function onPage(text: string): string {
  return text.replaceAll("'", '&#39;');
}

describe('panel routes declare an action', () => {
  it('fails start-up naming a /panel route that declares neither an action nor panelPublic', async () => {
    const app = Fastify();
    app.addHook('onRoute', (route) => {
      declaredAction(route);
    });
    // Inside a plugin, as the panel's pages are: the plugin, so the start-up, fails.
    app.register(async (scope) => {
      scope.get('/panel/forgotten', async () => 'x');
    });
    await expect(app.ready()).rejects.toThrow(/GET \/panel\/forgotten declares no action/);
    await app.close().catch(() => undefined);
  });
});

describe.each(dialects())('roles × actions on every panel route (%s)', (dialect) => {
  let t: TestApp;
  const visitors = new Map<Role, { v: Visitor; csrf: string }>();

  beforeAll(async () => {
    t = await startTestApp(dialect);
    const owner = new Visitor(t.app);
    expect(
      (await owner.signUp({ company: COMPANY, email: 'owner@matrix.test', phone: '+14155552671', password: PASSWORD }))
        .status,
    ).toBe(303);
    const account = await t.database.db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [
      'owner@matrix.test',
    ]);
    const hash = await hashPassword(PASSWORD);
    for (const role of ROLES) {
      if (role !== 'owner') {
        const id = `per_matrix${role}`;
        await t.database.db.run(
          'INSERT INTO people (id, email, name, password_hash, created_at) VALUES (?, ?, ?, ?, ?)',
          [id, `${role}@matrix.test`, role, hash, Date.now()],
        );
        await t.database.db.run(
          'INSERT INTO memberships (account_id, person_id, role, approves, created_at) VALUES (?, ?, ?, 0, ?)',
          [account?.id ?? '', id, role, Date.now()],
        );
      }
      const v = new Visitor(t.app);
      expect((await v.signIn(`${role}@matrix.test`, PASSWORD)).status).toBe(303);
      const home = await v.get('/panel');
      expect(home.status).toBe(200);
      visitors.set(role, { v, csrf: csrfOf(home.body) });
    }
  });
  afterAll(async () => {
    await t.close();
  });

  it('lists every panel route with its action, public pages included', () => {
    const routes = t.app.panelRoutes;
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.some((r) => r.url === '/panel/sign-in' && r.action === null)).toBe(true);
    expect(routes.some((r) => r.url === '/panel/checks/print' && r.action === 'checks.print')).toBe(true);
    for (const r of routes) expect(r.action === null || Object.hasOwn(ACTIONS, r.action)).toBe(true);
  });

  it('refuses each role what its action forbids, in the panel words, changing nothing; lets the rest through', async () => {
    const checked: string[] = [];
    for (const route of t.app.panelRoutes) {
      if (route.action === null) continue;
      const action = route.action;
      const url = route.url.replace(/:[A-Za-z]+/g, 'x1');
      for (const role of ROLES) {
        const entry = visitors.get(role);
        if (entry === undefined) throw new Error(`no visitor for ${role}`);
        const allowed = may({ role, approves: false }, action);
        // Seen just now: the request has no reason to move last_seen_at, so any change is the route's.
        await t.database.db.run('UPDATE panel_sessions SET last_seen_at = ?', [Date.now()]);
        const before = allowed ? null : await snapshotTables(t.database.db);
        const response =
          route.method === 'GET' ? await entry.v.get(url) : await entry.v.post(url, { _csrf: entry.csrf, env: 'test' });
        const label = `${role} ${route.method} ${url} (${action})`;
        if (allowed) {
          expect(response.status, label).not.toBe(403);
        } else {
          expect(response.status, label).toBe(403);
          expect(response.body, label).toContain(onPage(forbiddenWords({ role, approves: false }, action, COMPANY)));
          expect(await snapshotTables(t.database.db), label).toEqual(before);
        }
        checked.push(label);
      }
    }
    // Viewers are refused something: the matrix is not all allowed.
    expect(checked.some((l) => l.startsWith('viewer') && l.includes('checks.print'))).toBe(true);
    // Hundreds of requests, each forbidden one between two snapshots of every table.
  }, 600_000);
});
