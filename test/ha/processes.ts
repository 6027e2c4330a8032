// Every process the HA test starts goes through here, so that whatever happens (a failed check, an
// exception, Ctrl-C) all of them are stopped before the test exits: none is left running on a
// machine other engineers share.
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { createServer } from 'node:net';

export interface RunAs {
  uid: number;
  gid: number;
}

export interface Launched {
  name: string;
  child: ChildProcess;
  logFile: string;
  /** Resolves with the exit code (null when a signal ended it) once the process has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  alive(): boolean;
}

const running = new Set<Launched>();

export interface LaunchOptions {
  env: Record<string, string>;
  logFile: string;
  runAs?: RunAs | null;
  cwd?: string;
}

export function launch(name: string, command: string, args: string[], options: LaunchOptions): Launched {
  const log = createWriteStream(options.logFile, { flags: 'a' });
  const child = spawn(command, args, {
    env: options.env,
    cwd: options.cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
  });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal, at: Date.now() }));
    child.once('error', (error) => {
      log.write(`spawn failed: ${error.message}\n`);
      resolve({ code: -1, signal: null, at: Date.now() });
    });
  });
  const launched: Launched = {
    name,
    child,
    logFile: options.logFile,
    exited,
    alive: () => child.exitCode === null && child.signalCode === null,
  };
  running.add(launched);
  void exited.then(() => {
    running.delete(launched);
    setTimeout(() => log.end(), 100);
  });
  return launched;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when it has exited. */
export async function stop(process: Launched, graceMs = 15_000): Promise<void> {
  if (!process.alive()) return;
  process.child.kill('SIGTERM');
  const timer = setTimeout(() => process.child.kill('SIGKILL'), graceMs);
  await process.exited;
  clearTimeout(timer);
}

/** Last resort on the way out: whatever is still running dies now. */
export function killEverything(): void {
  for (const p of running) if (p.alive()) p.child.kill('SIGKILL');
}

export function stillRunning(): string[] {
  return [...running].filter((p) => p.alive()).map((p) => p.name);
}

/** A command run to its end; its output is answered (and appended to the log file). */
export function run(
  command: string,
  args: string[],
  options: LaunchOptions & { timeoutMs?: number },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      env: options.env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.runAs ? { uid: options.runAs.uid, gid: options.runAs.gid } : {}),
    });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    log.write(`$ ${command} ${args.join(' ')}\n`);
    let output = '';
    const collect = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      log.write(chunk);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      log.end();
      resolve({ code: -1, output: `${output}${error.message}` });
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      log.end();
      resolve({ code, output });
    });
  });
}

/** Ports free on the loopback address now (the OS picks them; each is released before use). */
export async function freePorts(count: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<ReturnType<typeof createServer>>((resolve, reject) => {
          const server = createServer();
          server.once('error', reject);
          server.listen(0, '127.0.0.1', () => resolve(server));
        }),
    ),
  );
  const ports = servers.map((s) => {
    const address = s.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    return address.port;
  });
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
  return ports;
}

export function tail(file: string, lines: number): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` every `everyMs` until it answers true; false when `timeoutMs` passed first. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}
