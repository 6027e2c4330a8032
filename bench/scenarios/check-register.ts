// Issue 14's register target: the register page of a bank account with 100,000 checks, p99 ≤ 250 ms
// (docs/reconciliation.md). A signed-up panel session; the checks are seeded through the store
// (seed.ts: the same status mix as the list scenario, two years of dates), and most issued checks
// older than the last few weeks are cleared, as a bank account that is reconciled every month
// looks. Measured: the panel's register page at the start, the middle and the end (the latest
// checks, where an operator opens it) with 10 pages loading at once, as the panel scenario does;
// the API's register at the middle page is the baseline.
import { HttpClient } from '../http-client.ts';
import { createBasics } from '../fixtures.ts';
import { measure, type LoadResult } from '../load.ts';
import { PanelClient } from '../panel-client.ts';
import { seedChecks } from '../seed.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';
import { PANEL_CONNECTIONS, settle } from './panel.ts';

export const REGISTER_CHECKS = 100_000;
/** The register page's default size. */
const PER_PAGE = 50;
/** Issued checks created before this many days ago have cleared; later ones are outstanding. */
const OUTSTANDING_DAYS = 45;

const ACCOUNT = {
  company: 'Bench Register Supply',
  email: 'register@bench.test',
  phone: '+14155552671',
  password: 'bench-register-password',
};

interface RegisterReply {
  data: { meta: { total: number }; outstanding: { count: number; total: number }; checks: unknown[] };
}

export interface CheckRegisterPageResult {
  name: string;
  path: string;
  bodyBytes: number;
  load: LoadResult;
}

export interface CheckRegisterDetails {
  checks: number;
  outstanding: { count: number; total: number };
  seedMs: number;
  pages: CheckRegisterPageResult[];
}

function describe(r: LoadResult): string {
  const cpu = r.serverCpuUsPerRequest === null ? '' : `, ${fmt(r.serverCpuUsPerRequest)} µs CPU/req`;
  return `${fmt(r.reqPerSec)} req/s, p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms${cpu}`;
}

/** Signs up through the forms and makes a test key on the keys page; answers the key. */
async function signUpWithKey(panel: PanelClient): Promise<string> {
  await panel.submit('/panel/sign-up', '/panel/sign-up', ACCOUNT, 303);
  await panel.submit('/panel/sign-in', '/panel/sign-in', { email: ACCOUNT.email, password: ACCOUNT.password }, 303);
  const created = await panel.submit('/panel/keys', '/panel/keys', { name: 'register bench', env: 'test' }, 201);
  const key = /<code class="secret" id="new-key">([^<]+)<\/code>/.exec(created.body)?.[1];
  if (key === undefined) throw new Error('POST /panel/keys answered 201 without the new key');
  return key;
}

export async function runCheckRegister(ctx: ScenarioContext): Promise<ScenarioOutcome<CheckRegisterDetails>> {
  const { db } = ctx.database;
  const panel = new PanelClient(ctx.serverUrl);
  try {
    const key = await signUpWithKey(panel);
    const client = new HttpClient(ctx.serverUrl, key);
    let bankAccountId: string;
    let seedMs: number;
    try {
      const basics = await createBasics(client, ['Acme Supplies', 'Blue Harbor Freight', 'Northwind Traders']);
      bankAccountId = basics.bankAccountId;
      const account = await db.get<{ id: string }>('SELECT id FROM accounts WHERE email = ?', [ACCOUNT.email]);
      if (account === undefined) throw new Error('the signed-up account is not in the database');
      const seeded = await seedChecks(
        db,
        { owner: { accountId: account.id, env: 'test' }, ...basics },
        null,
        REGISTER_CHECKS,
        {},
        () => undefined,
      );
      seedMs = seeded.ms;
      await db.run(
        `UPDATE checks SET cleared_date = issue_date
         WHERE bank_account_id = ? AND status IN (1, 2, 3, 4) AND created_at < ?`,
        [bankAccountId, Date.now() - OUTSTANDING_DAYS * 86_400_000],
      );
      if (db.dialect === 'postgres') await db.run('VACUUM ANALYZE checks');
    } finally {
      client.close();
    }
    const middle = Math.floor(REGISTER_CHECKS / PER_PAGE / 2);
    const last = Math.ceil(REGISTER_CHECKS / PER_PAGE);
    const apiPath = `/api/v3/bankAccounts/${bankAccountId}/register?perPage=${PER_PAGE}&page=${middle}`;
    const api = new HttpClient(ctx.serverUrl, key);
    let outstanding: { count: number; total: number };
    try {
      const reply = await api.send('GET', apiPath.slice('/api/v3'.length));
      const parsed = JSON.parse(reply.body) as RegisterReply;
      if (reply.status !== 200 || parsed.data.meta.total !== REGISTER_CHECKS || parsed.data.checks.length !== PER_PAGE)
        throw new Error(`GET ${apiPath}: ${reply.status} ${reply.body.slice(0, 300)}`);
      outstanding = parsed.data.outstanding;
    } finally {
      api.close();
    }
    const path = `/panel/bank-accounts/${bankAccountId}/register`;
    const targets: { name: string; path: string; headers: Record<string, string> }[] = [
      {
        name: `API GET …/register?perPage=${PER_PAGE}&page=${middle}`,
        path: apiPath,
        headers: { authorization: `Bearer ${key}` },
      },
      { name: '/panel/…/register (first page)', path, headers: { cookie: panel.cookieHeader() } },
      {
        name: `/panel/…/register?page=${middle} (middle)`,
        path: `${path}?page=${middle}&perPage=${PER_PAGE}`,
        headers: { cookie: panel.cookieHeader() },
      },
      {
        name: `/panel/…/register?page=${last} (latest)`,
        path: `${path}?page=${last}&perPage=${PER_PAGE}`,
        headers: { cookie: panel.cookieHeader() },
      },
    ];
    const pages: CheckRegisterPageResult[] = [];
    for (const t of targets) {
      // Each page is fetched once first: a 303 to sign-in or a short page would measure something else.
      const once = t.path.startsWith('/api/') ? null : await panel.get(t.path);
      if (once !== null && !once.body.includes('id="outstanding-total"'))
        throw new Error(`GET ${t.path}: not the register page: ${once.body.slice(0, 300)}`);
      const load = await measure(
        {
          url: `${ctx.serverUrl}${t.path}`,
          headers: t.headers,
          connections: PANEL_CONNECTIONS,
          duration: ctx.options.duration,
        },
        ctx.serverPid,
      );
      pages.push({ name: t.name, path: t.path, bodyBytes: once === null ? 0 : Buffer.byteLength(once.body), load });
    }
    // Requests still in flight when autocannon stopped finish before the harness stops the server.
    await settle(ctx.serverPid);
    const [baseline, ...panelPages] = pages;
    if (baseline === undefined) throw new Error('register: nothing was measured');
    const verdicts: Verdict[] = [
      {
        scenario: `register baseline: ${baseline.name}`,
        measured: describe(baseline.load),
        target: 'baseline',
        pass: null,
      },
      ...panelPages.map((p) => ({
        scenario: `register: ${p.name}, ${fmt(REGISTER_CHECKS)} checks`,
        measured: describe(p.load),
        target: `p99 ≤ ${TARGETS.registerP99Ms} ms`,
        pass: p.load.p99Ms <= TARGETS.registerP99Ms,
      })),
    ];
    return { verdicts, details: { checks: REGISTER_CHECKS, outstanding, seedMs, pages } };
  } finally {
    panel.close();
  }
}
