// Hostile form bodies: four connections of one tenant loop the worst form-encoded body of the red
// team's finding — 2 MB of 19,999 keys each 31 brackets deep, which `qs.parse` took 0.6–0.8 s
// over before the form bounds were measured on the raw text — while another tenant's
// GET /checks/{id} and /healthz are timed one after another (p50/p99), and the same two idle
// first, on the same server in the same run. Targets: the other tenant's GET p99 ≤ 250 ms during
// the flood, and every hostile body answered 4xx.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createAccount, createBasics } from '../fixtures.ts';
import { HttpClient } from '../http-client.ts';
import { fmt, type ScenarioContext, type ScenarioOutcome, type Verdict } from '../scenario.ts';

/** The other tenant's GET p99 while the flood runs (the issue's figure before: up to 13.4 s). */
const OTHER_TENANT_GET_P99_MS = 250;
const FLOOD_CONNECTIONS = 4;
const PAUSE_MS = 20;

/** The finding's body: 19,999 keys `k0[0][0]…[0]=1`, each 31 brackets deep, ~2 MB. */
export function deepestFormBody(): Buffer {
  return Buffer.from(Array.from({ length: 19_999 }, (_, i) => `k${i}${'[0]'.repeat(31)}=1`).join('&'), 'utf8');
}

interface Timings {
  count: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface HostileFormsDetails {
  bodyBytes: number;
  seconds: number;
  idle: { get: Timings; healthz: Timings };
  flood: { get: Timings; healthz: Timings; answers: Record<string, number>; bodiesPerSec: number };
}

function timings(latencies: readonly number[]): Timings {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? Number.NaN;
  return { count: sorted.length, p50Ms: at(0.5), p99Ms: at(0.99), maxMs: sorted.at(-1) ?? Number.NaN };
}

/** One request on `agent`; answers its status once the whole answer is read. */
function send(
  agent: Agent,
  url: string,
  init: { method: 'GET' | 'POST'; key?: string; body?: Buffer; type?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: init.method,
        agent,
        headers: {
          ...(init.key === undefined ? {} : { authorization: `Bearer ${init.key}` }),
          ...(init.body === undefined
            ? {}
            : { 'content-type': init.type ?? 'application/json', 'content-length': String(init.body.length) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}

/** Times `url` one request after another, PAUSE_MS apart, until `until` (performance.now()). */
async function timeLoop(url: string, until: number, key?: string): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const latencies: number[] = [];
  try {
    while (performance.now() < until) {
      const sent = performance.now();
      const status = await send(agent, url, { method: 'GET', ...(key === undefined ? {} : { key }) });
      if (status !== 200) throw new Error(`GET ${url} answered ${status}`);
      latencies.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    }
  } finally {
    agent.destroy();
  }
  return latencies;
}

interface CreatedReply {
  data: { checks: { checkId: string }[] };
}

export async function runHostileForms(ctx: ScenarioContext): Promise<ScenarioOutcome<HostileFormsDetails>> {
  const other = await createAccount(ctx.database, 'hostile-forms-other@bench.test');
  const setup = new HttpClient(ctx.serverUrl, other.key);
  let checkUrl: string;
  try {
    const basics = await createBasics(setup, ['Acme Supplies']);
    const created = await setup.json<CreatedReply>('POST', '/checks', 201, {
      checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payees[0]?.id, amount: '42.00' }],
    });
    checkUrl = `${ctx.serverUrl}/api/v3/checks/${created.data.checks[0]?.checkId}`;
  } finally {
    setup.close();
  }
  const flooder = await createAccount(ctx.database, 'hostile-forms-flood@bench.test');
  const body = deepestFormBody();
  const healthzUrl = `${ctx.serverUrl}/healthz`;
  const seconds = Math.min(5, Math.max(3, ctx.options.duration));

  const idleUntil = performance.now() + 2_000;
  const [idleGet, idleHealthz] = await Promise.all([
    timeLoop(checkUrl, idleUntil, other.key),
    timeLoop(healthzUrl, idleUntil),
  ]);

  const answers: Record<string, number> = {};
  let bodies = 0;
  const floodStarted = performance.now();
  const until = floodStarted + seconds * 1_000;
  const flood = Array.from({ length: FLOOD_CONNECTIONS }, async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      while (performance.now() < until) {
        const status = await send(agent, `${ctx.serverUrl}/api/v3/payees`, {
          method: 'POST',
          key: flooder.key,
          body,
          type: 'application/x-www-form-urlencoded',
        });
        answers[String(status)] = (answers[String(status)] ?? 0) + 1;
        bodies += 1;
      }
    } finally {
      agent.destroy();
    }
  });
  const [floodGet, floodHealthz] = await Promise.all([
    timeLoop(checkUrl, until, other.key),
    timeLoop(healthzUrl, until),
    ...flood,
  ]);
  const floodSeconds = (performance.now() - floodStarted) / 1_000;

  const details: HostileFormsDetails = {
    bodyBytes: body.length,
    seconds: floodSeconds,
    idle: { get: timings(idleGet), healthz: timings(idleHealthz) },
    flood: {
      get: timings(floodGet),
      healthz: timings(floodHealthz),
      answers,
      bodiesPerSec: bodies / floodSeconds,
    },
  };
  const all4xx = Object.keys(answers).every((status) => status.startsWith('4')) && bodies > 0;
  const p = (t: Timings) => `p50 ${fmt(t.p50Ms, 1)} / p99 ${fmt(t.p99Ms, 1)} ms (${t.count})`;
  const mb = fmt(body.length / 1_048_576, 1);
  const verdicts: Verdict[] = [
    {
      scenario: 'hostile forms: idle, other tenant GET /checks/{id} | /healthz',
      measured: `${p(details.idle.get)} | ${p(details.idle.healthz)}`,
      target: 'baseline',
      pass: null,
    },
    {
      scenario: `hostile forms: ${FLOOD_CONNECTIONS} connections looping a ${mb} MB form body`,
      measured: `${fmt(details.flood.bodiesPerSec, 1)} bodies/s for ${fmt(floodSeconds, 1)} s, answered ${Object.entries(
        answers,
      )
        .map(([status, n]) => `${status} × ${n}`)
        .join(', ')}`,
      target: 'every answer 4xx',
      pass: all4xx,
    },
    {
      scenario: 'hostile forms: other tenant GET /checks/{id} during the flood',
      measured: p(details.flood.get),
      target: `p99 ≤ ${OTHER_TENANT_GET_P99_MS} ms`,
      pass: details.flood.get.p99Ms <= OTHER_TENANT_GET_P99_MS,
    },
    {
      scenario: 'hostile forms: /healthz during the flood',
      measured: p(details.flood.healthz),
      target: 'reported',
      pass: null,
    },
  ];
  return { details, verdicts };
}
