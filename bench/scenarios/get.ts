// GET /api/v3/checks/{id} against two baselines in the same run, on the same cores, with the same
// autocannon settings: a raw node:http server sending the very same bytes (what HTTP costs on this
// machine), and a bare Fastify route doing the same primary-key lookup before sending them (what
// the framework and the driver cost). The server's peak memory during its load is read too.
import { HttpClient } from '../http-client.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { measure, type LoadResult } from '../load.ts';
import { type PeakRss, rssVerdict, withPeakRss } from '../memory.ts';
import { type Child, startBareFastify, startCheckwriter, startRawServer } from '../processes.ts';
import { type CallTiming, timeCalls } from '../in-process.ts';
import { findCheck, findCheckToRead } from '../../src/store/checks/checks.repository.ts';
import { Database } from '../../src/store/sqlite-driver.ts';
import { FIND_CHECK } from '../find-check-sql.ts';
import {
  bounded,
  fmt,
  median,
  TARGETS,
  type ScenarioContext,
  type ScenarioOutcome,
  type Verdict,
} from '../scenario.ts';
import type { BareFastifySetup } from '../bare-fastify.ts';

export interface GetDetails {
  path: string;
  bodyBytes: number;
  raw: LoadResult;
  bareFastify: LoadResult;
  real: LoadResult;
  /** The same server with its access log on (JSON lines to a pipe, read and thrown away) and off, in turns. */
  accessLog: AccessLogPair;
  /** The store's findCheck alone, in this process, on the bench's own connection. */
  findCheck: CallTiming;
  /** What GET /checks/{id} reads for a check without approval or mailing (findCheckToRead). */
  findCheckToRead: CallTiming;
  /**
   * SQLite only: the same SQL as findCheck on a prepared statement of the driver's own, no layer of
   * ours, its rows as arrays (as findCheck reads them) and, for comparison, as objects.
   */
  driverStatement: CallTiming | null;
  driverStatementObjects: CallTiming | null;
  ratio: number;
  bareFastifyRatio: number;
  /**
   * baseline CPU µs/request ÷ checkwriter CPU µs/request: the same comparisons by cost instead of
   * throughput, which hold up when other processes compete for the cores (null without /proc).
   */
  cpuRatio: number | null;
  bareFastifyCpuRatio: number | null;
  peakRss: PeakRss | null;
}

function describe(r: LoadResult): string {
  const cpu = r.serverCpuUsPerRequest === null ? '' : `, ${fmt(r.serverCpuUsPerRequest)} µs CPU/req`;
  return `${fmt(r.reqPerSec)} req/s, p99 ${fmt(r.p99Ms)} ms${cpu}`;
}

function cpuRatio(baseline: LoadResult, real: LoadResult): number | null {
  return real.serverCpuUsPerRequest === null || baseline.serverCpuUsPerRequest === null
    ? null
    : baseline.serverCpuUsPerRequest / real.serverCpuUsPerRequest;
}

function byCpu(ratio: number | null): string {
  return `by CPU per request ${ratio === null ? 'n/a' : fmt(ratio, 2)}`;
}

interface CreatedReply {
  data: { checks: { checkId: string }[] };
}

/** Loads a baseline child, always stopping it, so only one server is busy at a time. */
async function measureChild(
  start: () => Promise<Child>,
  load: { connections: number; duration: number },
  path: string,
  key: string,
): Promise<LoadResult> {
  const child = await start();
  try {
    return await measure(
      { ...load, url: `${child.url}${path}`, headers: { authorization: `Bearer ${key}` } },
      child.pid,
    );
  } finally {
    await child.stop();
  }
}

function describeCalls(t: CallTiming): string {
  return `${fmt(t.cpuUsPerCall, 1)} µs CPU, ${fmt(t.usPerCall, 1)} µs wall per call (median of ${t.rounds} × ${fmt(t.callsPerRound)})`;
}

/** findCheck's SQL on a prepared statement of a connection of its own: what the driver alone costs. */
async function timeDriverStatement(file: string, owner: { accountId: string; env: string }, id: string, raw: boolean) {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const statement = db.prepare(FIND_CHECK).raw(raw);
    return await timeCalls(async () => statement.all(id, owner.accountId, owner.env), {
      callsPerRound: 20_000,
      rounds: 5,
    });
  } finally {
    db.close();
  }
}

/** Loads of the same server with its access log off and on, taken in turns (median of each). */
interface AccessLogPair {
  off: LoadResult;
  on: LoadResult & { logBytesPerRequest: number };
  /** on ÷ off req/s, the median of the rounds' ratios. */
  ratio: number;
  cpuRatio: number | null;
}

const ACCESS_LOG_ROUNDS = 3;

/**
 * A second server on the same database with its access log on, and the scenario's own (off),
 * loaded in turns, ACCESS_LOG_ROUNDS times: on a machine shared with other work, one load of each
 * and a single ratio moved by ±40 % between runs; the median of paired rounds holds still.
 */
async function measureAccessLog(
  ctx: ScenarioContext,
  load: { connections: number; duration: number },
  path: string,
  key: string,
): Promise<AccessLogPair> {
  // With --profile its CPU profile goes to <scenario>/server-access-log/, beside the server's.
  const server = await startCheckwriter(ctx.database.env, ctx.profileDir, {
    accessLog: true,
    profileRole: 'server-access-log',
  });
  const headers = { authorization: `Bearer ${key}` };
  try {
    const rounds: { off: LoadResult; on: LoadResult & { logBytesPerRequest: number } }[] = [];
    for (let i = 0; i < ACCESS_LOG_ROUNDS; i++) {
      const off = await measure({ ...load, url: `${ctx.serverUrl}${path}`, headers }, ctx.serverPid);
      const before = server.logBytes();
      const on = await measure({ ...load, url: `${server.url}${path}`, headers }, server.pid);
      // Bytes that arrived during the warm-up and the timed run, over the timed run's requests:
      // an upper bound, but a line per request shows as a few hundred bytes, none as zero.
      rounds.push({ off, on: { ...on, logBytesPerRequest: (server.logBytes() - before) / on.requests } });
    }
    const byRatio = [...rounds].sort((a, b) => a.on.reqPerSec / a.off.reqPerSec - b.on.reqPerSec / b.off.reqPerSec);
    const mid = byRatio[Math.floor(byRatio.length / 2)] ?? rounds[0];
    if (mid === undefined) throw new Error('no access-log rounds');
    const cpu = rounds.map((r) => cpuRatio(r.off, r.on)).filter((r): r is number => r !== null);
    return {
      off: mid.off,
      on: mid.on,
      ratio: median(rounds.map((r) => r.on.reqPerSec / r.off.reqPerSec)),
      cpuRatio: cpu.length === 0 ? null : median(cpu),
    };
  } finally {
    await server.stop();
  }
}

export async function runGet(ctx: ScenarioContext): Promise<ScenarioOutcome<GetDetails>> {
  const { key, owner } = await createAccount(ctx.database, 'get@bench.test');
  let checkId: string;
  const client = new HttpClient(ctx.serverUrl, key);
  let path: string;
  let body: string;
  let contentType: string;
  try {
    const basics = await createBasics(client, ['Acme Supplies']);
    const created = await client.json<CreatedReply>('POST', '/checks', 201, {
      checks: [
        {
          bankAccountId: basics.bankAccountId,
          payeeId: basics.payees[0]?.id,
          amount: '1234.56',
          memo: 'Consulting services',
          invoiceNumber: 'INV-0001',
        },
      ],
    });
    const createdId = created.data.checks[0]?.checkId;
    if (createdId === undefined) throw new Error('POST /checks returned no check');
    checkId = createdId;
    path = `/api/v3/checks/${checkId}`;
    const reply = await client.send('GET', `/checks/${checkId}`);
    if (reply.status !== 200) throw new Error(`GET ${path}: ${reply.status} ${reply.body}`);
    body = reply.body;
    contentType = reply.contentType;
  } finally {
    client.close();
  }

  const { config } = ctx.database;
  const bareSetup: BareFastifySetup = {
    body,
    contentType,
    accountId: owner.accountId,
    env: owner.env,
    database:
      config.kind === 'sqlite'
        ? { kind: 'sqlite', file: config.url }
        : { kind: 'postgres', url: config.url, schema: config.schema },
  };
  const { connections, duration } = ctx.options;
  const load = { connections, duration };
  const raw = await measureChild(() => startRawServer(body, contentType), load, path, key);
  const bare = await measureChild(() => startBareFastify(bareSetup), load, path, key);
  const { result: real, peak } = await withPeakRss(ctx.serverPid, () =>
    measure({ ...load, url: `${ctx.serverUrl}${path}`, headers: { authorization: `Bearer ${key}` } }, ctx.serverPid),
  );
  const accessLog = await measureAccessLog(ctx, load, path, key);
  // SQLite answers in this process in microseconds; PostgreSQL's round trip is ~100 µs, so fewer.
  const callsPerRound = ctx.dialect === 'sqlite' ? 20_000 : 2_000;
  const rounds = { callsPerRound, rounds: 5 };
  const found = await timeCalls(() => findCheck(ctx.database.db, owner, checkId), rounds);
  const toRead = await timeCalls(() => findCheckToRead(ctx.database.db, owner, checkId), rounds);
  const driverStatement = config.kind === 'sqlite' ? await timeDriverStatement(config.url, owner, checkId, true) : null;
  const driverStatementObjects =
    config.kind === 'sqlite' ? await timeDriverStatement(config.url, owner, checkId, false) : null;
  const ratio = real.reqPerSec / raw.reqPerSec;
  const bareRatio = real.reqPerSec / bare.reqPerSec;
  const rawCpu = cpuRatio(raw, real);
  const bareCpu = cpuRatio(bare, real);
  const ratioTarget = TARGETS.getRatio[ctx.dialect];
  const p99Target = TARGETS.getP99Ms[ctx.dialect];
  const atConnections = `at ${connections} connections`;
  const ratioVerdict: Verdict = {
    scenario: 'GET /checks/{id} vs raw node:http',
    measured: `${fmt(ratio, 2)} of raw, p99 ${fmt(real.p99Ms)} ms ${atConnections} (${byCpu(rawCpu)})`,
    target:
      p99Target === null
        ? `≥ ${fmt(ratioTarget, 2)} of raw`
        : `≥ ${fmt(ratioTarget, 2)} of raw, p99 ≤ ${p99Target} ms at 50 connections`,
    pass: ratio >= ratioTarget && (p99Target === null || real.p99Ms <= p99Target),
  };
  return {
    details: {
      path,
      bodyBytes: Buffer.byteLength(body),
      raw,
      bareFastify: bare,
      real,
      accessLog,
      findCheck: found,
      findCheckToRead: toRead,
      driverStatement,
      driverStatementObjects,
      ratio,
      bareFastifyRatio: bareRatio,
      cpuRatio: rawCpu,
      bareFastifyCpuRatio: bareCpu,
      peakRss: peak,
    },
    verdicts: [
      { scenario: 'GET /checks/{id} raw node:http', measured: describe(raw), target: 'baseline', pass: null },
      {
        scenario: 'GET /checks/{id} bare Fastify + same lookup',
        measured: describe(bare),
        target: 'baseline',
        pass: null,
      },
      { scenario: 'GET /checks/{id} checkwriter', measured: describe(real), target: '', pass: null },
      ratioVerdict,
      {
        scenario: 'GET /checks/{id} vs bare Fastify (our overhead)',
        measured: `${fmt(bareRatio, 2)} of bare Fastify (${byCpu(bareCpu)})`,
        target: `≥ ${fmt(TARGETS.getBareFastifyRatio, 2)} of bare Fastify`,
        pass: bareRatio >= TARGETS.getBareFastifyRatio,
      },
      {
        scenario: 'GET /checks/{id} access log on (median round)',
        measured: `${describe(accessLog.on)}, ${fmt(accessLog.on.logBytesPerRequest)} log bytes/req; off: ${describe(accessLog.off)}`,
        target: 'reported',
        pass: null,
      },
      {
        scenario: 'GET /checks/{id} access log on vs off',
        measured: `${fmt(accessLog.ratio, 2)} of the same server without it, median of ${ACCESS_LOG_ROUNDS} rounds in turns (${byCpu(accessLog.cpuRatio)})`,
        target: `≥ ${fmt(TARGETS.getAccessLogRatio, 2)}`,
        pass: accessLog.ratio >= TARGETS.getAccessLogRatio,
        profile: 'server-access-log',
      },
      bounded(
        'findCheck in-process (CPU µs/call)',
        `${describeCalls(found)}${driverStatement === null ? '' : `; the driver's own statement of the same SQL, rows as arrays like findCheck's: ${describeCalls(driverStatement)}`}${driverStatementObjects === null ? '' : ` (rows as objects: ${fmt(driverStatementObjects.cpuUsPerCall, 1)} µs CPU)`}`,
        found.cpuUsPerCall,
        TARGETS.findCheckUs[ctx.dialect],
        'max',
        (b) => `≤ ${b} µs`,
      ),
      {
        scenario: 'GET /checks/{id} read in-process (check, statements, approval rule)',
        measured: `${describeCalls(toRead)}; before, findCheck and a query of the rule: two statements`,
        target: 'reported',
        pass: null,
      },
      rssVerdict('GET /checks/{id} load', peak),
    ],
  };
}
