// `npm run bench`: for each database, a fresh schema, the real server as a child process, and the
// scenarios (get, post, list); then one table and one JSON file. Missed targets are findings, so
// the exit code is 0 unless something broke (a server that would not start, a wrong status).
import { join } from 'node:path';
import { createDatabase, type BenchDatabase } from './databases.ts';
import { BUSY_THRESHOLD, busyShare } from './machine-load.ts';
import { parseOptions, OptionsError, USAGE, type BenchDialect, type BenchOptions, type ScenarioName } from './options.ts';
import { REPO_ROOT, startCheckwriter, type Child } from './processes.ts';
import { machine, renderTable, writeReport, type BenchReport, type DialectReport } from './report.ts';
import type { ScenarioContext, ScenarioOutcome } from './scenario.ts';
import { runGet } from './scenarios/get.ts';
import { runList } from './scenarios/list.ts';
import { runPost } from './scenarios/post.ts';
import { runIdempotency } from './scenarios/idempotency.ts';
import { runPdf } from './scenarios/pdf.ts';
import { runEmail } from './scenarios/email.ts';
import { runPanel } from './scenarios/panel.ts';

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const SCENARIOS: Record<ScenarioName, (ctx: ScenarioContext) => Promise<ScenarioOutcome<unknown>>> = {
  get: runGet,
  post: runPost,
  idempotency: runIdempotency,
  pdf: runPdf,
  email: runEmail,
  panel: runPanel,
  list: (ctx) => runList(ctx, log),
};

async function benchDialect(dialect: BenchDialect, options: BenchOptions, startedAt: string): Promise<DialectReport> {
  const report: DialectReport = { dialect, busyBefore: {}, verdicts: [], scenarios: {}, errors: [] };
  let database: BenchDatabase | null = null;
  let server: Child | null = null;
  try {
    database = await createDatabase(dialect, options.postgresUrl);
    const profileDir = options.profile ? join(REPO_ROOT, '.bench', 'profiles', `${startedAt.replace(/[:.]/g, '-')}-${dialect}`) : null;
    server = await startCheckwriter(database.env, profileDir);
    log(`\n== ${dialect}: checkwriter at ${server.url}${profileDir === null ? '' : `, CPU profile in ${profileDir}`}`);
    const ctx: ScenarioContext = { dialect, database, serverUrl: server.url, serverPid: server.pid, options };
    // Order matters a little: list seeds the largest data set, so it runs last and the GET and
    // POST figures are those of a small database.
    for (const name of options.scenarios) {
      // Our own server idles between scenarios, so what is busy now is someone else.
      const busy = await busyShare();
      report.busyBefore[name] = busy;
      log(`-- ${name} (other processes: ${Math.round(busy * 100)}% CPU${busy > BUSY_THRESHOLD ? ' — BUSY MACHINE: figures will be low' : ''})`);
      try {
        const outcome = await SCENARIOS[name](ctx);
        report.verdicts.push(...outcome.verdicts);
        report.scenarios[name] = outcome.details;
        for (const v of outcome.verdicts) log(`  ${v.scenario}: ${v.measured}${v.pass === null ? '' : ` (${v.pass ? 'PASS' : 'MISS'} ${v.target})`}`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        report.errors.push({ scenario: name, message });
        log(`  ERROR: ${message}`);
      }
    }
  } catch (error) {
    report.errors.push({ scenario: 'setup', message: error instanceof Error ? error.message : String(error) });
  } finally {
    await server?.stop();
    await database?.drop().catch((error: unknown) => report.errors.push({ scenario: 'cleanup', message: String(error) }));
  }
  return report;
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof OptionsError) {
      process.stderr.write(`${error.message === '' ? '' : `bench: ${error.message}\n\n`}${USAGE}\n`);
      return error.message === '' ? 0 : 2;
    }
    throw error;
  }
  const startedAt = new Date().toISOString();
  const host = machine();
  log(`checkwriter bench ${startedAt}: ${options.dialects.join(' + ')}; ${options.scenarios.join(', ')}; ${options.duration} s per load run; ${options.checks.toLocaleString('en-US')} checks for list`);
  log(`machine: ${host.cpus} cores (${host.cpuModel}), node ${host.node}. autocannon runs in this process and shares those cores with the server (and PostgreSQL).`);
  const databases: DialectReport[] = [];
  for (const dialect of options.dialects) databases.push(await benchDialect(dialect, options, startedAt));
  // A password in BENCH_DATABASE_URL stays out of the results file.
  const shown = { ...options, postgresUrl: options.postgresUrl.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@') };
  const report: BenchReport = { startedAt, finishedAt: new Date().toISOString(), machine: host, options: shown, databases };
  log(`\n${renderTable(databases)}\n`);
  log(`results: ${writeReport(report)}`);
  return databases.some((d) => d.errors.length > 0) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
