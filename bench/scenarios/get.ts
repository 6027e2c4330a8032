// GET /api/v3/checks/{id} against the raw node:http baseline serving the very same bytes, in the
// same run, on the same cores, with the same autocannon settings.
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { measure, type LoadResult } from '../load.ts';
import { startRawServer } from '../processes.ts';
import { fmt, TARGETS, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';

export interface GetDetails {
  path: string;
  bodyBytes: number;
  raw: LoadResult;
  real: LoadResult;
  ratio: number;
  /**
   * raw CPU µs/request ÷ checkwriter CPU µs/request: the same comparison by cost instead of
   * throughput, which holds up when other processes compete for the cores (null without /proc).
   */
  cpuRatio: number | null;
}

function describe(r: LoadResult): string {
  const cpu = r.serverCpuUsPerRequest === null ? '' : `, ${fmt(r.serverCpuUsPerRequest)} µs CPU/req`;
  return `${fmt(r.reqPerSec)} req/s, p99 ${fmt(r.p99Ms)} ms${cpu}`;
}

interface CreatedReply {
  data: { checks: { checkId: string }[] };
}

export async function runGet(ctx: ScenarioContext): Promise<ScenarioOutcome<GetDetails>> {
  const { key } = await createAccount(ctx.database, 'get@bench.test');
  const client = new HttpClient(ctx.serverUrl, key);
  let path: string;
  let body: string;
  let contentType: string;
  try {
    const basics = await createBasics(client, ['Acme Supplies']);
    const created = await client.json<CreatedReply>('POST', '/checks', 201, {
      checks: [{ bankAccountId: basics.bankAccountId, payeeId: basics.payees[0]?.id, amount: '1234.56', memo: 'Consulting services', invoiceNumber: 'INV-0001' }],
    });
    const checkId = created.data.checks[0]?.checkId;
    if (checkId === undefined) throw new Error('POST /checks returned no check');
    path = `/api/v3/checks/${checkId}`;
    const reply = await client.send('GET', `/checks/${checkId}`);
    if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.body}`);
    body = reply.body;
    contentType = reply.contentType;
  } finally {
    client.close();
  }

  const load = { connections: ctx.options.connections, duration: ctx.options.duration };
  const raw = await startRawServer(body, contentType);
  let rawResult: LoadResult;
  try {
    rawResult = await measure({ ...load, url: `${raw.url}${path}`, headers: { authorization: `Bearer ${key}` } }, raw.pid);
  } finally {
    await raw.stop();
  }
  const real = await measure({ ...load, url: `${ctx.serverUrl}${path}`, headers: { authorization: `Bearer ${key}` } }, ctx.serverPid);
  const ratio = real.reqPerSec / rawResult.reqPerSec;
  const cpuRatio = real.serverCpuUsPerRequest === null || rawResult.serverCpuUsPerRequest === null ? null : rawResult.serverCpuUsPerRequest / real.serverCpuUsPerRequest;
  const target = TARGETS.getRatio[ctx.dialect];
  return {
    details: { path, bodyBytes: Buffer.byteLength(body), raw: rawResult, real, ratio, cpuRatio },
    verdicts: [
      { scenario: 'GET /checks/{id} raw node:http', measured: describe(rawResult), target: 'baseline', pass: null },
      { scenario: 'GET /checks/{id} checkwriter', measured: describe(real), target: '', pass: null },
      {
        scenario: 'GET /checks/{id} ratio to raw',
        measured: `${fmt(ratio, 2)} (by CPU per request: ${cpuRatio === null ? 'n/a' : fmt(cpuRatio, 2)})`,
        target: `≥ ${fmt(target, 2)}`,
        pass: ratio >= target,
      },
    ],
  };
}
