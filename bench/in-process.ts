// Timings of one store or service call made in this process, many times over, against the bench's
// own connection to the scenario's database: what the call costs without HTTP, the framework or
// the load generator in the way. Several rounds, the median reported, since the cores are shared.
import { performance } from 'node:perf_hooks';
import { median } from './scenario.ts';

export interface CallTiming {
  /** Median of the rounds' mean time per call, in µs. */
  usPerCall: number;
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
  for (let r = 0; r < options.rounds; r++) {
    const began = performance.now();
    for (let i = 0; i < options.callsPerRound; i++) await call();
    perRound.push(((performance.now() - began) * 1_000) / options.callsPerRound);
  }
  return { usPerCall: median(perRound), rounds: options.rounds, callsPerRound: options.callsPerRound };
}
