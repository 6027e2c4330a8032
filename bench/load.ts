// One autocannon measurement: a short warm-up (JIT, statement caches, connection pools, page
// cache), then the timed run. Anything but 2xx means the server is answering something other
// than what we think we measure, so it fails the scenario instead of producing a number.
import autocannon, { type AutocannonOptions } from 'autocannon';
import { processCpuSeconds } from './machine-load.ts';

export interface LoadResult {
  /** Completed 2xx requests per second over the timed run. */
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  errors: number;
  timeouts: number;
  connections: number;
  durationS: number;
  /** Server CPU time (all its threads) per completed request, in µs; null without /proc. */
  serverCpuUsPerRequest: number | null;
}

export function warmupSeconds(duration: number): number {
  return Math.max(1, Math.min(3, Math.round(duration / 4)));
}

/** `serverPid`: the process under load, whose CPU time is read before and after the timed run. */
export async function measure(
  options: AutocannonOptions & { duration: number; connections: number },
  serverPid: number,
): Promise<LoadResult> {
  await autocannon({ ...options, duration: warmupSeconds(options.duration) });
  const cpuBefore = processCpuSeconds(serverPid);
  const result = await autocannon(options);
  const cpuAfter = processCpuSeconds(serverPid);
  const ok = result['2xx'];
  if (result.non2xx > 0 || ok === 0) {
    const codes = Object.entries(result.statusCodeStats)
      .map(([code, s]) => `${code}×${s.count}`)
      .join(', ');
    throw new Error(
      `${options.method ?? 'GET'} ${options.url}: ${ok} ok, ${result.non2xx} non-2xx (${codes}), ${result.errors} errors`,
    );
  }
  return {
    reqPerSec: ok / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: ok,
    errors: result.errors,
    timeouts: result.timeouts,
    connections: options.connections,
    durationS: result.duration,
    serverCpuUsPerRequest: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) * 1e6) / ok,
  };
}
