// Command-line options of `npm run bench -- ...`. Defaults keep a full run (both databases, all
// scenarios) to a few minutes on a 2-core machine; --checks 1000000 is the size the list target
// is stated for.
import { parseArgs } from 'node:util';

export type BenchDialect = 'sqlite' | 'postgres';
/** In the order they run: list last, because it seeds the largest data set. */
export const SCENARIO_NAMES = [
  'get',
  'post',
  'idempotency',
  'pdf',
  'email',
  'panel',
  'startup',
  'keys',
  'register',
  'import',
  'heavy',
  'hostile-forms',
  'hostile',
  'list',
] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface BenchOptions {
  dialects: BenchDialect[];
  scenarios: ScenarioName[];
  /** Seconds each autocannon measurement runs (after its warm-up). */
  duration: number;
  /** Concurrent connections for the GET measurements. */
  connections: number;
  /** Checks seeded into the account the list scenario reads. */
  checks: number;
  perPage: number;
  /** Upper bound of timed requests per list query (fewer when the query is slow). */
  listSamples: number;
  postgresUrl: string;
  /** A server child per scenario, each writing its V8 CPU profile to .bench/profiles/. */
  profile: boolean;
}

export const USAGE = `Usage: npm run bench -- [options]

  --db sqlite|postgres|both     databases to measure (default both)
  --only get,post,idempotency,pdf,email,panel,startup,keys,register,import,heavy,hostile,hostile-forms,list
                                scenarios to run (default all)
  --duration SECONDS            length of each load measurement (default 10)
  --connections N               concurrent connections for GET (default 50)
  --checks N                    checks seeded for the list scenario (default 100000; env BENCH_CHECKS;
                                the list targets are stated for 1000000)
  --per-page N                  page size of the list queries (default 50)
  --list-samples N              at most N timed requests per list query (default 200)
  --profile                     a server per scenario with its CPU profile in .bench/profiles/; a
                                missed target then names the top 3 functions by self time
  PostgreSQL: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test); each run uses
  a schema of its own and drops it afterwards.`;

export class OptionsError extends Error {}

function whole(raw: string | undefined, name: string, fallback: number, min: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new OptionsError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min) throw new OptionsError(`${name} must be at least ${min}, got ${value}`);
  return value;
}

function listOf<T extends string>(raw: string, allowed: readonly T[], name: string): T[] {
  const picked = raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const item of picked) {
    if (!(allowed as readonly string[]).includes(item))
      throw new OptionsError(`${name}: unknown "${item}" (use ${allowed.join(', ')})`);
  }
  return allowed.filter((a) => picked.includes(a));
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string', default: 'both' },
      only: { type: 'string', default: SCENARIO_NAMES.join(',') },
      duration: { type: 'string' },
      connections: { type: 'string' },
      checks: { type: 'string' },
      'per-page': { type: 'string' },
      'list-samples': { type: 'string' },
      profile: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) throw new OptionsError('');
  const db = values.db;
  if (db !== 'sqlite' && db !== 'postgres' && db !== 'both')
    throw new OptionsError(`--db must be sqlite, postgres or both, got "${db}"`);
  const scenarios = listOf(values.only, SCENARIO_NAMES, '--only');
  if (scenarios.length === 0) throw new OptionsError('--only names no scenario');
  return {
    dialects: db === 'both' ? ['sqlite', 'postgres'] : [db],
    scenarios,
    duration: whole(values.duration, '--duration', 10, 1),
    connections: whole(values.connections, '--connections', 50, 1),
    checks: whole(values.checks ?? env.BENCH_CHECKS, '--checks', 100_000, 100),
    perPage: Math.min(whole(values['per-page'], '--per-page', 50, 1), 500),
    listSamples: whole(values['list-samples'], '--list-samples', 200, 5),
    postgresUrl: env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    profile: values.profile,
  };
}
