// Is a real server process still serving while a hostile request runs?
//
// - `/healthz` is probed every ~20 ms from a worker thread: the test's own thread builds and sends
//   multi-megabyte bodies, and a probe timer on that thread would measure the test, not the server.
//   The prober runs for the whole file over one kept-alive connection, as a monitor would.
// - The server's memory is read from /proc/<pid>/status: VmRSS (resident now) and VmHWM (the peak
//   since the last reset; writing "5" to /proc/<pid>/clear_refs resets it, Linux ≥ 4.0), so a
//   spike that came and went inside one request is still seen.
// - Time against size: a shape sent at size N and 2N must take at most ~2.5 times as long at 2N
//   (linear work, with room for noise). Each size is timed five times and the fastest kept (a
//   timing can only be made slower by the machine, never faster), and the whole comparison is
//   retried once when it fails: on a shared machine one neighbour's burst can land on the 2N runs
//   alone; a parser that is really quadratic fails both attempts (at 2N it takes 4×, every time).
import { readFileSync, writeFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { expect } from 'vitest';
import type { ServerProcess } from './processes.ts';

/**
 * The responsiveness bound, relative to the same machine's idle figure (never an absolute time: a
 * test on a loaded machine sees every probe slower, busy or not). While a hostile request runs, the
 * slowest /healthz may be at most IDLE_FACTOR times the slowest idle probe plus STALL_ALLOWANCE_MS.
 * What it must catch is work on the event loop: the CSV and JSON parsers that once ran there held
 * every probe for 170–210 ms per 8 MB body (and seconds for the shapes that hurt them), while a
 * probe during work done off the loop is within a few ms of idle. The absolute targets live in the
 * bench (`npm run bench -- --only heavy`).
 */
export const IDLE_FACTOR = 3;
export const STALL_ALLOWANCE_MS = 100;

/**
 * The slowest /healthz allowed while work runs, given an idle window of the same probe. A file whose
 * work is heavier (several multi-MB bodies at once, image decoding on both cores) passes a larger
 * allowance and says why; the figure it compares with is still the machine's own idle one.
 */
export function healthzBound(idle: Pick<HealthReport, 'worstMs'>, allowanceMs = STALL_ALLOWANCE_MS): number {
  return IDLE_FACTOR * idle.worstMs + allowanceMs;
}
/** t(2N) / t(N) at most this: linear work with room for noise. */
export const DOUBLING_RATIO = 2.5;
/**
 * Absolute slack on t(2N), in ms. A shape refused in its first kilobytes costs the server almost
 * nothing at either size: both timings are the transfer and a few milliseconds of scheduling, and a
 * 10 ms burst on a shared machine turns 8 ms into 18. 25 ms cannot hide a parser that is not
 * linear at these sizes: the quadratic reader took 7 s at 200 KB.
 */
export const NOISE_FLOOR_MS = 25;

export interface HealthReport {
  probes: number;
  /** The slowest probe, in ms; a probe that got no answer (or not 200) counts as its timeout. */
  worstMs: number;
  p99Ms: number;
  failures: number;
}

// The prober: a plain-JavaScript worker (no TypeScript loader in a worker thread). It runs for the
// whole test file, so its first fetch (connection, the HTTP client's own start-up) is not counted:
// `reset` starts a new window of probes and `read` answers the window.
const PROBER = `
const { parentPort, workerData } = require('node:worker_threads');
const { url, intervalMs, timeoutMs } = workerData;
let times = [];
let failures = 0;
let running = true;
parentPort.on('message', (message) => {
  if (message === 'stop') running = false;
  else if (message === 'reset') { times = []; failures = 0; parentPort.postMessage('reset'); }
  else if (message === 'read') parentPort.postMessage({ times: [...times], failures });
});
(async () => {
  while (running) {
    const started = performance.now();
    let ok = false;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
      await response.text();
      ok = response.status === 200;
    } catch {}
    const ms = performance.now() - started;
    if (!ok) failures += 1;
    times.push(ok ? ms : Math.max(ms, timeoutMs));
    await new Promise((r) => setTimeout(r, intervalMs));
  }
  parentPort.postMessage('stopped');
})();
`;

/** A /healthz prober in its own thread for one server, for a whole test file. */
export class HealthProbe {
  private constructor(private readonly worker: Worker) {}

  /** Starts probing `${base}/healthz` every `intervalMs`; resolves once probes answer. */
  static async start(base: string, intervalMs = 20, timeoutMs = 5_000): Promise<HealthProbe> {
    const worker = new Worker(PROBER, { eval: true, workerData: { url: `${base}/healthz`, intervalMs, timeoutMs } });
    const probe = new HealthProbe(worker);
    // Warm up: wait for three answered probes (the connection is then open and kept alive).
    for (let i = 0; i < 100; i += 1) {
      await new Promise((r) => setTimeout(r, 50));
      const seen = await probe.ask<{ times: number[]; failures: number }>('read');
      if (seen.times.length - seen.failures >= 3) break;
    }
    return probe;
  }

  private ask<T>(message: string): Promise<T> {
    return new Promise((resolve) => {
      this.worker.once('message', (answer: T) => resolve(answer));
      this.worker.postMessage(message);
    });
  }

  /**
   * The machine's idle figure for this probe: a window of `ms` with no request of ours running.
   * Measured once per probe (the first call) and kept, so every row of a file compares with the
   * same figure.
   */
  async idle(ms = 1_500): Promise<HealthReport> {
    if (this.idleReport === undefined) {
      await this.reset();
      await new Promise((r) => setTimeout(r, ms));
      this.idleReport = await this.read();
    }
    return this.idleReport;
  }

  private idleReport: HealthReport | undefined;

  /** Starts a new window of probes. */
  async reset(): Promise<void> {
    await this.ask('reset');
  }

  /** The probes since the last reset. */
  async read(): Promise<HealthReport> {
    const { times, failures } = await this.ask<{ times: number[]; failures: number }>('read');
    const sorted = [...times].sort((a, b) => a - b);
    return {
      probes: times.length,
      worstMs: sorted.at(-1) ?? 0,
      p99Ms: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0,
      failures,
    };
  }

  async close(): Promise<void> {
    await this.worker.terminate();
  }
}

export interface Memory {
  /** Resident set now, MB. */
  rssMb: number;
  /** The resident peak since the last `resetPeak`, MB. */
  peakMb: number;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string): number =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? Number.NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** Resets VmHWM to the current RSS; where the kernel does not allow it, the peak stays the lifetime's. */
export function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // The peak then covers the process's whole life: a looser bound, never a false failure.
  }
}

export interface Observed<T> {
  value: T;
  health: HealthReport;
  before: Memory;
  after: Memory;
  /** Peak resident memory during the run minus resident memory before it, MB. */
  growthMb: number;
  ms: number;
}

/** Runs `work` while /healthz is probed and the server's memory watched. */
export async function observe<T>(
  server: ServerProcess,
  probe: HealthProbe,
  work: () => Promise<T>,
): Promise<Observed<T>> {
  const pid = server.child.pid;
  if (pid === undefined) throw new Error('the server process has no pid');
  resetPeak(pid);
  const before = memoryOf(pid);
  await probe.reset();
  const started = performance.now();
  let value: T;
  try {
    value = await work();
  } finally {
    // A probe or two after the answer: a server that answered and then stalled is caught too.
    await new Promise((r) => setTimeout(r, 60));
  }
  const ms = performance.now() - started;
  const health = await probe.read();
  const after = memoryOf(pid);
  return { value, health, before, after, growthMb: after.peakMb - before.rssMb, ms };
}

/** The server answers /healthz and has not exited. */
export async function expectAlive(server: ServerProcess): Promise<void> {
  expect(server.child.exitCode, `the server exited:\n${server.output().slice(-2000)}`).toBeNull();
  const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(5_000) });
  expect(response.status).toBe(200);
  await response.text();
}

/** Fastest of `runs` timings of `work`, in ms. */
export async function fastest(work: () => Promise<unknown>, runs = 5): Promise<number> {
  let best = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    await work();
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

export interface Doubling {
  smallMs: number;
  largeMs: number;
  ratio: number;
  attempts: number;
  /** t(2N) ≤ DOUBLING_RATIO × t(N) + NOISE_FLOOR_MS. */
  linear: boolean;
}

/**
 * Times `send(1)` and `send(2)` (the shape at N and at 2N), fastest of five each, and retries the
 * comparison once if t(2N) is over DOUBLING_RATIO × t(N) + NOISE_FLOOR_MS (see the head of this file).
 */
export async function doubling(send: (scale: 1 | 2) => Promise<unknown>): Promise<Doubling> {
  let last: Doubling = { smallMs: 0, largeMs: 0, ratio: Number.POSITIVE_INFINITY, attempts: 0, linear: false };
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const smallMs = await fastest(() => send(1));
    const largeMs = await fastest(() => send(2));
    const linear = largeMs <= DOUBLING_RATIO * smallMs + NOISE_FLOOR_MS;
    last = { smallMs, largeMs, ratio: largeMs / smallMs, attempts: attempt, linear };
    if (linear) break;
  }
  return last;
}

export interface RowReport {
  name: string;
  status: number;
  worstMs: number;
  p99Ms: number;
  probes: number;
  growthMb: number;
  ms: number;
  attempts: number;
}

/**
 * One row of the parser table: `work` sends a hostile request and answers its status; it must not
 * be a 5xx, the server stays alive, every probe answers 200 within `healthzBound` of the probe's idle
 * figure and the peak
 * memory grows by at most `maxGrowthMb`. A row whose probe bound fails is run once more (a
 * neighbour's burst on a shared machine); the second attempt decides.
 */
export async function hostileRow(
  server: ServerProcess,
  probe: HealthProbe,
  name: string,
  work: () => Promise<number>,
  options: { maxGrowthMb?: number; expectStatus?: (status: number) => void } = {},
): Promise<RowReport> {
  let report: RowReport | undefined;
  const idle = await probe.idle();
  const bound = healthzBound(idle);
  for (let attempt = 1; attempt <= 2; attempt += 1) {
    const seen = await observe(server, probe, work);
    report = {
      name,
      status: seen.value,
      worstMs: Math.round(seen.health.worstMs),
      p99Ms: Math.round(seen.health.p99Ms),
      probes: seen.health.probes,
      growthMb: Math.round(seen.growthMb),
      ms: Math.round(seen.ms),
      attempts: attempt,
    };
    await expectAlive(server);
    if (seen.health.failures === 0 && seen.health.worstMs <= bound) break;
  }
  if (report === undefined) throw new Error('no attempt ran');
  console.log(
    `${name}: ${report.status} in ${report.ms} ms; /healthz worst ${report.worstMs} ms (p99 ${report.p99Ms}, ${report.probes} probes; idle worst ${Math.round(idle.worstMs)} ms, bound ${Math.round(bound)} ms); memory +${report.growthMb} MB${report.attempts > 1 ? ' (second attempt)' : ''}`,
  );
  expect(report.status, name).toBeLessThan(500);
  options.expectStatus?.(report.status);
  expect(report.worstMs, `${name}: slowest /healthz (idle worst ${Math.round(idle.worstMs)} ms)`).toBeLessThanOrEqual(
    bound,
  );
  expect(report.growthMb, `${name}: memory growth`).toBeLessThanOrEqual(options.maxGrowthMb ?? 150);
  return report;
}

/** The spec's error shape: `{message}` for 401, `{success:false, errorMsg}` otherwise. */
export function expectErrorShape(status: number, text: string): void {
  const body: unknown = JSON.parse(text);
  if (status === 401) expect(body).toEqual({ message: 'Unauthenticated.' });
  else expect(body).toEqual({ success: false, errorMsg: expect.any(String) });
}
