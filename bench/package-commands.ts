// What `npm start` and `npx checkwriter` run, read from package.json at measure time: the lead may
// change either (TypeScript through tsx today, compiled JS later), and the benchmark measures
// whatever the project ships, not a copy of today's command line.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { REPO_ROOT } from './processes.ts';

interface PackageJson {
  scripts?: Record<string, string>;
  bin?: string | Record<string, string>;
}

function packageJson(): PackageJson {
  return JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as PackageJson;
}

/** The `npm start` command line, for rerunning it under node --cpu-prof. */
export function startScript(): string {
  const script = packageJson().scripts?.start;
  if (script === undefined) throw new Error('package.json has no start script');
  return script;
}

/** The file `npx checkwriter` runs (package.json "bin"), absolute. */
export function checkwriterBin(): string {
  const { bin } = packageJson();
  const file = typeof bin === 'string' ? bin : bin?.checkwriter;
  if (file === undefined) throw new Error('package.json has no "checkwriter" bin');
  return join(REPO_ROOT, file);
}

/** `node <args>` must start the script for it to be profiled; anything else is run as it is. */
export function withNodeFlags(command: string, flags: readonly string[]): string | null {
  const match = /^node\s+/.exec(command);
  return match === null ? null : `node ${flags.join(' ')} ${command.slice(match[0].length)}`;
}

export interface Timed {
  ms: number;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and times it, wall clock from spawn to exit. */
export function timeCommand(command: string, args: readonly string[], env: Record<string, string>): Promise<Timed> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.once('error', reject);
    child.once('close', (code) => resolve({ ms: performance.now() - started, code, stdout, stderr }));
  });
}
