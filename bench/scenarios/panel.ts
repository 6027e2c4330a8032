// The developer panel's server-rendered pages under load, against the API's own list endpoint in
// the same run: the question is whether any page needs seconds, and what rendering HTML for a
// signed-in session costs next to serialising JSON for a key. The account is made the way a
// developer makes one (sign-up form, then a test key on the keys page), so the pages measured are
// those of a real session; its checks are created over the API with that key.
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpClient, type RawReply } from '../http-client.ts';
import { createBasics } from '../fixtures.ts';
import { measure, type LoadResult } from '../load.ts';
import { processCpuSeconds } from '../machine-load.ts';
import { PanelClient } from '../panel-client.ts';
import { MAX_BATCH } from '../../src/schemas/common.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';

/** Checks in the panel account: enough that pages and totals come from a real list, not a toy one. */
export const PANEL_CHECKS = 10_000;
/** The page size compared between panel and API (the panel's default is 10). */
const WIDE_PAGE = 100;
/**
 * Pages loading at once. The panel serves people, not integrations: 10 at once is a busy team.
 * More connections only queue (one server process), and p99 would then measure the queue's length
 * instead of how long a page takes; the GET scenario's --connections is for that question.
 */
export const PANEL_CONNECTIONS = 10;

const ACCOUNT = {
  company: 'Bench Panel Supply',
  email: 'panel@bench.test',
  phone: '+14155552671',
  password: 'bench-panel-password',
};
const MEMOS = ['Consulting services', 'Office rent', 'Monthly retainer', 'Equipment lease', 'Office supplies'];

export interface PanelPageResult {
  name: string;
  path: string;
  bodyBytes: number;
  /** The runs below as one figure (combine()). */
  load: LoadResult;
  runs: LoadResult[];
}

export interface PanelDetails {
  checks: number;
  connections: number;
  /** GET /api/v3/checks?perPage=100 with the account's Bearer key. */
  baseline: PanelPageResult;
  pages: PanelPageResult[];
  /** req/s of /panel/checks?perPage=100 ÷ req/s of the API list of the same page. */
  ratio: number;
  /** API CPU µs/request ÷ panel CPU µs/request for that pair (null without /proc). */
  cpuRatio: number | null;
}

interface CreatedReply {
  data: { checks: { checkId: string; serialNumber: string }[] };
}

interface ListReply {
  data: { meta: { total: number }; checks: unknown[] };
}

function describe(page: PanelPageResult): string {
  const r = page.load;
  const cpu = r.serverCpuUsPerRequest === null ? '' : `, ${fmt(r.serverCpuUsPerRequest)} µs CPU/req`;
  return `${fmt(r.reqPerSec)} req/s, p50 ${fmt(r.p50Ms)} ms, p99 ${fmt(r.p99Ms)} ms${cpu}${page.runs.length > 1 ? ` (${page.runs.length} runs)` : ''}`;
}

/** Rows of a panel checks list: each links to its check's page. */
function checkLinks(page: string): number {
  return page.match(/<a href="\/panel\/checks\/chk_[^"/]+">/g)?.length ?? 0;
}

/** Signs up and in through the forms and makes a test key on the keys page; answers the key. */
async function signUpWithKey(panel: PanelClient): Promise<string> {
  // The sign-up page sets the CSRF cookie. Signing up signs nobody in (the same answer whether or
  // not the email had an account): the owner signs in next, as a person would.
  await panel.submit('/panel/sign-up', '/panel/sign-up', ACCOUNT, 303);
  const signedIn = await panel.submit(
    '/panel/sign-in',
    '/panel/sign-in',
    { email: ACCOUNT.email, password: ACCOUNT.password, next: '/panel' },
    303,
  );
  if (!panel.cookies.has('cw_session'))
    throw new Error(`POST /panel/sign-in answered 303 to ${signedIn.location} but set no session cookie`);
  // The token is bound to the session, so it comes from a page fetched after signing in.
  const created = await panel.submit('/panel/keys', '/panel/keys', { name: 'panel bench', env: 'test' }, 201);
  const key = /<code class="secret" id="new-key">([^<]+)<\/code>/.exec(created.body)?.[1];
  if (key === undefined) throw new Error('POST /panel/keys answered 201 without the new key');
  return key;
}

/**
 * PANEL_CHECKS checks over the API in its largest batches (20 requests of 500), as a client would
 * create them; answers one of them (id and serial) for its page.
 */
async function seedChecks(client: HttpClient): Promise<{ id: string; serial: string }> {
  const basics = await createBasics(client, ['Acme Supplies', 'Blue Harbor Freight', 'Northwind Traders']);
  let picked: { id: string; serial: string } | null = null;
  for (let start = 0; start < PANEL_CHECKS; start += MAX_BATCH) {
    const checks = Array.from({ length: Math.min(MAX_BATCH, PANEL_CHECKS - start) }, (_, k) => {
      const i = start + k;
      return {
        bankAccountId: basics.bankAccountId,
        payeeId: basics.payees[i % basics.payees.length]?.id,
        amount: (((i * 7919) % 500_000) / 100 + 1).toFixed(2),
        memo: MEMOS[i % MEMOS.length],
        invoiceNumber: `INV-${String(i).padStart(6, '0')}`,
      };
    });
    const created = await client.json<CreatedReply>('POST', '/checks', 201, { checks });
    // A check from the middle of the account: its page is an ordinary one, not the newest.
    const middle = created.data.checks[0];
    if (start === Math.floor(PANEL_CHECKS / 2 / MAX_BATCH) * MAX_BATCH && middle !== undefined)
      picked = { id: middle.checkId, serial: middle.serialNumber };
  }
  if (picked === null) throw new Error('POST /checks returned no check to open');
  return picked;
}

/**
 * autocannon stops with requests in flight, and the server still works them off after their
 * sockets are gone. The harness stops the server right after the last scenario, and on
 * PostgreSQL those requests would then fail on the closed pool and log errors. So wait until the
 * server has used no CPU for 100 ms (at most 5 s; at once where /proc is missing).
 */
export async function settle(pid: number): Promise<void> {
  let before = processCpuSeconds(pid);
  for (let waited = 0; before !== null && waited < 5_000; waited += 100) {
    await sleep(100);
    const now = processCpuSeconds(pid);
    if (now === before) return;
    before = now;
  }
}

interface Target {
  name: string;
  path: string;
  /** The body as fetched once before the load, checked to be the page meant. */
  body: string;
  headers: Record<string, string>;
}

/** The account, its checks and a session; answers what to load, the API baseline first. */
async function prepare(ctx: ScenarioContext, panel: PanelClient): Promise<Target[]> {
  const key = await signUpWithKey(panel);
  const client = new HttpClient(ctx.serverUrl, key);
  let check: { id: string; serial: string };
  let api: RawReply;
  try {
    check = await seedChecks(client);
    api = await client.send('GET', `/checks?perPage=${WIDE_PAGE}`);
  } finally {
    client.close();
  }
  if (ctx.database.db.dialect === 'postgres') {
    // 10,000 fresh rows put the tables over autovacuum's thresholds: it would vacuum and analyse
    // them within a minute, in the middle of the measurements. Done now (as seed.ts does), the
    // plans and index-only scans do not depend on when that happens.
    await ctx.database.db.run('VACUUM ANALYZE checks');
    await ctx.database.db.run('VACUUM ANALYZE check_statements');
    await ctx.database.db.run('ANALYZE payees');
    await ctx.database.db.run('ANALYZE check_counts');
  }
  const list = api.status === 200 ? (JSON.parse(api.body) as ListReply) : null;
  if (list?.data.meta.total !== PANEL_CHECKS || list.data.checks.length !== WIDE_PAGE) {
    throw new Error(
      `GET /api/v3/checks?perPage=${WIDE_PAGE}: ${api.status} ${api.body.slice(0, 300)}; expected ${WIDE_PAGE} of ${PANEL_CHECKS} checks`,
    );
  }
  const targets: Target[] = [
    {
      name: `API GET /api/v3/checks?perPage=${WIDE_PAGE}`,
      path: `/api/v3/checks?perPage=${WIDE_PAGE}`,
      body: api.body,
      headers: { authorization: `Bearer ${key}` },
    },
  ];
  // Pages answer 200 only while the session cookie is good: a lost session is a 303 to sign-in,
  // which measure() refuses, so every figure is of a signed-in page. Each page is fetched once
  // first and checked, so a sign-in form or an empty list cannot pass for the page.
  const pages: { name: string; path: string; expect: (body: string) => boolean }[] = [
    // The compared page first, right after the baseline: the same query, HTML instead of JSON.
    {
      name: `/panel/checks?perPage=${WIDE_PAGE}`,
      path: `/panel/checks?perPage=${WIDE_PAGE}`,
      expect: (b) => checkLinks(b) === WIDE_PAGE,
    },
    { name: '/panel/checks (first page, 10)', path: '/panel/checks', expect: (b) => checkLinks(b) === 10 },
    {
      name: '/panel/checks/{id}',
      path: `/panel/checks/${check.id}`,
      expect: (b) => b.includes(`Check ${check.serial} `) && b.includes(check.id),
    },
    { name: '/panel/keys', path: '/panel/keys', expect: (b) => b.includes('panel bench') },
    { name: '/panel (home)', path: '/panel', expect: (b) => b.includes(ACCOUNT.company) && b.includes('Get started') },
  ];
  const cookie = panel.cookieHeader();
  for (const p of pages) {
    const reply = await panel.get(p.path);
    if (!p.expect(reply.body)) throw new Error(`GET ${p.path}: not the page to measure: ${reply.body.slice(0, 300)}`);
    targets.push({ name: p.name, path: p.path, body: reply.body, headers: { cookie } });
  }
  return targets;
}

/** Runs of one URL as one figure: req/s and CPU averaged, p99 the worse run's (the target's side). */
function combine(runs: readonly LoadResult[]): LoadResult {
  const [first] = runs;
  if (first === undefined) throw new Error('panel: a page was not measured');
  const sum = (f: (r: LoadResult) => number): number => runs.reduce((acc, r) => acc + f(r), 0);
  const requests = sum((r) => r.requests);
  return {
    reqPerSec: sum((r) => r.reqPerSec) / runs.length,
    p50Ms: sum((r) => r.p50Ms) / runs.length,
    p99Ms: Math.max(...runs.map((r) => r.p99Ms)),
    requests,
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    connections: first.connections,
    durationS: sum((r) => r.durationS),
    serverCpuUsPerRequest: runs.some((r) => r.serverCpuUsPerRequest === null)
      ? null
      : sum((r) => (r.serverCpuUsPerRequest ?? 0) * r.requests) / requests,
  };
}

export async function runPanel(ctx: ScenarioContext): Promise<ScenarioOutcome<PanelDetails>> {
  const panel = new PanelClient(ctx.serverUrl);
  const runs = new Map<Target, LoadResult[]>();
  let targets: Target[];
  try {
    targets = await prepare(ctx, panel);
    const [api, wide, ...others] = targets;
    if (api === undefined || wide === undefined) throw new Error('panel: nothing to measure');
    // The compared pair alternates, twice each (as idempotency.ts does): on the 2-core VM the
    // same request's CPU cost drifted by ±20% between quiet runs, and single 3 s runs of each put
    // the ratio at 0.66, 0.94 and 1.20 in three runs.
    for (const t of [api, wide, api, wide, ...others]) {
      const load = await measure(
        {
          url: `${ctx.serverUrl}${t.path}`,
          headers: t.headers,
          connections: PANEL_CONNECTIONS,
          duration: ctx.options.duration,
        },
        ctx.serverPid,
      );
      runs.set(t, [...(runs.get(t) ?? []), load]);
    }
    await settle(ctx.serverPid);
  } finally {
    panel.close();
  }
  const results: PanelPageResult[] = targets.map((t) => {
    const own = runs.get(t) ?? [];
    return { name: t.name, path: t.path, bodyBytes: Buffer.byteLength(t.body), load: combine(own), runs: own };
  });
  const [baseline, ...pages] = results;
  const wide = pages[0];
  if (baseline === undefined || wide === undefined) throw new Error('panel: nothing was measured');
  const ratio = wide.load.reqPerSec / baseline.load.reqPerSec;
  const apiCpu = baseline.load.serverCpuUsPerRequest;
  const panelCpu = wide.load.serverCpuUsPerRequest;
  const cpuRatio = apiCpu === null || panelCpu === null ? null : apiCpu / panelCpu;
  const verdicts: Verdict[] = [
    { scenario: `panel baseline: ${baseline.name}`, measured: describe(baseline), target: 'baseline', pass: null },
    ...pages.map((r) => ({
      scenario: `panel: ${r.name}`,
      measured: describe(r),
      target: `p99 ≤ ${TARGETS.panelP99Ms} ms`,
      pass: r.load.p99Ms <= TARGETS.panelP99Ms,
    })),
    {
      scenario: `panel: /panel/checks?perPage=${WIDE_PAGE} ÷ API list`,
      measured: `${fmt(ratio, 2)} of the API's req/s (by CPU per request: ${cpuRatio === null ? 'n/a' : fmt(cpuRatio, 2)})`,
      target: 'reported',
      pass: null,
    },
  ];
  return {
    details: { checks: PANEL_CHECKS, connections: PANEL_CONNECTIONS, baseline, pages, ratio, cpuRatio },
    verdicts,
  };
}
