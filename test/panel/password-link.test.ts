// An account made on the command line (`keys create --email`) has an owner without a password: the
// printed one-time link (`people link`, and `keys create` for a new account) lets that person set
// one and use the panel, without SMTP. Checked through the panel's own reset page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { passwordLink } from '../../src/services/account.service.ts';

const PASSWORD = 'a long enough passphrase';

describe.each(dialects())('a printed password link (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { PUBLIC_URL: 'https://checks.example' });
  });
  afterAll(() => t.close());

  const pathOf = (link: string): string => {
    const url = new URL(link);
    return `${url.pathname}${url.search}`;
  };

  it('lets the owner of a command-line account set a password once, then sign in', async () => {
    await t.client('cli-owner@example.com');
    expect((await new Visitor(t.app).signIn('cli-owner@example.com', PASSWORD)).status).toBe(401);
    const link = (await passwordLink(t.database.db, 'https://checks.example', 'CLI-Owner@example.com')) ?? '';
    expect(link).toMatch(/^https:\/\/checks\.example\/panel\/reset-password\?token=[A-Za-z0-9_-]+$/);
    const browser = new Visitor(t.app);
    expect((await browser.get(pathOf(link))).status).toBe(200);
    const done = await browser.submit(pathOf(link), '/panel/reset-password', {
      token: new URL(link).searchParams.get('token') ?? '',
      password: PASSWORD,
    });
    expect(done.status).toBe(303);
    expect((await browser.get(pathOf(link))).status).toBe(410);
    const signedIn = new Visitor(t.app);
    expect((await signedIn.signIn('cli-owner@example.com', PASSWORD)).status).toBe(303);
    expect((await signedIn.get('/panel')).status).toBe(200);
  });

  it('names nobody for an email no person has, and stores no token then', async () => {
    const before = await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM account_tokens');
    expect(await passwordLink(t.database.db, 'https://checks.example', 'nobody@example.com')).toBeUndefined();
    const after = await t.database.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM account_tokens');
    expect(Number(after?.n)).toBe(Number(before?.n));
  });
});
