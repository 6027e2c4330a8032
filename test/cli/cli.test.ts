import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import {
  createKeyWithCli,
  createCheckOverHttp,
  http,
  runCli,
  startServerProcess,
  type ServerProcess,
} from '../support/processes.ts';

// Each command is a new process that loads the TypeScript sources through tsx (2–6 s here), and
// some tests run several; 90 s keeps a busy CI machine from failing them on time alone.
describe.each(dialects())('the checkwriter command (%s)', { timeout: 90_000 }, (dialect) => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  let server: ServerProcess;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    env = fresh.env;
    cleanup = fresh.cleanup;
    const migrated = await runCli(['migrate'], env);
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toContain('up to date');
    server = await startServerProcess(env);
  });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  it('the start banner names the panel, the delivery state, and how to get a first key', async () => {
    const banner = server.output();
    expect(banner).toContain(`panel:    ${server.url}/panel`);
    expect(banner).toContain('email not configured: live emails stay queued until SMTP_URL is set');
    expect(banner).toContain(
      `No API keys yet. Sign up in the panel and create one there:\n  ${server.url}/panel/sign-up`,
    );
  });

  it('keys create prints the key alone on the last line, and the running server accepts it', async () => {
    const created = await runCli(['keys', 'create', '--email', 'cli@example.com'], env);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    const key = lines.at(-1) ?? '';
    expect(key).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const res = await http(`${server.url}/api/v3/checks`, { key });
    expect(res.status).toBe(200);
    expect(res.body.data.meta.total).toBe(0);
  });

  it('keys create prints a password link for a new account, people link another; the server opens both', async () => {
    const created = await runCli(['keys', 'create', '--email', 'link@example.com'], env);
    expect(created.code).toBe(0);
    const printed = /http\S+\/panel\/reset-password\?token=[A-Za-z0-9_-]+/.exec(created.stderr)?.[0] ?? '';
    expect(printed).not.toBe('');
    // On a terminal the two streams interleave: the key (stdout) must follow the line announcing it.
    expect(created.stderr.trimEnd()).toMatch(/Keep it secret; it is shown only once:$/);
    const again = await runCli(['people', 'link', '--email', 'link@example.com'], env);
    expect(again.code).toBe(0);
    const link = again.stdout.trim();
    expect(link).toMatch(/\/panel\/reset-password\?token=[A-Za-z0-9_-]+$/);
    for (const url of [printed, link]) {
      const path = new URL(url).pathname + new URL(url).search;
      expect((await fetch(`${server.url}${path}`)).status).toBe(200);
    }
    expect((await runCli(['people', 'link', '--email', 'nobody@example.com'], env)).code).not.toBe(0);
  });

  it('keys revoke in another process is refused by the server at once', async () => {
    const created = await runCli(['keys', 'create', '--email', 'revoke@example.com', '--name', 'to revoke'], env);
    const key = created.stdout.trim().split('\n').at(-1) ?? '';
    expect((await http(`${server.url}/api/v3/checks`, { key })).status).toBe(200);
    const list = await runCli(['keys', 'list', '--email', 'revoke@example.com'], env);
    expect(list.code).toBe(0);
    const keyId = list.stdout.split('\t')[0] ?? '';
    expect(keyId).toMatch(/^key_/);
    expect(list.stdout).not.toContain(key);
    const revoked = await runCli(['keys', 'revoke', keyId], env);
    expect(revoked.code).toBe(0);
    // PostgreSQL carries the revocation by NOTIFY; allow it the few milliseconds it takes to arrive.
    let status = 0;
    for (let i = 0; i < 20 && status !== 401; i += 1) {
      status = (await http(`${server.url}/api/v3/checks`, { key })).status;
      if (status !== 401) await new Promise((r) => setTimeout(r, 25));
    }
    expect(status).toBe(401);
    expect((await runCli(['keys', 'list', '--email', 'revoke@example.com'], env)).stdout).toContain('revoked');
  });

  it('keys rotate-encryption re-encrypts bank account numbers while the server keeps printing them', async () => {
    const key = await createKeyWithCli('rotate@example.com', env);
    const bank = await http(`${server.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Rotate', routingNumber: '011000015', accountNumber: '123456789' }] },
    });
    expect(bank.status).toBe(201);
    const rotated = await runCli(['keys', 'rotate-encryption'], env);
    expect(rotated.code).toBe(0);
    expect(rotated.stdout).toMatch(
      /^data key k[0-9a-f]{12} is current \(was k[0-9a-f]{12}\); [1-9][0-9]* bank account numbers re-encrypted\n$/,
    );
    const id = bank.body.data.bankAccounts[0].bankAccountId;
    expect((await http(`${server.url}/api/v3/bankAccounts/${id}`, { key })).body.data.accountNumber).toBe('****6789');
    expect(
      (
        await fetch(`${server.url}/api/v3/bankAccounts/${id}/micr-test.pdf`, {
          headers: { authorization: `Bearer ${key}` },
        })
      ).status,
    ).toBe(200);
  });

  it('--env live keys see live data only; --unverified accounts get the 403; accounts verify lifts it', async () => {
    const live =
      (await runCli(['keys', 'create', '--email', 'envs@example.com', '--env', 'live', '--unverified'], env)).stdout
        .trim()
        .split('\n')
        .at(-1) ?? '';
    const test =
      (await runCli(['keys', 'create', '--email', 'envs@example.com'], env)).stdout.trim().split('\n').at(-1) ?? '';
    const bank = await http(`${server.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key: live,
      body: { bankAccounts: [{ name: 'Live', routingNumber: '011000015', accountNumber: '4444' }] },
    });
    expect(bank.status).toBe(201);
    expect((await http(`${server.url}/api/v3/bankAccounts`, { key: test })).body.data.meta.total).toBe(0);
    const denied = await http(`${server.url}/api/v3/emailchecks`, {
      method: 'POST',
      key: live,
      body: { emailChecks: [{ checkId: 'chk_x' }] },
    });
    expect(denied.status).toBe(403);
    const verified = await runCli(['accounts', 'verify', '--email', 'envs@example.com'], env);
    expect(verified.stdout).toContain('email verified, phone verified');
    const allowed = await http(`${server.url}/api/v3/emailchecks`, {
      method: 'POST',
      key: live,
      body: { emailChecks: [{ checkId: 'chk_x' }] },
    });
    expect(allowed.status).toBe(422);
  });

  it('mailings: the operator lists the print-and-mail queue and dispatches a mailing', async () => {
    const key =
      (await runCli(['keys', 'create', '--email', 'mailer@example.com'], env)).stdout.trim().split('\n').at(-1) ?? '';
    const api = `${server.url}/api/v3`;
    const checkId = await createCheckOverHttp(api, key, {
      bankAccount: { name: 'Mail', routingNumber: '011000015', accountNumber: '4321' },
      payee: { name: 'Post Office Fan', address1: '1 Main St', city: 'Springfield', state: 'IL', zip: '62701' },
      amount: 40,
    });
    const mailing = await http(`${api}/mailchecks`, {
      method: 'POST',
      key,
      body: { mailChecks: [{ checkId, shippingTypeId: 3 }] },
    });
    const mailingId = mailing.body.data.mailings[0].mailingId;
    const queue = await runCli(['mailings', 'list', '--status', 'queued'], env);
    expect(queue.stdout).toContain(`${mailingId}\tqueued\t${checkId}\tshipping 3`);
    const dispatched = await runCli(['mailings', 'dispatch', mailingId], env);
    expect(dispatched.code).toBe(0);
    expect(dispatched.stdout).toContain(`check ${checkId} is now mailed`);
    expect((await http(`${api}/checks/${checkId}`, { key })).body.data.checkStatus).toEqual({
      status: 2,
      description: 'Mailed',
    });
    const again = await runCli(['mailings', 'cancel', mailingId], env);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already dispatched');
  });

  it('keys create --company names the sender of emails and payee pages; without it, the owner email, not a domain', async () => {
    const api = `${server.url}/api/v3`;
    /** Emails a new check with a test key and answers the sandbox email's subject and payee page. */
    const emailed = async (key: string, amount: number): Promise<{ subject: string; page: string }> => {
      const checkId = await createCheckOverHttp(api, key, {
        bankAccount: { name: 'Ops', routingNumber: '011000015', accountNumber: '12345678' },
        payee: { name: 'Pat Payee', email: 'pat@payee.test' },
        amount,
      });
      expect(
        (await http(`${api}/emailchecks`, { method: 'POST', key, body: { emailChecks: [{ checkId }] } })).status,
      ).toBe(200);
      // The server's worker moves it to the sandbox inbox; wait for it (bounded).
      for (let i = 0; i < 100; i += 1) {
        const messages = (await http(`${api}/sandbox/messages`, { key })).body.data.messages as {
          checkId: string;
          channel: string;
          subject: string;
          link: string;
        }[];
        const mail = messages.find((m) => m.checkId === checkId && m.channel === 'email');
        if (mail !== undefined) {
          const page = await fetch(`${server.url}${new URL(mail.link).pathname}`);
          return { subject: mail.subject, page: await page.text() };
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error('no sandbox email');
    };

    const plain = await runCli(['keys', 'create', '--email', 'owner@widgets.test'], env);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('No company name: payees see owner@widgets.test as the sender');
    const before = await emailed(plain.stdout.trim().split('\n').at(-1) ?? '', 12.5);
    expect(before.subject).toBe('owner@widgets.test sent you a check for $12.50');
    expect(before.page).toContain('<h1>owner@widgets.test sent you a check</h1>');

    // --company on the existing account sets its name; the next email and payee page carry it.
    const named = await runCli(['keys', 'create', '--email', 'owner@widgets.test', '--company', 'Acme Ltd'], env);
    expect(named.code).toBe(0);
    expect(named.stderr).toContain('Company name: Acme Ltd.');
    const after = await emailed(named.stdout.trim().split('\n').at(-1) ?? '', 20);
    expect(after.subject).toBe('Acme Ltd sent you a check for $20.00');
    expect(after.page).toContain('<h1>Acme Ltd sent you a check</h1>');

    // A new account made with --company has it from the start.
    const fresh = await runCli(['keys', 'create', '--email', 'ap@globex.test', '--company', 'Globex Corporation'], env);
    expect(fresh.code).toBe(0);
    expect((await emailed(fresh.stdout.trim().split('\n').at(-1) ?? '', 1)).subject).toBe(
      'Globex Corporation sent you a check for $1.00',
    );
    const empty = await runCli(['keys', 'create', '--email', 'x@widgets.test', '--company', ' '], env);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('--company: The company field is required.');
  });

  it('explains bad usage with exit code 2', async () => {
    const bad = await runCli(['keys', 'create'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--email is required');
    const env2 = await runCli(['keys', 'create', '--email', 'x@example.com', '--env', 'prod'], env);
    expect(env2.code).toBe(2);
    expect(env2.stderr).toContain('--env must be test or live');
  });

  it('once a usable key exists, the banner no longer offers the first-key hint', async () => {
    const created = await runCli(['keys', 'create', '--email', 'banner@example.com'], env);
    expect(created.code).toBe(0);
    const second = await startServerProcess(env);
    try {
      expect(second.output()).toContain('checkwriter is listening on');
      expect(second.output()).not.toContain('No API keys yet');
    } finally {
      await second.stop();
    }
  });
});

// Asking for help or mistyping an option must not start, open or create anything: the database
// named here cannot be opened (its folder does not exist), so a command that tried would fail
// with another message; a server started by `serve --help` would never exit.
describe('usage, before any configuration or database', { timeout: 90_000 }, () => {
  const unopenable = { DATABASE_URL: `sqlite:/nonexistent-${process.pid}/checkwriter.db` };

  it('--help or -h anywhere prints the usage and exits 0; serve --help starts no server', async () => {
    const runs = await Promise.all(
      [['serve', '--help'], ['keys', 'create', '--help'], ['-h'], ['help']].map((args) => runCli(args, unopenable)),
    );
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: checkwriter <command>');
      expect(run.stdout).toContain('keys create --email EMAIL');
      // Nothing else said (a stale dist/ adds its one warning line, bin/checkwriter.js).
      expect(run.stderr.replace(/^checkwriter: dist\/ is older than src\/.*\n/, '')).toBe('');
    }
  });

  it('an unknown option, a missing value or an argument to serve is a usage error (exit 2), never a stack trace', async () => {
    const [unknown, missing, serveArgs] = await Promise.all([
      runCli(['keys', 'create', '--email', 'a@example.com', '--bogus'], unopenable),
      runCli(['keys', 'create', '--email'], unopenable),
      runCli(['serve', '--port', '3000'], unopenable),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/(^|\n)checkwriter: Unknown option '--bogus'/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/(^|\n)checkwriter: Option '--email <value>' argument missing/);
    expect(serveArgs.code).toBe(2);
    expect(serveArgs.stderr).toMatch(/(^|\n)checkwriter: serve takes no arguments \(got "--port" "3000"\)/);
    for (const run of [unknown, missing, serveArgs]) {
      expect(run.stderr).toContain('Usage: checkwriter <command>');
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});

// A database that cannot be opened or reached is the operator's to fix: the command names it (its
// password masked) and the driver's reason, exit 2, and no stack trace nor the API's retry advice.
describe('a database that cannot be opened', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'cw-unopenable-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('names the database and the reason, for commands, migrate and serve', async () => {
    const aFile = join(dir, 'a-file');
    writeFileSync(aFile, 'not a folder');
    const notADatabase = join(dir, 'not-a-database.db');
    writeFileSync(notADatabase, 'x'.repeat(4096));
    const refused = 'postgres://postgres:hunter2@127.0.0.1:1/test';
    const [underAFile, garbage, unreachable, serve] = await Promise.all([
      runCli(['keys', 'list'], { DATABASE_URL: `sqlite:${aFile}/checkwriter.db` }),
      runCli(['migrate'], { DATABASE_URL: `sqlite:${notADatabase}` }),
      runCli(['keys', 'list'], { DATABASE_URL: refused, SECRET_FILE: join(dir, 'secret') }),
      runCli(['serve'], { DATABASE_URL: `sqlite:${notADatabase}`, PORT: '0' }),
    ]);
    expect(underAFile.stderr).toContain(
      `checkwriter: cannot open the SQLite database ${aFile}/checkwriter.db (DATABASE_URL): EEXIST`,
    );
    for (const run of [garbage, serve])
      expect(run.stderr).toContain(
        `checkwriter: cannot open the SQLite database ${notADatabase} (DATABASE_URL): file is not a database\n`,
      );
    expect(unreachable.stderr).toContain(
      'checkwriter: cannot open the PostgreSQL database postgres://postgres:***@127.0.0.1:1/test (DATABASE_URL): connect ECONNREFUSED 127.0.0.1:1\n',
    );
    for (const run of [underAFile, garbage, unreachable, serve]) {
      expect(run.code).toBe(2);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it.skipIf(inject('postgresUrl') === null)(
    'a DATABASE_SCHEMA that does not exist is named, not a failed migration',
    async () => {
      const schema = `cw_missing_${process.pid}`;
      const run = await runCli(['keys', 'list'], {
        DATABASE_URL: inject('postgresUrl') ?? '',
        DATABASE_SCHEMA: schema,
        SECRET_FILE: join(dir, 'secret'),
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`checkwriter: the schema ${schema} (DATABASE_SCHEMA) does not exist`);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    },
  );
});

// Refusals that need a database to reach, on a throwaway SQLite one (they do not differ by database).
describe('refused input, one line and exit 2', { timeout: 90_000 }, () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;
  const dir = mkdtempSync(join(tmpdir(), 'cw-refused-'));
  beforeAll(async () => {
    const fresh = await freshDatabaseConfig('sqlite');
    env = { ...fresh.env, SECRET_FILE: join(dir, 'secret') };
    cleanup = fresh.cleanup;
    expect((await runCli(['migrate'], env)).code).toBe(0);
  });
  afterAll(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a missing file or a folder, a stray argument, an unknown subcommand, an unknown email: never a stack trace', async () => {
    const folder = join(dir, 'a-folder');
    mkdirSync(folder);
    const csv = join(dir, 'payees.csv');
    writeFileSync(csv, 'Name\nAcme\n');
    const missing = join(dir, 'missing.secret');
    const usage = 'Usage:';
    const cases: [string[], string, boolean][] = [
      [
        ['reconcile', folder, '--email', 'a@example.com', '--bank-account', 'bank_x'],
        `cannot read ${folder}: it is a folder, not a file`,
        false,
      ],
      [
        ['import', 'payees', folder, '--email', 'a@example.com'],
        `cannot read ${folder}: it is a folder, not a file`,
        false,
      ],
      [['keys', 'rotate-encryption', '--previous-secret-file', missing], `cannot read ${missing}: no such file`, false],
      [['import', 'payees', csv, csv, '--email', 'a@example.com'], 'import takes one CSV file', true],
      [['keys', 'revoke', 'key_a', 'key_b'], 'keys revoke: unexpected argument "key_b"', true],
      [['mailings', 'list', 'queued'], 'mailings list: unexpected argument "queued"', true],
      [['audit', 'frob'], 'unknown audit command "frob"', true],
      [['keys', 'list', '--email', 'nobody@example.com'], 'no account with email nobody@example.com', false],
      [['keys', 'create', '--email', 'p@example.com', '--phone', 'abc'], '--phone must be a phone number', true],
    ];
    const runs = await Promise.all(cases.map(([args]) => runCli(args, env)));
    for (const [i, run] of runs.entries()) {
      const [args, message, withUsage] = cases[i] ?? [[], '', false];
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(`checkwriter: ${message}`);
      expect(run.stderr.includes(usage), args.join(' ')).toBe(withUsage);
      expect(run.stderr).not.toMatch(/\n\s+at /);
      expect(run.stdout).toBe('');
    }
  });
});
