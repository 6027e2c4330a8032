// GET /api/v3/checks latency on an account of N checks: pages (first, middle, last), status
// filters and term filters. One request at a time from one client, so each sample is the latency
// of that query alone (no queueing behind other requests).
import { performance } from 'node:perf_hooks';
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';
import { isStatusName, statusCode } from '../../src/domain/check-status.ts';
import { parseAmountToCents } from '../../src/domain/money.ts';
import { invoiceNumber, seedChecks, type SeededCheck, type SeedResult } from '../seed.ts';

/** Per query, stop sampling after this long (slow queries still get MIN_SAMPLES). */
const BUDGET_MS = 5_000;
const MIN_SAMPLES = 5;
const WARMUP = 2;

const PAYEE_WORDS_A = ['Blue', 'North', 'Silver', 'Granite', 'Cedar', 'Harbor', 'Summit', 'Maple', 'Iron', 'Golden'];
const PAYEE_WORDS_B = ['Ridge', 'Valley', 'Point', 'Creek', 'Field', 'Bridge', 'Lake', 'Stone', 'Brook', 'Grove'];
const PAYEE_KINDS = ['Supplies', 'Freight'];

/** 200 distinct payee names; one of them is the "payee name" term. */
function payeeNames(): string[] {
  return PAYEE_KINDS.flatMap((kind) => PAYEE_WORDS_A.flatMap((a) => PAYEE_WORDS_B.map((b) => `${a} ${b} ${kind}`)));
}

interface ListQuery {
  name: string;
  params: { status?: string; term?: string };
  page: 'first' | 'middle' | 'last';
}

/**
 * Whether the service should list `check` for these filters: the term is a case-insensitive
 * substring of search_text or of the payee's name, or equals the amount when it reads as one
 * (check.service.ts listChecks, checks.repository.ts listChecks).
 */
function matcher(params: ListQuery['params']): (check: SeededCheck) => boolean {
  const status = params.status === undefined ? null : isStatusName(params.status) ? statusCode(params.status) : -1;
  const term = params.term?.toLowerCase() ?? null;
  const parsed = params.term === undefined ? null : parseAmountToCents(params.term);
  const cents = parsed !== null && 'cents' in parsed ? parsed.cents : null;
  return (check) =>
    (status === null || check.status === status) &&
    (term === null || check.searchText.includes(term) || check.payeeName.toLowerCase().includes(term) || check.amountCents === cents);
}

function filterKey(params: ListQuery['params']): string {
  return JSON.stringify(params);
}

export interface ListQueryResult {
  name: string;
  url: string;
  total: number;
  samples: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface ListDetails {
  checks: number;
  perPage: number;
  seed: SeedResult;
  queries: ListQueryResult[];
}

function percentile(sorted: readonly number[], p: number): number {
  // Nearest rank: with 200 samples p99 is the second-slowest, never an interpolation.
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? Number.NaN;
}

interface ListReply {
  success: boolean;
  data: { meta: { total: number }; checks: unknown[] };
}

function pathOf(params: ListQuery['params'], page: number, perPage: number): string {
  return `/checks?${new URLSearchParams({ ...params, perPage: String(perPage), page: String(page) }).toString()}`;
}

async function timeQuery(client: HttpClient, query: ListQuery, perPage: number, maxSamples: number, expectedTotal: number): Promise<ListQueryResult> {
  // The first page tells how many pages there are, and must count exactly the seeded matches:
  // a total of 0 would otherwise "measure" fast empty pages.
  const first = await client.json<ListReply>('GET', pathOf(query.params, 1, perPage), 200);
  const total = first.data.meta.total;
  if (total !== expectedTotal) throw new Error(`${query.name}: the API reports ${total} checks, the seeded data has ${expectedTotal} (bench/seed.ts out of step with the service?)`);
  const pages = Math.max(1, Math.ceil(total / perPage));
  const page = query.page === 'first' ? 1 : query.page === 'last' ? pages : Math.ceil(pages / 2);
  const path = pathOf(query.params, page, perPage);
  const expected = Math.min(perPage, Math.max(0, total - (page - 1) * perPage));
  const samples: number[] = [];
  const started = performance.now();
  for (let i = 0; i < WARMUP + maxSamples; i += 1) {
    const reply = await client.send('GET', path);
    if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.body.slice(0, 300)}`);
    if (i < WARMUP) {
      const body = JSON.parse(reply.body) as ListReply;
      if (body.data.checks.length !== expected) throw new Error(`GET ${path}: ${body.data.checks.length} checks, expected ${expected}`);
      continue;
    }
    samples.push(reply.ms);
    if (samples.length >= MIN_SAMPLES && performance.now() - started > BUDGET_MS) break;
  }
  samples.sort((a, b) => a - b);
  return {
    name: query.name,
    url: `/api/v3${path}`,
    total,
    samples: samples.length,
    p50Ms: percentile(samples, 50),
    p99Ms: percentile(samples, 99),
    maxMs: samples[samples.length - 1] ?? Number.NaN,
  };
}

export async function runList(ctx: ScenarioContext, log: (line: string) => void): Promise<ScenarioOutcome<ListDetails>> {
  const { checks, perPage, listSamples } = ctx.options;
  const account = await createAccount(ctx.database, 'list@bench.test');
  const client = new HttpClient(ctx.serverUrl, account.key);
  try {
    const names = payeeNames();
    const basics = await createBasics(client, names);
    // About ten invoices share this prefix: the "term matching few".
    const fewTerm = invoiceNumber(Math.floor(checks / 2)).slice(0, -1);
    const payeeTerm = names[37] ?? 'Harbor';
    const queries: ListQuery[] = [
      { name: 'all, first page', params: {}, page: 'first' },
      { name: 'all, middle page', params: {}, page: 'middle' },
      { name: 'all, last page', params: {}, page: 'last' },
      { name: 'status=printed (25%), first page', params: { status: 'printed' }, page: 'first' },
      { name: 'status=printed (25%), last page', params: { status: 'printed' }, page: 'last' },
      { name: 'status=void (4%), first page', params: { status: 'void' }, page: 'first' },
      { name: 'term "services" (many), first page', params: { term: 'services' }, page: 'first' },
      { name: 'term "services" (many), last page', params: { term: 'services' }, page: 'last' },
      { name: `term "${fewTerm}" (few), first page`, params: { term: fewTerm }, page: 'first' },
      { name: `term payee "${payeeTerm}", first page`, params: { term: payeeTerm }, page: 'first' },
      { name: 'term amount "1500", first page', params: { term: '1500' }, page: 'first' },
      { name: 'term "services" + status=void, first page', params: { term: 'services', status: 'void' }, page: 'first' },
    ];
    const predicates = Object.fromEntries(queries.map((q) => [filterKey(q.params), matcher(q.params)]));
    let lastShown = 0;
    const seed = await seedChecks(ctx.database.db, account.owner, basics.bankAccountId, basics.payees, checks, predicates, (done) => {
      if (done - lastShown >= 100_000 || done === checks) {
        lastShown = done;
        log(`  seeded ${fmt(done)} / ${fmt(checks)} checks`);
      }
    });
    log(`  seeding: ${fmt(seed.checksPerSec)} checks/s (${fmt(seed.ms / 1000, 1)} s, each check with its statement row)`);

    const results: ListQueryResult[] = [];
    for (const query of queries) {
      const result = await timeQuery(client, query, perPage, listSamples, seed.matches[filterKey(query.params)] ?? 0);
      log(`  ${query.name}: total ${fmt(result.total)}, p50 ${fmt(result.p50Ms, 1)} ms, p99 ${fmt(result.p99Ms, 1)} ms (${result.samples} samples)`);
      results.push(result);
    }
    const verdicts: Verdict[] = [
      { scenario: `list: seeding ${fmt(checks)} checks`, measured: `${fmt(seed.checksPerSec)} checks/s`, target: 'reported', pass: null },
      ...results.map((r) => ({
        scenario: `list: ${r.name}`,
        measured: `p50 ${fmt(r.p50Ms, 1)} ms, p99 ${fmt(r.p99Ms, 1)} ms`,
        target: `p99 ≤ ${TARGETS.listP99Ms} ms`,
        pass: r.p99Ms <= TARGETS.listP99Ms,
      })),
    ];
    return { details: { checks, perPage, seed, queries: results }, verdicts };
  } finally {
    client.close();
  }
}
