// The panel's audit trail over inject, on both databases: the page lists who did what, filters by
// who, action, object and dates, pages older records, each check's page shows its own history, and
// the CSV export carries the same records with a formula-like value written as text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { clientFor, seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';

const PASSWORD = 'correct horse battery';

describe.each(dialects())('the audit trail in the panel (%s)', { timeout: 120_000 }, (dialect) => {
  let t: TestApp;
  let visitor: Visitor;
  let api: Client;
  let checkId: string;
  let otherCheckId: string;
  let basics: { bankAccountId: string; payeeId: string };
  const email = `audit-page-${dialect}@example.com`;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    visitor = new Visitor(t.app);
    const signedUp = await visitor.signUp({
      company: 'Audit Page Co',
      email,
      phone: '+14155550199',
      password: PASSWORD,
    });
    expect(signedUp.status).toBe(303);
    api = clientFor(t.app, await visitor.createKey('payroll'));
    basics = await seedBasics(api);
    const made = await api.post('/checks', {
      checks: [
        { ...basics, amount: '10.00', issueDate: '2026-11-20' },
        { ...basics, amount: '20.00', issueDate: '2026-11-20' },
      ],
    });
    [checkId, otherCheckId] = made.body.data.checks.map((c: { checkId: string }) => c.checkId);
    expect((await api.put(`/checks/${checkId}`, { amount: '11.00' })).status).toBe(200);
    expect((await api.post(`/checks/${checkId}/void`)).status).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lists who did what, and filters by who, action, object and dates', async () => {
    const all = await visitor.get('/panel/audit');
    expect(all.status).toBe(200);
    expect(all.body).toContain('<h1>Audit trail</h1>');
    expect(all.body).toContain('check.void');
    expect(all.body).toContain('sign-in');
    expect(all.body).toContain('amountCents: 1000 → 1100');

    const byAction = await visitor.get('/panel/audit?action=check.edit');
    expect(byAction.body).toContain('amountCents: 1000 → 1100');
    expect(byAction.body).not.toContain('<td>check.void</td>');

    const byWho = await visitor.get(`/panel/audit?actor=${encodeURIComponent(email)}`);
    expect(byWho.body).toContain('api-key.create');
    expect(byWho.body).not.toContain('check.create</td>');

    const byObject = await visitor.get(`/panel/audit?objectType=check&objectId=${otherCheckId}`);
    expect(byObject.body).toContain(otherCheckId);
    expect(byObject.body).not.toContain('<td>check.void</td>');

    const past = await visitor.get('/panel/audit?from=2000-01-01&to=2000-01-31');
    expect(past.body).toContain('No records match.');
    const today = new Date().toISOString().slice(0, 10);
    const now = await visitor.get(`/panel/audit?from=${today}&to=${today}`);
    expect(now.body).toContain('<td>check.void</td>');
  });

  it('pages older records 50 at a time', async () => {
    const made = await api.post('/checks', {
      checks: Array.from({ length: 50 }, (_, i) => ({ ...basics, amount: `${i + 1}.00`, issueDate: '2026-11-20' })),
    });
    expect(made.status).toBe(201);
    const first = await visitor.get('/panel/audit');
    const older = /href="(\/panel\/audit\?before=\d+)" rel="next"/.exec(first.body)?.[1];
    expect(older).toBeDefined();
    const second = await visitor.get((older ?? '').replaceAll('&amp;', '&'));
    expect(second.status).toBe(200);
    expect(second.body).toContain('sign-in');
  });

  it("shows each check's own history, who did each step", async () => {
    const page = await visitor.get(`/panel/checks/${checkId}`);
    expect(page.status).toBe(200);
    const history = page.body.slice(page.body.indexOf('<h2>History</h2>'));
    expect(history).toContain('check.create');
    expect(history).toContain('check.edit');
    expect(history).toContain('check.void');
    expect(history).not.toContain(otherCheckId);
    expect(history.indexOf('check.create')).toBeLessThan(history.indexOf('check.void'));
  });

  it('exports the filtered records as CSV, a formula-like value written as text', async () => {
    // A user agent is whatever the client sends: one shaped like a formula, on a failed sign-in.
    const stranger = new Visitor(t.app);
    const failed = await stranger.submit(
      '/panel/sign-in',
      '/panel/sign-in',
      { email, password: 'wrong password here' },
      { 'user-agent': '=HYPERLINK("http://evil.example")' },
    );
    expect(failed.status).toBe(401);
    const csv = await visitor.get('/panel/audit/export.csv?action=sign-in.failed');
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-type'])).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('seq,when (UTC),environment,who');
    expect(lines.length).toBe(2);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.example"")"`);
    expect(csv.body).not.toMatch(/(^|,)=HYPERLINK/m);
    expect(csv.body).not.toContain('wrong password here');
    const checks = await visitor.get(`/panel/audit/export.csv?objectId=${checkId}`);
    expect(checks.body.trim().split('\r\n').length).toBe(4);
  });
});
