// The abuse limits across servers: two real server processes on one database allow one address what
// one server allows — the documented 5 sign-in guesses per address and email, and the
// failed-request budget (FAILED_REQUEST_LIMIT_PER_MINUTE) — whether the guesses alternate between
// the servers or arrive at both at once. SQLite: two processes on one file. The address is the
// X-Forwarded-For a proxy in front would set (TRUST_PROXY), so that one test machine can be many
// addresses.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfOf } from '../support/panel-visitor.ts';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { startServerProcess, type ServerProcess } from '../support/processes.ts';

const SIGN_IN_LIMIT = 5; // docs/security.md, "Abuse limits": per address and email, 15 minutes
const FAILED_PER_MINUTE = 6;

/** One sign-in attempt as a browser makes it: the form page (cookies, CSRF field), then the post. */
async function signIn(server: ServerProcess, address: string, email: string, password: string): Promise<Response> {
  const headers = { 'x-forwarded-for': address };
  const page = await fetch(`${server.url}/panel/sign-in`, { headers });
  const html = await page.text();
  if (page.status !== 200) throw new Error(`sign-in page answered ${page.status}: ${html.slice(0, 200)}`);
  const cookie = page.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return fetch(`${server.url}/panel/sign-in`, {
    method: 'POST',
    redirect: 'manual',
    headers: { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ email, password, next: '/panel', _csrf: csrfOf(html) }).toString(),
  });
}

async function badKey(server: ServerProcess, address: string): Promise<Response> {
  return fetch(`${server.url}/api/v3/checks`, {
    headers: { 'x-forwarded-for': address, authorization: 'Bearer not-a-key' },
  });
}

describe.each(dialects())('limits shared by two server processes on one %s database', (dialect) => {
  let servers: ServerProcess[] = [];
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    const env = {
      ...fresh.env,
      TRUST_PROXY: '127.0.0.1',
      FAILED_REQUEST_LIMIT_PER_MINUTE: String(FAILED_PER_MINUTE),
    };
    // One first (it migrates), then the second: both on the same database.
    servers = [await startServerProcess(env)];
    servers.push(await startServerProcess(env));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await cleanup();
  });

  const pick = (i: number): ServerProcess => {
    const server = servers[i % 2];
    if (server === undefined) throw new Error('servers did not start');
    return server;
  };

  it('one address guessing one account, alternating servers: exactly 5 guesses judged, then 429 on both', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < SIGN_IN_LIMIT + 3; i++)
      statuses.push((await signIn(pick(i), '203.0.113.10', 'owner@shared.test', `guess ${i}`)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429, 429]);
    // One server alone would judge five more from the same address (it counted only its own three).
    const again = await signIn(pick(1), '203.0.113.10', 'owner@shared.test', 'one more');
    expect(again.status).toBe(429);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not limited by this one's guesses.
    expect((await signIn(pick(0), '203.0.113.11', 'owner@shared.test', 'guess')).status).toBe(401);
  });

  it('guesses sent to both servers at once: still exactly 5 judged', async () => {
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, i) => signIn(pick(i), '203.0.113.20', 'racer@shared.test', `guess ${i}`)),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(SIGN_IN_LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(12 - SIGN_IN_LIMIT);
  });

  it("the failed-request budget is one across servers: a minute's budget of bad keys, then 429 on both", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < FAILED_PER_MINUTE + 4; i++) statuses.push((await badKey(pick(i), '198.51.100.30')).status);
    expect(statuses).toEqual([
      ...Array.from({ length: FAILED_PER_MINUTE }, () => 401),
      ...Array.from({ length: 4 }, () => 429),
    ]);
    // Unknown paths draw on the same budget, on either server.
    const scan = await fetch(`${pick(1).url}/wp-login.php`, { headers: { 'x-forwarded-for': '198.51.100.30' } });
    expect(scan.status).toBe(429);
    const body = (await scan.json()) as { success: boolean; errorMsg: string };
    expect(body.success).toBe(false);
    // And at both at once from a fresh address: exactly the budget is answered 401.
    const burst = await Promise.all(Array.from({ length: 16 }, (_, i) => badKey(pick(i), '198.51.100.31')));
    expect(burst.filter((r) => r.status === 401)).toHaveLength(FAILED_PER_MINUTE);
    expect(burst.filter((r) => r.status === 429)).toHaveLength(16 - FAILED_PER_MINUTE);
  });
});
