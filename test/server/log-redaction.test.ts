// No credential in any log line: a real server process at the default log level
// is sent every kind of URL and header that carries one, and its whole output is searched for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LogSms } from '../../src/delivery/sms.ts';
import { phoneCodeSms } from '../../src/delivery/messages.ts';
import { parseDatabaseUrl } from '../../src/config.ts';
import { redactText, redactUrl, redactUrlPassword } from '../../src/domain/redact.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const SECRETS = {
  link: 'payeeLinkSecretAAAA1111',
  reset: 'resetSecretBBBB2222',
  verify: 'verifySecretCCCC3333',
  key: 'cw_test_bearerSecretDDDD4444',
  cookie: 'cookieSecretEEEE5555',
  apiKeyQuery: 'queryKeySecretFFFF6666',
};

describe.each(dialects())('log lines hold no credentials (%s)', (dialect) => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    // info: the default level an operator runs with (the test helper's own default is warn).
    server = await startServerProcess({ ...fresh.env, LOG_LEVEL: 'info' });
  });
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  it('URLs, query strings, Authorization and Cookie headers are blanked in request logs', async () => {
    const headers = { authorization: `Bearer ${SECRETS.key}`, cookie: `cw_session=${SECRETS.cookie}` };
    const urls = [
      `/c/${SECRETS.link}`,
      `/c/${SECRETS.link}/pdf`,
      `/panel/reset-password?token=${SECRETS.reset}`,
      `/panel/verify-email?next=%2Fpanel&token=${SECRETS.verify}`,
      `/api/v3/checks?perPage=5&api_key=${SECRETS.apiKeyQuery}`,
      `/no/such/path?token=${SECRETS.verify}`,
    ];
    for (const url of urls)
      await fetch(`${server.url}${url}`, { headers, redirect: 'manual' }).then((r) => r.arrayBuffer());
    await fetch(`${server.url}/c/${SECRETS.link}/pdf`, { method: 'POST', headers }).then((r) => r.arrayBuffer());
    // The request log is written as each request ends; give the last line a moment to flush.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const output = server.output();
    expect(output).toContain('"url":"/c/[redacted]"');
    expect(output).toContain('"url":"/c/[redacted]/pdf"');
    expect(output).toContain('"url":"/panel/reset-password?token=[redacted]"');
    expect(output).toContain('"url":"/panel/verify-email?next=%2Fpanel&token=[redacted]"');
    expect(output).toContain('"url":"/api/v3/checks?perPage=5&api_key=[redacted]"');
    for (const [what, secret] of Object.entries(SECRETS))
      expect(output, `the ${what} reached the log`).not.toContain(secret);
  });
});

describe('redaction rules', () => {
  it('blanks payee links, secret query values and one-time codes, and leaves the rest', () => {
    expect(redactUrl('/c/abc')).toBe('/c/[redacted]');
    expect(redactUrl('/c/abc/pdf?x=1')).toBe('/c/[redacted]/pdf?x=1');
    expect(redactUrl('/checks/c/abc')).toBe('/checks/c/abc');
    expect(redactUrl('/panel/x?TOKEN=a&page=2&code=9&sig=z&password=p')).toBe(
      '/panel/x?TOKEN=[redacted]&page=2&code=[redacted]&sig=[redacted]&password=[redacted]',
    );
    expect(redactUrl('/panel/x?%74oken=a')).toBe('/panel/x?%74oken=[redacted]');
    expect(redactUrl('/api/v3/payees?term=token')).toBe('/api/v3/payees?term=token');
    expect(redactText('Acme sent you a check for $1,234.56. View and print it: https://checks.example/c/Zx9_-a')).toBe(
      'Acme sent you a check for $1,234.56. View and print it: https://checks.example/c/[redacted]',
    );
    // The same names as in URLs (one list): a reset link pasted into a message is blanked too.
    expect(redactText('see https://x.test/r?password=hunter2&access_token=abc')).toBe(
      'see https://x.test/r?password=[redacted]&access_token=[redacted]',
    );
    expect(redactText(phoneCodeSms('482913'))).toBe(
      'Your checkwriter verification code is [redacted]. It works for 15 minutes.',
    );
  });

  it('blanks invitation links in a path, carried in a sign-in next, and in free text', () => {
    expect(redactUrl('/panel/join/Inv1tE_token-x')).toBe('/panel/join/[redacted]');
    expect(redactUrl('/panel/sign-in?next=%2Fpanel%2Fjoin%2FInv1tE_token-x')).toBe(
      '/panel/sign-in?next=%2Fpanel%2Fjoin%2F[redacted]',
    );
    expect(redactUrl('/panel/people')).toBe('/panel/people');
    expect(redactText('Accept the invitation: https://x.test/panel/join/Inv1tE_token-x')).toBe(
      'Accept the invitation: https://x.test/panel/join/[redacted]',
    );
  });

  it('a URL with no query, percent sign, payee or invitation link is logged as sent, and one step from it is not', () => {
    expect(redactUrl('/api/v3/checks/chk_01JD8W2N9Q')).toBe('/api/v3/checks/chk_01JD8W2N9Q');
    expect(redactUrl('/C/abc')).toBe('/C/abc');
    expect(redactUrl('/c/')).toBe('/c/');
    expect(redactUrl('/PANEL/JOIN/Inv1tE')).toBe('/PANEL/JOIN/[redacted]');
    expect(redactUrl('/x/%2Fpanel%2Fjoin%2FInv1tE')).toBe('/x/%2Fpanel%2Fjoin%2F[redacted]');
    expect(redactUrl('/api/v3/checks?token=abc')).toBe('/api/v3/checks?token=[redacted]');
  });

  it('connection URLs lose their password, and a refused DATABASE_URL is echoed without it', () => {
    expect(redactUrlPassword('postgres://app:hunter2@db.internal:5432/checks')).toBe(
      'postgres://app:***@db.internal:5432/checks',
    );
    expect(redactUrlPassword('postgres://postgres@127.0.0.1:5432/test')).toBe(
      'postgres://postgres@127.0.0.1:5432/test',
    );
    expect(redactUrlPassword('sqlite:./data/checkwriter.db')).toBe('sqlite:./data/checkwriter.db');
    expect(redactUrlPassword('./data/checkwriter.db')).toBe('./data/checkwriter.db');
    expect(redactUrlPassword('app:hunter2@db.internal')).toBe('[redacted]');
    // A scheme the service does not take, as a typo or another stack's setting would give it.
    expect(() => parseDatabaseUrl('mysql://app:hunter2@db.internal/checks', undefined)).toThrow(
      'DATABASE_URL must start with sqlite: or postgres://, got "mysql://app:***@db.internal/checks"',
    );
    expect(() => parseDatabaseUrl('mysql://app:hunter2@db.internal/checks', undefined)).not.toThrow(/hunter2/);
  });

  it('the log SMS provider writes the message with its code blanked', async () => {
    const lines: Record<string, unknown>[] = [];
    await new LogSms((entry) => lines.push(entry)).send('+14155552671', phoneCodeSms('482913'), 'ref-1');
    expect(lines).toEqual([
      {
        to: '+14155552671',
        body: 'Your checkwriter verification code is [redacted]. It works for 15 minutes.',
        reference: 'ref-1',
      },
    ]);
  });
});
