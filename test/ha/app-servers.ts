// The checkwriter servers of the HA test, each supervised as deploy/systemd/checkwriter@.service
// does it (Restart=always, RestartSec=1): whenever one exits without being told to, it is started
// again a second later, and the exit is recorded with the last lines of its log.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Launched, launch, sleep, tail, waitFor } from './processes.ts';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(REPO_ROOT, 'bin', 'checkwriter.js');
const RESTART_SEC_MS = 1_000;

export interface Exit {
  server: string;
  at: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** Why: the harness killed it (kill -9) or stopped it (SIGTERM), or the server exited on its own. */
  cause: 'killed' | 'stopped' | 'own';
  log: string;
}

/**
 * What a dying server said: the last error line of its log (a crash's `error: …` / `Error: …`
 * under Node's "Unhandled 'error' event", or `checkwriter: …` from a refused start), with the
 * PostgreSQL error code when it printed one.
 */
export function exitReason(log: string): string {
  const lines = log.split('\n');
  let at = -1;
  lines.forEach((line, i) => {
    if (/^(error|[A-Za-z]*Error|checkwriter): /.test(line)) at = i;
  });
  if (at === -1) return lines.slice(-3).join(' | ');
  const code = lines
    .slice(at, at + 40)
    .find((line) => /^\s+code: '/.test(line))
    ?.trim();
  const unhandled = lines.slice(Math.max(0, at - 4), at).some((line) => line.includes("Unhandled 'error' event"));
  return [unhandled ? "Unhandled 'error' event:" : '', lines[at], code ?? ''].filter((x) => x !== '').join(' ');
}

export class AppServer {
  private process: Launched | null = null;
  private cause: Exit['cause'] = 'own';
  private supervised = true;
  readonly exits: Exit[] = [];
  starts = 0;

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly logFile: string,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.process?.child.pid;
  }

  start(): void {
    this.starts += 1;
    this.cause = 'own';
    const launched = launch(this.name, process.execPath, [BIN, 'serve'], {
      env: { ...this.env, PORT: String(this.port) },
      logFile: this.logFile,
      cwd: REPO_ROOT,
    });
    this.process = launched;
    void launched.exited.then(({ code, signal, at }) => {
      const cause = this.cause;
      this.exits.push({ server: this.name, at, code, signal, cause, log: exitReason(tail(this.logFile, 80)) });
      // systemd's Restart=always: any exit but `systemctl stop` is followed by a start.
      if (this.process !== launched || cause === 'stopped' || !this.supervised) return;
      setTimeout(() => {
        if (this.process === launched && this.supervised) this.start();
      }, RESTART_SEC_MS);
    });
  }

  /** Answers 200 on its health check (readiness when the server has it, else liveness). */
  async ready(): Promise<boolean> {
    for (const path of ['/readyz', '/healthz']) {
      try {
        const response = await fetch(`${this.url}${path}`, { signal: AbortSignal.timeout(1_000) });
        await response.arrayBuffer();
        if (response.status === 404) continue;
        return response.status === 200;
      } catch {
        return false;
      }
    }
    return false;
  }

  async waitReady(timeoutMs: number): Promise<boolean> {
    return waitFor(() => this.ready(), timeoutMs, 100);
  }

  /** kill -9: the supervisor starts it again after RestartSec, as systemd would. */
  kill9(): void {
    if (this.process === null) return;
    this.cause = 'killed';
    this.process.child.kill('SIGKILL');
  }

  /** SIGTERM and wait for the exit (SIGKILL after `graceMs`, like systemd's TimeoutStopSec). */
  async stopGracefully(graceMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; ms: number }> {
    const current = this.process;
    if (current === null || !current.alive()) return { code: null, signal: null, ms: 0 };
    this.cause = 'stopped';
    const began = Date.now();
    current.child.kill('SIGTERM');
    const timer = setTimeout(() => current.child.kill('SIGKILL'), graceMs);
    const { code, signal } = await current.exited;
    clearTimeout(timer);
    return { code, signal, ms: Date.now() - began };
  }

  /** The end of the run: no more restarts, and the process stopped. */
  async shutDown(): Promise<void> {
    this.supervised = false;
    await this.stopGracefully(10_000);
    await sleep(0);
  }
}
