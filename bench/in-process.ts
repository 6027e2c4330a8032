// Timings of one store or service call made in this process, many times over, against the bench's
// own connection to the scenario's database: what the call costs without HTTP, the framework or
// the load generator in the way. Several rounds, the median reported, since the cores are shared.
import { performance } from 'node:perf_hooks';
import { median } from './scenario.ts';

export interface CallTiming {
  /** Median of the rounds' mean time per call, in µs. */
  usPerCall: number;
  /**
   * Median of the rounds' CPU time of this process per call, in µs: on a machine shared with other
   * work, wall time also counts the time spent waiting for a core; CPU time does not.
   */
  cpuUsPerCall: number;
  rounds: number;
  callsPerRound: number;
}

export async function timeCalls(
  call: () => Promise<unknown>,
  options: { callsPerRound: number; rounds: number },
): Promise<CallTiming> {
  // Warm-up: JIT, the statement cache, the page cache.
  for (let i = 0; i < Math.min(2_000, options.callsPerRound); i++) await call();
  const perRound: number[] = [];
  const cpuPerRound: number[] = [];
  for (let r = 0; r < options.rounds; r++) {
    const cpu = process.cpuUsage();
    const began = performance.now();
    for (let i = 0; i < options.callsPerRound; i++) await call();
    perRound.push(((performance.now() - began) * 1_000) / options.callsPerRound);
    const used = process.cpuUsage(cpu);
    cpuPerRound.push((used.user + used.system) / options.callsPerRound);
  }
  return {
    usPerCall: median(perRound),
    cpuUsPerCall: median(cpuPerRound),
    rounds: options.rounds,
    callsPerRound: options.callsPerRound,
  };
}
