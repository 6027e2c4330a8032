// How busy the machine is, and how much CPU a server process spends. On a 2-core machine a test
// suite or compiler running elsewhere halves req/s, so the report (1) says when the machine was
// busy before a scenario and (2) gives each server's CPU time per request, which other processes
// barely change: it is the figure to compare across runs on a shared machine.
import { readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

function totals(): { idle: number; all: number } {
  let idle = 0;
  let all = 0;
  for (const cpu of cpus()) {
    idle += cpu.times.idle;
    all += cpu.times.user + cpu.times.nice + cpu.times.sys + cpu.times.idle + cpu.times.irq;
  }
  return { idle, all };
}

/** Share (0..1) of all cores busy during `ms`, while this process only sleeps. */
export async function busyShare(ms = 1000): Promise<number> {
  const before = totals();
  await sleep(ms);
  const after = totals();
  const all = after.all - before.all;
  return all <= 0 ? 0 : 1 - (after.idle - before.idle) / all;
}

/** Above this, the run is flagged as measured on a busy machine. */
export const BUSY_THRESHOLD = 0.1;

/** Linux reports process times in clock ticks; USER_HZ is 100 on every mainstream kernel. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, all threads) a process has used so far, from /proc/<pid>/stat;
 * null where there is no /proc (macOS), and the report then leaves the figure out.
 */
export function processCpuSeconds(pid: number): number | null {
  return cpuSecondsOf(`/proc/${pid}/stat`);
}

/**
 * CPU seconds of a process's main thread alone (its thread id is the process id): beside
 * processCpuSeconds, the share of the work done on the event loop rather than on worker threads.
 */
export function mainThreadCpuSeconds(pid: number): number | null {
  return cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`);
}

function cpuSecondsOf(statFile: string): number | null {
  try {
    const stat = readFileSync(statFile, 'utf8');
    // Fields after the command name (which may contain spaces) start at state = field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return Number.isFinite(utime) && Number.isFinite(stime) ? (utime + stime) / TICKS_PER_SECOND : null;
  } catch {
    return null;
  }
}
