// The servers under test run as child processes, so autocannon (in this process) never shares
// an event loop with them. They still share the machine's cores: on 2 cores the load generator
// takes about one, which is why results are reported as ratios against the raw baseline that
// suffers the same handicap in the same run.
import { fork, spawn, type ChildProcess, type Serializable } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BareFastifySetup } from './bare-fastify.ts';

export const REPO_ROOT = dirname(dirname(fileURLToPath(import.meta.url)));

export interface Child {
  url: string;
  /** Process id, for reading its CPU time (machine-load.ts). */
  pid: number;
  /** Milliseconds from the spawn until it was ready to serve. */
  readyMs: number;
  stop(): Promise<void>;
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      // SIGTERM lets checkwriter finish in-flight requests and close its database (and lets
      // --cpu-prof write its profile); SIGKILL only if that hangs.
      const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

/**
 * node flags that write a process's CPU profiles into `<profileDir>/<role>/` when it exits. One
 * folder per role and V8's own file names: tsx's loader hooks run on a thread of their own, which
 * writes a profile too, and a fixed --cpu-prof-name would let it overwrite the main thread's
 * (profile.ts picks the main thread's file).
 */
export function cpuProfileFlags(profileDir: string, role: string): string[] {
  return ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, role)}`];
}

export interface StartOptions {
  /**
   * Access log on (LOG_LEVEL=info, JSON lines on standard output), read from the pipe like a log
   * collector reads it and thrown away: echoing a line a request would measure this process's
   * terminal, not the server. Standard error is still passed through.
   */
  accessLog?: boolean;
  /** With a profile folder: the role folder its CPU profile goes to (default `server`). */
  profileRole?: string;
}

/**
 * `checkwriter serve` on a free port, configured only through its environment like in production.
 * With `profileDir`, V8 writes the server's CPU profiles into `<profileDir>/server/` when it stops.
 */
export function startCheckwriter(
  env: Record<string, string>,
  profileDir: string | null,
  options: StartOptions = {},
): Promise<Child & { logBytes(): number }> {
  const nodeArgs: string[] = [];
  if (profileDir !== null) {
    mkdirSync(profileDir, { recursive: true });
    nodeArgs.push(...cpuProfileFlags(profileDir, options.profileRole ?? 'server'));
  }
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, join(REPO_ROOT, 'bin', 'checkwriter.js'), 'serve'], {
    cwd: REPO_ROOT,
    // The panel scenario's people sign in with a password alone: a second factor is one more
    // form before the pages it measures, not a cost of serving them.
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_PER_KEY: '0',
      SECOND_FACTOR_REQUIRED: 'false',
      ...env,
      ...(options.accessLog === true ? { LOG_LEVEL: 'info', LOG_FORMAT: 'json' } : {}),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let logBytes = 0;
  return new Promise((resolve, reject) => {
    let output = '';
    let ready = false;
    const onData = (chunk: Buffer, fromStdout: boolean): void => {
      if (ready && fromStdout && options.accessLog === true) {
        logBytes += chunk.length;
        return;
      }
      // After the start-up banner, anything the server prints (warnings at LOG_LEVEL=warn) is
      // passed through: a warning during a measurement explains odd numbers.
      if (ready) return void process.stderr.write(`[server] ${chunk.toString('utf8')}`);
      output += chunk.toString('utf8');
      const match = /listening on (http:\/\/\S+)\s/.exec(output);
      if (match?.[1] !== undefined) {
        ready = true;
        resolve({
          url: match[1],
          pid: child.pid ?? -1,
          readyMs: performance.now() - spawnedAt,
          stop: stopper(child),
          logBytes: () => logBytes,
        });
      }
    };
    child.stdout?.on('data', (chunk: Buffer) => onData(chunk, true));
    child.stderr?.on('data', (chunk: Buffer) => onData(chunk, false));
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`checkwriter exited before listening (code ${code}, signal ${signal}):\n${output}`));
    });
  });
}

/** A baseline server (bench/<script>) in a forked child: it gets `setup` over IPC and answers its port. */
function startForked(script: string, setup: Serializable): Promise<Child> {
  const spawnedAt = performance.now();
  // BENCH_PROFILE_BASELINES=dir: the baselines write CPU profiles too, to compare with the server's.
  const profileDir = process.env.BENCH_PROFILE_BASELINES;
  const execArgv =
    profileDir === undefined
      ? process.execArgv
      : [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${join(profileDir, script)}`];
  const child = fork(join(REPO_ROOT, 'bench', script), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  return new Promise((resolve, reject) => {
    child.once('message', (message: unknown) => {
      const port = (message as { port?: unknown }).port;
      if (typeof port !== 'number') return reject(new Error(`${script} sent no port`));
      // The IPC channel is only for the handshake; closing it keeps the child's loop quiet.
      child.disconnect();
      resolve({
        url: `http://127.0.0.1:${port}`,
        pid: child.pid ?? -1,
        readyMs: performance.now() - spawnedAt,
        stop: stopper(child),
      });
    });
    child.once('exit', (code) => reject(new Error(`${script} exited early (code ${code})`)));
    child.send(setup);
  });
}

/** The node:http baseline serving `body` as the real server served it. */
export function startRawServer(body: string, contentType: string): Promise<Child> {
  return startForked('raw-server.ts', { body, contentType });
}

/** The bare Fastify baseline: the same lookup on the same database, then the same bytes. */
export function startBareFastify(setup: BareFastifySetup): Promise<Child> {
  return startForked('bare-fastify.ts', setup);
}
