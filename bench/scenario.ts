// What a scenario receives and what it hands back to the report. Targets live here, in one place,
// as the issue states them.
import type { BenchDatabase } from './databases.ts';
import type { BenchDialect, BenchOptions } from './options.ts';

export const TARGETS = {
  /** GET /checks/{id} req/s as a share of the raw node:http baseline. */
  getRatio: { sqlite: 0.65, postgres: 0.3 } satisfies Record<BenchDialect, number>,
  /** POST /checks in batches of 100; PostgreSQL has no stated target, it is reported only. */
  postChecksPerSec: { sqlite: 20_000, postgres: null } satisfies Record<BenchDialect, number | null>,
  /** p99 of any list query; stated for an account of 1,000,000 checks. */
  listP99Ms: 25,
  /**
   * p99 of every developer-panel page with 10 pages loading at once (not an issue's figure: the
   * panel's own bar, "no page needs seconds to load", with room for waiting behind 9 others).
   */
  panelP99Ms: 250,
} as const;

export interface ScenarioContext {
  dialect: BenchDialect;
  database: BenchDatabase;
  /** Base URL of the checkwriter child process. */
  serverUrl: string;
  /** Its process id, for CPU time per request. */
  serverPid: number;
  options: BenchOptions;
}

/** One line of the printed table. `pass` is null where the issue sets no target. */
export interface Verdict {
  scenario: string;
  measured: string;
  target: string;
  pass: boolean | null;
}

export interface ScenarioOutcome<T> {
  verdicts: Verdict[];
  details: T;
}

export function fmt(value: number, digits = 0): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
