// Real processes: the `checkwriter` command as a user runs it, for tests that need more than one
// process (concurrency across servers, the CLI revoking a key of a running server, signals).
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
// @ts-expect-error: bin/ is plain JavaScript without declarations
import { compiled, distIsCurrent } from '../../bin/dist-state.js';
import { freshDatabaseConfig, type TestDialect } from './databases.ts';

const BIN = fileURLToPath(new URL('../../bin/checkwriter.js', import.meta.url));
const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * How a server process runs: `bin` as a user runs it (bin/checkwriter.js picks dist/ when it is
 * up to date, else the sources), or forced: `dist` the compiled JavaScript (the bundle, as
 * bin/checkwriter.js runs it), `sources` the TypeScript through tsx.
 */
export type ServerEntry = 'bin' | 'dist' | 'sources';

/** How long a server may take to start: the sources are compiled as they load, which takes longer. */
const START_MS: Readonly<Record<ServerEntry, number>> = { bin: 20_000, dist: 20_000, sources: 60_000 };

function entryArgs(entry: ServerEntry): string[] {
  switch (entry) {
    case 'bin':
      return [BIN];
    case 'dist':
      return [compiled as string];
    case 'sources':
      return ['--import', 'tsx', `${ROOT}src/cli/main.ts`];
  }
}

/** Whether dist/ holds a build at least as new as every source file (what bin/checkwriter.js checks). */
export { distIsCurrent };

// Every process a test starts dies with the test process, even when the test timed out before
// its own clean-up: an orphaned server or worker would slow every later test on the machine.
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});
function tracked<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(process.execPath, [BIN, ...args], {
        env: { ...process.env, LOG_LEVEL: 'warn', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** Sends a signal and waits for the exit code. */
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export interface StartOptions {
  /** What starts the server: the command as users run it (default), or another entry (see ServerEntry). */
  entry?: ServerEntry;
  /** How long the server may take to listen (default 20 s; a server that waits for its database needs more). */
  startTimeoutMs?: number;
  /** Called with the output so far each time the process writes, before it listens too. */
  onOutput?: (output: string) => void;
}

export function startServerProcess(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  const entry = options.entry ?? 'bin';
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(process.execPath, [...entryArgs(entry), 'serve'], {
        env: {
          ...process.env,
          HOST: '127.0.0.1',
          PORT: '0',
          LOG_LEVEL: 'warn',
          RATE_LIMIT_PER_KEY: '0',
          FAILED_REQUEST_LIMIT_PER_MINUTE: '0',
          // Owners sign in with a password alone unless a test is about the second factor.
          SECOND_FACTOR_REQUIRED: 'false',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    // A server that did not start in time is killed: left running, it would eat the CPU the
    // following tests need and turn one slow start into a cascade of timeouts.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start:\n${output}`));
    }, options.startTimeoutMs ?? START_MS[entry]);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      options.onOutput?.(output);
      const match = /listening on (http:\/\/[^\s]+)/.exec(output);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve({
          url: match[1],
          child,
          output: () => output,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      options.onOutput?.(output);
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
}

/** A key for `email` made by `checkwriter keys create` (the key is its output's last line). */
export async function createKeyWithCli(email: string, env: Record<string, string>): Promise<string> {
  const created = await runCli(['keys', 'create', '--email', email], env);
  return created.stdout.trim().split('\n').at(-1) ?? '';
}

export interface MigratedServer {
  /** Variables that point a child process (the CLI) at the server's database. */
  env: Record<string, string>;
  server: ServerProcess;
  /** The server's API root, e.g. http://127.0.0.1:41234/api/v3. */
  api: string;
  /** Stops the server and drops the database. */
  close: () => Promise<void>;
}

/** A fresh database of `dialect` migrated by `checkwriter migrate`, then `checkwriter serve` on it. */
export async function startMigratedServer(dialect: TestDialect): Promise<MigratedServer> {
  const fresh = await freshDatabaseConfig(dialect);
  try {
    const migrated = await runCli(['migrate'], fresh.env);
    if (migrated.code !== 0) throw new Error(`checkwriter migrate exited with ${migrated.code}:\n${migrated.stderr}`);
    const server = await startServerProcess(fresh.env);
    const close = async (): Promise<void> => {
      await server.stop();
      await fresh.cleanup();
    };
    return { env: fresh.env, server, api: `${server.url}/api/v3`, close };
  } catch (error) {
    // The caller's afterAll has no handle yet: drop the database here.
    await fresh.cleanup();
    throw error;
  }
}

export async function http(
  url: string,
  init: { method?: string; key?: string; body?: unknown } = {},
  // biome-ignore lint/suspicious/noExplicitAny: JSON read back in tests, walked freely by the assertions
): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: init.method ?? 'GET',
    headers: {
      ...(init.key === undefined ? {} : { authorization: `Bearer ${init.key}` }),
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const text = await response.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body };
}

/**
 * A bank account, a payee and one check made through the API of a running server, as a client
 * would; answers the check's id. Each step must answer 201.
 */
export async function createCheckOverHttp(
  api: string,
  key: string,
  check: { bankAccount: Record<string, unknown>; payee: Record<string, unknown>; amount: number },
): Promise<string> {
  const bank = await http(`${api}/bankAccounts`, { method: 'POST', key, body: { bankAccounts: [check.bankAccount] } });
  // The same bank account again is the one already there: its create answers the existing id.
  const existing = bank.status === 422 ? bank.body.bankAccountId : undefined;
  const bankAccountId = typeof existing === 'string' ? existing : bank.body.data.bankAccounts[0].bankAccountId;
  const payee = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [check.payee] } });
  const created = await http(`${api}/checks`, {
    method: 'POST',
    key,
    body: {
      checks: [
        {
          bankAccountId,
          payeeId: payee.body.data.payees[0].payeeId,
          amount: check.amount,
        },
      ],
    },
  });
  for (const reply of typeof existing === 'string' ? [payee, created] : [bank, payee, created])
    if (reply.status !== 201) throw new Error(`expected 201, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  return created.body.data.checks[0].checkId;
}

/** `checkwriter worker` as its own process; resolves once it has started. */
export function startWorkerProcess(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; stop: (signal?: NodeJS.Signals) => Promise<number | null> }> {
  return new Promise((resolve, reject) => {
    const child = tracked(
      spawn(process.execPath, [BIN, 'worker'], {
        env: { ...process.env, LOG_LEVEL: 'info', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    );
    let output = '';
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 20_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('delivery worker started')) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve({
          child,
          stop: async (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  });
}
