// `npx checkwriter keys create` wall time: the CLI's start-up (loading the code, opening and
// migrating the database, reading the server secret) plus one account and one key. Timed as npx
// runs it, `node <package.json bin> keys create --email …`, without npx's own package lookup; the
// median of five runs against the benchmark's database.
import { relative } from 'node:path';
import { checkwriterBin, timeCommand } from '../package-commands.ts';
import { cpuProfileFlags, REPO_ROOT } from '../processes.ts';
import { fmt, median, TARGETS, type ScenarioContext, type ScenarioOutcome } from '../scenario.ts';

const RUNS = 5;
const ARGS = ['keys', 'create', '--email', 'bench@example.com'];

export interface KeysDetails {
  runsMs: number[];
  medianMs: number;
}

export async function runKeys(ctx: ScenarioContext): Promise<ScenarioOutcome<KeysDetails>> {
  const bin = checkwriterBin();
  const runsMs: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const run = await timeCommand(process.execPath, [bin, ...ARGS], ctx.database.env);
    // The key alone is the last line of stdout (README); anything else means the CLI failed.
    const key = run.stdout.trim().split('\n').pop() ?? '';
    if (run.code !== 0 || !/^\S{20,}$/.test(key))
      throw new Error(`keys create exited ${run.code}: ${run.stderr.slice(0, 500)}${run.stdout.slice(0, 200)}`);
    runsMs.push(run.ms);
  }
  if (ctx.profileDir !== null) {
    // One more, untimed, under the profiler: the reason slot reads it if the median missed.
    await timeCommand(process.execPath, [...cpuProfileFlags(ctx.profileDir, 'keys'), bin, ...ARGS], ctx.database.env);
  }
  const medianMs = median(runsMs);
  return {
    details: { runsMs, medianMs },
    verdicts: [
      {
        scenario: `npx checkwriter keys create (node ${relative(REPO_ROOT, bin)}), median of ${RUNS}`,
        measured: `${fmt(medianMs / 1000, 2)} s (runs ${runsMs.map((ms) => fmt(ms / 1000, 2)).join(', ')} s)`,
        target: `≤ ${fmt(TARGETS.keysCreateMs / 1000, 1)} s`,
        pass: medianMs <= TARGETS.keysCreateMs,
        profile: 'keys',
      },
    ],
  };
}
