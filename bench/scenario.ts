// What a scenario receives and what it hands back to the report. Targets live here, in one place,
// as the project states them (GET, list, email, start-up, keys and memory, then the office's
// register and import, and heavy work).
import type { BenchDatabase } from './databases.ts';
import type { BenchDialect, BenchOptions } from './options.ts';

export const TARGETS = {
  /** GET /checks/{id} req/s as a share of the raw node:http baseline. */
  getRatio: { sqlite: 0.5, postgres: 0.3 } satisfies Record<BenchDialect, number>,
  /** p99 of GET /checks/{id} at the default 50 connections; stated for SQLite only. */
  getP99Ms: { sqlite: 10, postgres: null } satisfies Record<BenchDialect, number | null>,
  /** GET /checks/{id} req/s as a share of a bare Fastify route doing the same lookup: our overhead. */
  getBareFastifyRatio: 0.75,
  /** GET /checks/{id} req/s with the access log on, as a share of the same server with it off. */
  getAccessLogRatio: 0.9,
  /** The store's findCheck alone, CPU µs per call in-process (wall time on a shared machine counts waiting for a core); stated for SQLite. */
  findCheckUs: { sqlite: 8, postgres: null } satisfies Record<BenchDialect, number | null>,
  /** POST /checks in batches of 100; PostgreSQL has no stated target, it is reported only. */
  postChecksPerSec: { sqlite: 20_000, postgres: null } satisfies Record<BenchDialect, number | null>,
  /** p99 of any page, status filter, referenceId and narrow term; stated for 1,000,000 checks. */
  listP99Ms: 25,
  /** A term matching at most this many checks is "narrow": p99 ≤ listP99Ms. */
  listNarrowTermMax: 1_000,
  /** A term matching at least this many checks is "broad": first page p99 ≤ listBroadFirstP99Ms. */
  listBroadTermMin: 100_000,
  listBroadFirstP99Ms: 150,
  /**
   * p99 of every developer-panel page with 10 pages loading at once (not an issue's figure: the
   * panel's own bar, "no page needs seconds to load", with room for waiting behind 9 others).
   */
  panelP99Ms: 250,
  /** p99 of the register page of a bank account with 100,000 checks (10 pages at once). */
  registerP99Ms: 250,
  /** Emails a second one worker hands to the SMTP peer; stated for PostgreSQL. */
  emailPerSec: { sqlite: null, postgres: 500 } satisfies Record<BenchDialect, number | null>,
  /**
   * `npm start` to the first 200 on /healthz with 10,000 checks stored: 0.6 s, the start-up
   * target (it was 1.5 s, then 1.01 s measured with the worker pool started eagerly).
   */
  startupMs: { sqlite: 600, postgres: 600 } satisfies Record<BenchDialect, number | null>,
  /** Wall time of `checkwriter keys create`: 0.3 s (the README's first command; 0.56 s measured before). */
  keysCreateMs: 300,
  /** CSV import of 10,000 checks, POST to succeeded; stated for SQLite. */
  importRowsPerSec: { sqlite: 2_000, postgres: null } satisfies Record<BenchDialect, number | null>,
  /**
   * p99 of /healthz (polled every 20 ms) while four 500-check prints run, and while
   * hostile tasks run past their deadline or heap cap. Before the pool: 2.2–2.7 s.
   */
  heavyHealthzP99Ms: 50,
  /** Peak resident memory (VmHWM) of the server during each named load. */
  serverPeakRssMb: 200,
} as const;

export interface ScenarioContext {
  dialect: BenchDialect;
  database: BenchDatabase;
  /** Base URL of the checkwriter child process. */
  serverUrl: string;
  /** Its process id, for CPU time per request and its peak memory. */
  serverPid: number;
  options: BenchOptions;
  /**
   * With --profile: the folder this scenario's CPU profiles go to (the server's is written there
   * when it stops after the scenario); other processes a scenario starts may add theirs.
   */
  profileDir: string | null;
}

/** One line of the printed table. `pass` is null where the issue sets no target. */
export interface Verdict {
  scenario: string;
  measured: string;
  target: string;
  pass: boolean | null;
  /**
   * Which process's CPU profile explains a miss (its role folder in the scenario's profile folder,
   * processes.ts cpuProfileFlags); the server's unless the work was done by another process.
   */
  profile?: string;
  /** Filled in by run.ts for a miss: the top self-time functions, or how to get them. */
  reason?: string;
}

export interface ScenarioOutcome<T> {
  verdicts: Verdict[];
  details: T;
}

export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/** A verdict against an upper or lower bound that may not apply to this database (null: reported). */
export function bounded(
  scenario: string,
  measured: string,
  value: number,
  bound: number | null,
  kind: 'max' | 'min',
  describeBound: (bound: number) => string,
): Verdict {
  if (bound === null) return { scenario, measured, target: 'reported', pass: null };
  return { scenario, measured, target: describeBound(bound), pass: kind === 'max' ? value <= bound : value >= bound };
}

/** The median of a few timings (start-up, CLI runs). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
