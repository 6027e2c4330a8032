// Peak resident memory of a server child during one load. VmHWM in /proc/<pid>/status is the
// process's peak since it started; writing "5" to /proc/<pid>/clear_refs (Linux 4.0+, same user)
// resets it to the current RSS, so a reset before a load and a read after it give that load's peak
// and not the largest of every scenario so far.
import { readFileSync, writeFileSync } from 'node:fs';
import { fmt, TARGETS, type Verdict } from './scenario.ts';

export interface PeakRss {
  mb: number;
  /** False where the peak could not be reset: then it is the peak since the server started. */
  sinceReset: boolean;
}

/** Starts a new peak window; false where /proc does not allow it. */
export function resetPeakRss(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** VmHWM in MB (10^6 bytes); null without /proc (macOS). */
export function peakRssMb(pid: number): number | null {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] === undefined ? null : (Number(match[1]) * 1024) / 1e6;
  } catch {
    return null;
  }
}

/** Runs `load` in a fresh peak window of `pid` and returns its result with the peak. */
export async function withPeakRss<T>(
  pid: number,
  load: () => Promise<T>,
): Promise<{ result: T; peak: PeakRss | null }> {
  const sinceReset = resetPeakRss(pid);
  const result = await load();
  const mb = peakRssMb(pid);
  return { result, peak: mb === null ? null : { mb, sinceReset } };
}

export function rssVerdict(what: string, peak: PeakRss | null): Verdict {
  const target = `≤ ${TARGETS.serverPeakRssMb} MB`;
  if (peak === null) return { scenario: `server peak RSS: ${what}`, measured: 'n/a (no /proc)', target, pass: null };
  return {
    scenario: `server peak RSS: ${what}`,
    measured: `${fmt(peak.mb)} MB${peak.sinceReset ? '' : ' (peak since start: could not reset VmHWM)'}`,
    target,
    pass: peak.mb <= TARGETS.serverPeakRssMb,
  };
}
