// The reason slot of a missed target: the functions a V8 CPU profile (.cpuprofile, written by
// node --cpu-prof) spent the most self time in. Samples are attributed to the node they hit, so
// self time per node is its hit count × the sampling interval; nodes of one function are summed.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REPO_ROOT } from './processes.ts';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  /** µs between consecutive samples, the first counted from startTime. */
  timeDeltas?: number[];
  startTime: number;
  endTime: number;
}

/**
 * The main thread's profile in a folder written by cpuProfileFlags: V8 names files
 * CPU.<date>.<time>.<pid>.<thread id>.<seq>.cpuprofile and the main thread is thread 0 (the
 * others are tsx's loader thread and workers). The largest if several processes wrote one.
 */
export function mainThreadProfile(dir: string): string | null {
  if (!existsSync(dir)) return null;
  const files = readdirSync(dir)
    .filter((f) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(f))
    .map((f) => join(dir, f));
  files.sort((a, b) => statSync(b).size - statSync(a).size);
  return files[0] ?? null;
}

/** Not functions: time the process spent waiting, or that V8 could not attribute. */
const SKIPPED = new Set(['(idle)', '(root)', '(program)']);

function place(url: string, line: number): string {
  if (url === '') return '';
  const path = url.startsWith('file://') ? relative(REPO_ROOT, new URL(url).pathname) : url;
  const short = path.replace(/^node_modules\//, '').replace(/^.*\/node_modules\//, '');
  return ` ${short}:${line + 1}`;
}

/**
 * e.g. "writev node:internal/…:123 18%; (garbage collector) 9%; …" — shares of the busy samples.
 * `skipMs`: leave out the samples of the process's first milliseconds (a server's start-up, which
 * a scenario does not measure); counted from the profile's start, which is close to the spawn.
 */
export function topSelfTime(file: string, count = 3, skipMs = 0): string {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const hits = new Map<number, number>();
  const samples = profile.samples ?? [];
  let at = 0;
  for (const [i, id] of samples.entries()) {
    at += profile.timeDeltas?.[i] ?? 0;
    if (at >= skipMs * 1000) hits.set(id, (hits.get(id) ?? 0) + 1);
  }
  const byFunction = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const name = node.callFrame.functionName === '' ? '(anonymous)' : node.callFrame.functionName;
    if (SKIPPED.has(name)) continue;
    const n = samples.length === 0 ? (node.hitCount ?? 0) : (hits.get(node.id) ?? 0);
    if (n === 0) continue;
    busy += n;
    const key = `${name}${place(node.callFrame.url, node.callFrame.lineNumber)}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + n);
  }
  if (busy === 0) return 'profile has no busy samples';
  return [...byFunction.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([key, n]) => `${key} ${Math.round((n / busy) * 100)}%`)
    .join('; ');
}
