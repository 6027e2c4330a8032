// `npm start` until the first 200 on /healthz, on a database that already holds 10,000 checks:
// what an operator waits for after a deploy or a restart. A fresh database of this run's dialect is
// seeded (a server on it for the bank account and payees over HTTP, the checks through the store as
// the list scenario does), everything is stopped, then `npm start` is spawned exactly as the README
// runs it, with PORT and DATABASE_URL (and, on PostgreSQL, DATABASE_SCHEMA and SECRET_FILE) in its
// environment; the clock runs from the spawn to the first 200. Median of five starts.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from '../databases.ts';
import { createAccount, createBasics } from '../fixtures.ts';
import { HttpClient } from '../http-client.ts';
import { startScript, withNodeFlags } from '../package-commands.ts';
import { cpuProfileFlags, REPO_ROOT, startCheckwriter } from '../processes.ts';
import { bounded, fmt, median, TARGETS, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';
import { seedChecks } from '../seed.ts';

const RUNS = 5;
const CHECKS = 10_000;
/** A start that takes this long is broken, not slow. */
const GIVE_UP_MS = 60_000;

export interface StartupDetails {
  checks: number;
  runsMs: number[];
  medianMs: number;
  /** `npm start` of a bare node:http server in a package of its own, in turns with ours. */
  floorRunsMs: number[];
  floorMedianMs: number;
}

/**
 * The machine's floor for the same measurement: `npm start` in a package whose start script is
 * `node server.js`, a bare node:http server answering /healthz. npm's own start and Node's boot
 * are in both figures; the difference is what checkwriter's start costs on this machine (the
 * target is absolute, the issue's, and this figure says how much of it the machine takes).
 */
function floorPackage(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'checkwriter-bench-floor-'));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'bench-floor', private: true, scripts: { start: 'node server.js' } }),
  );
  writeFileSync(
    join(dir, 'server.js'),
    "require('node:http').createServer((req, res) => res.end(req.url === '/healthz' ? 'ok' : '')).listen(Number(process.env.PORT), '127.0.0.1');\n",
  );
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/healthz', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // Refused (not listening yet) or cut off: not an answer, ask again.
    req.on('error', () => resolve(0));
    req.on('timeout', () => req.destroy());
    req.end();
  });
}

/** Whether any process of the group still runs (npm, its shell, the server). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Spawns `command` (through a shell, as npm runs scripts) in a process group of its own, times it
 * to the first 200 on /healthz, then stops the whole group and waits until every process in it
 * has exited, so the next start finds the database closed.
 */
async function timeStart(
  command: string,
  shell: boolean,
  env: Record<string, string>,
  cwd: string = REPO_ROOT,
): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(shell ? '/bin/sh' : 'npm', shell ? ['-c', command] : ['start'], {
    cwd,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const keep = (chunk: Buffer): void => {
    output = `${output}${chunk.toString('utf8')}`.slice(-4000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const pgid = child.pid ?? -1;
  try {
    for (;;) {
      if ((await healthStatus(port)) === 200) return performance.now() - started;
      if (exited) throw new Error(`${command} exited before answering /healthz:\n${output}`);
      if (performance.now() - started > GIVE_UP_MS)
        throw new Error(`${command}: no 200 on /healthz after ${GIVE_UP_MS / 1000} s:\n${output}`);
      await sleep(5);
    }
  } finally {
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGTERM');
    const deadline = performance.now() + 10_000;
    while (groupAlive(pgid) && performance.now() < deadline) await sleep(20);
    if (groupAlive(pgid)) process.kill(-pgid, 'SIGKILL');
  }
}

export async function runStartup(ctx: ScenarioContext): Promise<ScenarioOutcome<StartupDetails>> {
  const database = await createDatabase(ctx.dialect, ctx.options.postgresUrl);
  try {
    const seeding = await startCheckwriter(database.env, null);
    try {
      const account = await createAccount(database, 'startup@bench.test');
      const client = new HttpClient(seeding.url, account.key);
      const basics = await createBasics(client, ['Acme Supplies', 'Blue Harbor Freight']).finally(() => client.close());
      await seedChecks(database.db, { owner: account.owner, ...basics }, null, CHECKS, {}, () => undefined);
    } finally {
      await seeding.stop();
    }
    // Nothing of ours holds the database while it starts (drop() below tolerates the second close).
    await database.db.close();

    const runsMs: number[] = [];
    const floorRunsMs: number[] = [];
    const floor = floorPackage();
    try {
      // In turns, so a change in the machine's load falls on both alike.
      for (let i = 0; i < RUNS; i += 1) {
        runsMs.push(await timeStart('npm start', false, database.env));
        floorRunsMs.push(await timeStart('npm start', false, {}, floor.dir));
      }
    } finally {
      floor.remove();
    }
    if (ctx.profileDir !== null) {
      // One more start, untimed, with the start script's node under the profiler (when the script
      // is a plain `node …` command; npm start itself cannot pass --cpu-prof through NODE_OPTIONS).
      const profiled = withNodeFlags(startScript(), cpuProfileFlags(ctx.profileDir, 'startup'));
      if (profiled !== null) await timeStart(profiled, true, database.env);
    }
    const medianMs = median(runsMs);
    const floorMedianMs = median(floorRunsMs);
    const verdict = bounded(
      `npm start → first 200 on /healthz (${fmt(CHECKS)} checks stored), median of ${RUNS}`,
      `${fmt(medianMs / 1000, 2)} s (runs ${runsMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} s)`,
      medianMs,
      TARGETS.startupMs[ctx.dialect],
      'max',
      (ms) => `≤ ${fmt(ms / 1000, 1)} s`,
    );
    return {
      details: { checks: CHECKS, runsMs, medianMs, floorRunsMs, floorMedianMs },
      verdicts: [
        { ...verdict, profile: 'startup' },
        {
          scenario: `npm start of a bare node:http server (this machine's floor), median of ${RUNS} in turns with ours`,
          measured: `${fmt(floorMedianMs / 1000, 2)} s (runs ${floorRunsMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} s); checkwriter's own share ${fmt((medianMs - floorMedianMs) / 1000, 2)} s`,
          target: 'baseline',
          pass: null,
        },
      ],
    };
  } finally {
    await database.drop();
  }
}
