// `npm run bench`: for each database, a fresh schema, the real server as a child process, and the
// scenarios; then one table and one JSON file. Missed targets are findings, so
// the exit code is 0 unless something broke (a server that would not start, a wrong status).
import { join } from 'node:path';
import { redactUrlPassword } from '../src/domain/redact.ts';
import { createDatabase, type BenchDatabase } from './databases.ts';
import { BUSY_THRESHOLD, busyShare } from './machine-load.ts';
import {
  parseOptions,
  OptionsError,
  USAGE,
  type BenchDialect,
  type BenchOptions,
  type ScenarioName,
} from './options.ts';
import { REPO_ROOT, startCheckwriter } from './processes.ts';
import { machine, renderTable, writeReport, type BenchReport, type DialectReport } from './report.ts';
import { mainThreadProfile, topSelfTime } from './profile.ts';
import type { ScenarioContext, ScenarioOutcome, Verdict } from './scenario.ts';
import { runGet } from './scenarios/get.ts';
import { runList } from './scenarios/list.ts';
import { runPost } from './scenarios/post.ts';
import { runIdempotency } from './scenarios/idempotency.ts';
import { runPdf } from './scenarios/pdf.ts';
import { runEmail } from './scenarios/email.ts';
import { runPanel } from './scenarios/panel.ts';
import { runStartup } from './scenarios/startup.ts';
import { runKeys } from './scenarios/keys.ts';
import { runCheckRegister } from './scenarios/check-register.ts';
import { runImport } from './scenarios/import.ts';
import { runHeavy } from './scenarios/heavy.ts';
import { runHostileForms } from './scenarios/hostile-forms.ts';
import { runHostile } from './scenarios/hostile.ts';

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
  startup: runStartup,
  keys: runKeys,
  register: runCheckRegister,
  import: runImport,
  heavy: runHeavy,
  'hostile-forms': runHostileForms,
  hostile: runHostile,
  list: (ctx) => runList(ctx, log),
};

/**
 * Fills the reason slot of each missed target: with --profile, where the process that did the work
 * spent its CPU during this scenario; without, how to find out.
 */
function explain(verdicts: Verdict[], profileDir: string | null, serverReadyMs: number): void {
  for (const v of verdicts) {
    if (v.pass !== false) continue;
    if (profileDir === null) {
      v.reason = 'run with --profile for the reason';
      continue;
    }
    const name = v.profile ?? 'server';
    try {
      const file = mainThreadProfile(join(profileDir, name));
      // The server's start-up is in its profile but not in what the scenario measured.
      const skipMs = name === 'server' ? serverReadyMs : 0;
      v.reason =
        file === null ? `no CPU profile of the ${name}` : `top self time (${name}): ${topSelfTime(file, 3, skipMs)}`;
    } catch (error) {
      v.reason = `profile unreadable: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

async function benchDialect(dialect: BenchDialect, options: BenchOptions, startedAt: string): Promise<DialectReport> {
  const report: DialectReport = { dialect, busyBefore: {}, verdicts: [], scenarios: {}, errors: [] };
  let database: BenchDatabase | null = null;
  try {
    database = await createDatabase(dialect, options.postgresUrl);
    const profileRoot = options.profile
      ? join(REPO_ROOT, '.bench', 'profiles', `${startedAt.replace(/[:.]/g, '-')}-${dialect}`)
      : null;
    log(
      `\n== ${dialect}: a checkwriter server per scenario${profileRoot === null ? '' : `, CPU profiles in ${profileRoot}/<scenario>/`}`,
    );
    // Order matters a little: list seeds the largest data set, so it runs last and the GET and
    // POST figures are those of a small database.
    for (const name of options.scenarios) {
      // No server of ours runs between scenarios, so what is busy now is someone else.
      const busy = await busyShare();
      report.busyBefore[name] = busy;
      log(
        `-- ${name} (other processes: ${Math.round(busy * 100)}% CPU${busy > BUSY_THRESHOLD ? ' — BUSY MACHINE: figures will be low' : ''})`,
      );
      const profileDir = profileRoot === null ? null : join(profileRoot, name);
      try {
        // Each scenario gets a server of its own on the same database: its peak memory is that
        // scenario's, not what earlier ones left resident, and its CPU profile (written when it
        // stops) covers that scenario alone.
        const server = await startCheckwriter(database.env, profileDir);
        let outcome: ScenarioOutcome<unknown>;
        try {
          outcome = await SCENARIOS[name]({
            dialect,
            database,
            serverUrl: server.url,
            serverPid: server.pid,
            options,
            profileDir,
          });
        } finally {
          await server.stop();
        }
        explain(outcome.verdicts, profileDir, server.readyMs);
        report.verdicts.push(...outcome.verdicts);
        report.scenarios[name] = outcome.details;
        for (const v of outcome.verdicts)
          log(
            `  ${v.scenario}: ${v.measured}${v.pass === null ? '' : ` (${v.pass ? 'PASS' : 'MISS'} ${v.target})`}${v.reason === undefined ? '' : ` — ${v.reason}`}`,
          );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        report.errors.push({ scenario: name, message });
        log(`  ERROR: ${message}`);
      }
    }
  } catch (error) {
    report.errors.push({ scenario: 'setup', message: error instanceof Error ? error.message : String(error) });
  } finally {
    // BENCH_KEEP_DATABASE=1: left in place for EXPLAIN afterwards (the database's env is printed);
    // drop the schema or remove the file by hand when done.
    if (process.env.BENCH_KEEP_DATABASE === '1' && database !== null)
      log(`  database kept (BENCH_KEEP_DATABASE=1): ${JSON.stringify(withoutPassword(database.env))}`);
    else
      await database
        ?.drop()
        .catch((error: unknown) => report.errors.push({ scenario: 'cleanup', message: String(error) }));
  }
  return report;
}

/** The database's settings for a log line: a password in DATABASE_URL (BENCH_DATABASE_URL may carry one) masked. */
function withoutPassword(env: Record<string, string>): Record<string, string> {
  return env.DATABASE_URL === undefined ? env : { ...env, DATABASE_URL: redactUrlPassword(env.DATABASE_URL) };
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
  log(
    `checkwriter bench ${startedAt}: ${options.dialects.join(' + ')}; ${options.scenarios.join(', ')}; ${options.duration} s per load run; ${options.checks.toLocaleString('en-US')} checks for list`,
  );
  log(
    `machine: ${host.cpus} cores (${host.cpuModel}), node ${host.node}. autocannon runs in this process and shares those cores with the server (and PostgreSQL).`,
  );
  const databases: DialectReport[] = [];
  for (const dialect of options.dialects) databases.push(await benchDialect(dialect, options, startedAt));
  // A password in BENCH_DATABASE_URL stays out of the results file.
  const shown = { ...options, postgresUrl: options.postgresUrl.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@') };
  const report: BenchReport = {
    startedAt,
    finishedAt: new Date().toISOString(),
    machine: host,
    options: shown,
    databases,
  };
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
