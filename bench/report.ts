// The printed table and the JSON file (.bench/results-<timestamp>.json, git-ignored).
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchDialect, BenchOptions } from './options.ts';
import { REPO_ROOT } from './processes.ts';
import type { Verdict } from './scenario.ts';
import { BUSY_THRESHOLD } from './machine-load.ts';

export interface DialectReport {
  dialect: BenchDialect;
  /** Scenario -> share of the CPU other processes used in the second before it (machine-load.ts). */
  busyBefore: Record<string, number>;
  verdicts: Verdict[];
  /** Scenario name -> its details as measured. */
  scenarios: Record<string, unknown>;
  /** Scenarios that broke (an error, not a missed target). */
  errors: { scenario: string; message: string }[];
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGb: number; node: string; platform: string };
  options: BenchOptions;
  databases: DialectReport[];
}

export function machine(): BenchReport['machine'] {
  const list = cpus();
  return {
    cpus: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    memoryGb: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

function verdictText(pass: boolean | null): string {
  return pass === null ? '' : pass ? 'PASS' : 'MISS';
}

export function renderTable(reports: readonly DialectReport[]): string {
  const busy = reports.flatMap((r) =>
    Object.entries(r.busyBefore)
      .filter(([, share]) => share > BUSY_THRESHOLD)
      .map(([scenario, share]) => `${r.dialect} ${scenario} ${Math.round(share * 100)}%`),
  );
  // The last column is the reason slot of a miss (run.ts explain): long, so it goes at the end.
  const rows: string[][] = [['db', 'scenario', 'measured', 'target', '', 'reason']];
  for (const report of reports) {
    for (const v of report.verdicts)
      rows.push([report.dialect, v.scenario, v.measured, v.target, verdictText(v.pass), v.reason ?? '']);
    for (const e of report.errors)
      rows.push([report.dialect, e.scenario, `ERROR: ${e.message.split('\n')[0] ?? ''}`, '', 'ERROR']);
  }
  const widths = rows[0]?.map((_, col) => Math.max(...rows.map((r) => (r[col] ?? '').length))) ?? [];
  const line = (r: string[]): string =>
    r
      .map((cell, col) => cell.padEnd(widths[col] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const [head, ...body] = rows;
  const warning =
    busy.length === 0
      ? []
      : [
          '',
          `Warning: the machine was busy before the run (${busy.join(', ')} CPU used by other processes); repeat on a quiet machine.`,
        ];
  return [line(head ?? []), rule, ...body.map(line), ...warning].join('\n');
}

export function writeReport(report: BenchReport): string {
  const dir = join(REPO_ROOT, '.bench');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `results-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
