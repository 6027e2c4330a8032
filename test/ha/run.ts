// `npm run test:ha`: the project's own high-availability test. Brings up the
// reference deployment of deploy/ on loopback ports under a temporary folder — etcd, two Patroni
// nodes with synchronous replication, HAProxy — and two checkwriter servers behind HAProxy's HTTP
// frontend, then runs each scenario under keyed load and reads every acknowledged check back.
//
//   npm run test:ha                          everything (about 5 minutes on 2 cores)
//   npm run test:ha -- --only kill-primary   some scenarios (switchover, kill-primary, kill-app,
//                                            rolling-restart; restore-drill for the pgBackRest drill;
//                                            lose-primary-node, only when named: Patroni dies too)
//   npm run test:ha -- --keep                keep the folder (logs of every process) afterwards
//
// Exit status: 1 when an acknowledged check was lost or written twice, or the harness itself broke;
// a missed timing target is reported (MISS) but is not a failure of the run.
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppServer, REPO_ROOT } from './app-servers.ts';
import { appDatabaseUrl, bringUp, type Cluster, prepareCluster, tearDown } from './cluster.ts';
import { HaproxyWatch } from './haproxy-watch.ts';
import { type Fixture, Load } from './load.ts';
import { killEverything, run, stillRunning } from './processes.ts';
import { checksPerBatch, describeFailures, readBack, tally, verdicts } from './report.ts';
import { restoreDrill, type DrillResult } from './restore-drill.ts';
import { runAll, type ScenarioResult } from './scenarios.ts';

const HARD_LIMIT_MS = 20 * 60_000;
const started = Date.now();
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const say = (line: string): void => void process.stdout.write(`${line}\n`);

const { values } = parseArgs({
  options: { only: { type: 'string' }, keep: { type: 'boolean', default: false } },
});
const only = values.only === undefined ? null : values.only.split(',').map((s) => s.trim());

const root = mkdtempSync(join(tmpdir(), 'checkwriter-ha-'));
// The postgres OS user must reach its folders inside.
chmodSync(root, 0o755);

let cluster: Cluster | null = null;
const servers: AppServer[] = [];
let watch: HaproxyWatch | null = null;
let cleaned: Promise<void> | null = null;

function cleanUp(): Promise<void> {
  cleaned ??= (async () => {
    watch?.stop();
    await Promise.all(servers.map((s) => s.shutDown().catch(() => undefined)));
    if (cluster !== null) await tearDown(cluster).catch(() => undefined);
    killEverything();
    if (values.keep) say(`kept ${root}`);
    else rmSync(root, { recursive: true, force: true });
  })();
  return cleaned;
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`\n${signal}: stopping everything`);
    void cleanUp().finally(() => process.exit(2));
  });
process.once('exit', () => killEverything());
const limit = setTimeout(() => {
  say(`\nthe run took more than ${HARD_LIMIT_MS / 60_000} minutes: stopping everything`);
  void cleanUp().finally(() => process.exit(2));
}, HARD_LIMIT_MS);
limit.unref();

async function createKey(env: Record<string, string>): Promise<string> {
  const created = await run(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'checkwriter.js'), 'keys', 'create', '--email', 'ha@example.com', '--company', 'HA Test'],
    { env, logFile: join(root, 'logs', 'cli.log'), cwd: REPO_ROOT },
  );
  const key = created.output.trim().split('\n').at(-1) ?? '';
  if (created.code !== 0 || key === '') throw new Error(`checkwriter keys create failed:\n${created.output}`);
  return key;
}

async function post(base: string, key: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${base}/api/v3${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: Record<string, unknown> };
  if (response.status !== 201) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(json)}`);
  return json.data;
}

async function fixture(base: string, apiKey: string): Promise<Fixture & { accountNumber: string }> {
  const accountNumber = '4417123456';
  const bank = await post(base, apiKey, '/bankAccounts', {
    bankAccounts: [{ name: 'HA operating', routingNumber: '011000015', accountNumber }],
  });
  const payee = await post(base, apiKey, '/payees', { payees: [{ name: 'Failover Supplies' }] });
  const bankAccountId = (bank.bankAccounts as { bankAccountId: string }[])[0]?.bankAccountId ?? '';
  const payeeId = (payee.payees as { payeeId: string }[])[0]?.payeeId ?? '';
  return { apiKey, bankAccountId, payeeId, accountNumber };
}

const summary: string[] = [
  '| scenario | checks acknowledged | lost | duplicate | longest gap | writes back after routing | servers exited | answers other than 201 | targets |',
  '|---|---|---|---|---|---|---|---|---|',
];

function printScenario(result: ScenarioResult, stored: Awaited<ReturnType<typeof readBack>>): boolean {
  const t = tally(result.load.batches, stored);
  const marks = verdicts(result, t)
    .map((v) => `${v.pass ? 'PASS' : 'MISS'} ${v.target}`)
    .join('; ');
  summary.push(
    `| ${result.name} | ${t.acknowledgedChecks} | ${t.lost} | ${t.duplicates} | ${seconds(result.gap.ms)} | ${
      result.writesBackAfterRoutingMs === null ? '–' : seconds(result.writesBackAfterRoutingMs)
    } | ${result.unexpectedExits.length} | ${describeFailures(result)} | ${marks} |`,
  );
  say(`\n## ${result.title}`);
  say(
    `  batches sent ${t.batches} (${checksPerBatch} checks each): acknowledged ${t.acknowledgedBatches} ` +
      `(${t.acknowledgedChecks} checks), lost ${t.lost}, duplicate ${t.duplicates}; ` +
      `given up unanswered ${t.unanswered} (${t.unansweredButStored} of their checks stored), refused ${t.refused.length}`,
  );
  say(
    `  longest gap without a successful write: ${seconds(result.gap.ms)} (from +${seconds(result.gap.at - result.load.startedAt)} of the load)`,
  );
  if (result.routedAt !== null)
    say(
      `  HAProxy routed PostgreSQL to the new primary ${seconds(result.routedAt - result.eventAt)} after the event; ` +
        `first write ${result.writesBackAfterRoutingMs === null ? 'never' : seconds(result.writesBackAfterRoutingMs)} after that`,
    );
  say(`  answers other than 201: ${describeFailures(result)}`);
  for (const message of result.load.serverErrors.slice(0, 3)) say(`    e.g. ${message}`);
  say(`  servers exited on their own: ${result.unexpectedExits.length}`);
  for (const exit of result.unexpectedExits.slice(0, 6))
    say(
      `    ${exit.server} exited ${exit.signal ?? `with code ${exit.code}`} at +${seconds(exit.at - result.eventAt)} after the event: ${exit.log}`,
    );
  for (const refused of t.refused.slice(0, 3)) say(`    refused: ${refused?.status} ${refused?.message}`);
  for (const note of result.notes) say(`  ${note}`);
  for (const change of result.pgRouting)
    say(`    HAProxy postgres at +${seconds(change.at - result.eventAt)}: up = [${change.up.join(', ')}]`);
  for (const v of verdicts(result, t)) say(`  ${v.pass ? 'PASS' : 'MISS'}  ${v.target}: ${v.measured}`);
  return t.lost === 0 && t.duplicates === 0;
}

function printDrill(drill: DrillResult): boolean {
  say('\n## pgBackRest restore drill (full backup under load, point-in-time restore to a new server)');
  for (const line of drill.lines) say(`  ${line}`);
  say(
    `  ${drill.pass ? 'PASS' : 'MISS'}  every check acknowledged before the restore point present, bank account number readable, API key working`,
  );
  return drill.pass;
}

async function main(): Promise<number> {
  say(`checkwriter HA test in ${root}`);
  const c = await prepareCluster(root, join(REPO_ROOT, 'deploy'));
  cluster = c;
  say('bringing up etcd, two Patroni nodes (synchronous replication) and HAProxy…');
  await bringUp(c);
  say(`  up after ${seconds(Date.now() - started)}`);
  watch = new HaproxyWatch(c.haproxySocket);
  watch.start();

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: root,
    HOST: '127.0.0.1',
    DATABASE_URL: appDatabaseUrl(c),
    KEY_SIGNING_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'warn',
    // One key sends all the load: the per-key limit would turn it into 429s.
    RATE_LIMIT_PER_KEY: '0',
    // As deploy/systemd/checkwriter.env.example: /readyz says 503 this long after SIGTERM, before
    // the listener closes, so HAProxy stops sending first (a server without the setting ignores it).
    SHUTDOWN_DRAIN_MS: '3000',
  };
  for (const [i, port] of c.appPorts.entries())
    servers.push(new AppServer(`app${i + 1}`, port, env, join(root, 'logs', `app${i + 1}.log`)));
  for (const s of servers) s.start();
  const ready = await Promise.all(servers.map((s) => s.waitReady(60_000)));
  if (ready.includes(false)) throw new Error('the checkwriter servers did not start');
  const base = `http://127.0.0.1:${c.httpFrontendPort}`;
  const apiKey = await createKey(env);
  const fix = await fixture(base, apiKey);
  const load = new Load(base, fix, randomBytes(4).toString('hex'));
  say(`two checkwriter servers behind HAProxy (${base}), ready after ${seconds(Date.now() - started)}`);

  let drill: DrillResult | null = null;
  if (only === null || only.includes('restore-drill'))
    drill = await restoreDrill({ cluster: c, load, fixture: fix, env, root });
  const results = await runAll({ cluster: c, servers, load, watch }, only);

  say('\nreading every check back through the API…');
  const stored = await readBack(base, apiKey);
  say(`  ${stored.byReference.size} checks with a referenceId in ${stored.pages} pages`);
  let intact = true;
  if (drill !== null) {
    const t = tally(drill.load.batches, stored);
    if (t.lost > 0 || t.duplicates > 0) intact = false;
    say(
      `\n## load during the backup: ${t.acknowledgedChecks} checks acknowledged, lost ${t.lost}, duplicate ${t.duplicates}`,
    );
  }
  for (const result of results) intact = printScenario(result, stored) && intact;
  if (drill !== null) printDrill(drill);
  say(`\n${summary.join('\n')}`);
  say(
    `\nHA test ${intact ? 'finished' : 'FAILED: acknowledged checks lost or duplicated'} in ${seconds(Date.now() - started)}`,
  );
  return intact ? 0 : 1;
}

let status = 2;
try {
  status = await main();
} catch (error) {
  say(`\nthe HA test broke: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  say(`logs: ${join(root, 'logs')} (kept: run with --keep to look at them)`);
  status = 2;
} finally {
  await cleanUp();
  const left = stillRunning();
  if (left.length > 0) say(`still running after clean-up (killed): ${left.join(', ')}`);
}
process.exit(status);
