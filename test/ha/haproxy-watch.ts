// Which servers HAProxy routes to, read from its runtime API (`show stat`) every 100 ms, so the
// report can say when HAProxy started routing PostgreSQL to the new primary and measure the
// writes' recovery from that moment (the issue's target: within 2 s of it).
import { connect } from 'node:net';

export interface Routing {
  at: number;
  /** Servers UP in the backend, by name (node1, node2 / app1, app2). */
  up: string[];
}

function showStat(socket: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = connect(socket);
    let text = '';
    client.setTimeout(1_000, () => client.destroy(new Error('haproxy stats socket timed out')));
    client.on('data', (chunk) => (text += chunk.toString('utf8')));
    client.on('end', () => resolve(text));
    client.on('error', reject);
    client.write('show stat\n');
  });
}

export class HaproxyWatch {
  readonly history = new Map<string, Routing[]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly socket: string) {}

  start(): void {
    const poll = async (): Promise<void> => {
      try {
        this.record(await showStat(this.socket), Date.now());
      } catch {
        // HAProxy busy or restarting: the next poll tells
      }
      if (this.timer !== null) this.timer = setTimeout(poll, 100);
    };
    this.timer = setTimeout(poll, 0);
  }

  stop(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }

  private record(csv: string, at: number): void {
    const lines = csv.split('\n');
    const header = (lines[0] ?? '').replace(/^# /, '').split(',');
    const status = header.indexOf('status');
    const up = new Map<string, string[]>();
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      const [proxy, server] = cells;
      if (proxy === undefined || server === undefined || server === 'FRONTEND' || server === 'BACKEND') continue;
      const list = up.get(proxy) ?? [];
      if ((cells[status] ?? '').startsWith('UP')) list.push(server);
      up.set(proxy, list);
    }
    for (const [proxy, servers] of up) {
      const history = this.history.get(proxy) ?? [];
      const last = history.at(-1);
      if (last === undefined || last.up.join() !== servers.join()) history.push({ at, up: servers });
      this.history.set(proxy, history);
    }
  }

  /** Servers UP in `proxy` now (as last polled). */
  current(proxy: string): string[] {
    return this.history.get(proxy)?.at(-1)?.up ?? [];
  }

  /** The first moment after `since` at which `proxy` routed to `server` alone. */
  routedTo(proxy: string, server: string, since: number): number | null {
    for (const r of this.history.get(proxy) ?? [])
      if (r.at >= since && r.up.length === 1 && r.up[0] === server) return r.at;
    return null;
  }

  /** The changes in `proxy` between two moments, for the report. */
  changes(proxy: string, from: number, to: number): Routing[] {
    return (this.history.get(proxy) ?? []).filter((r) => r.at >= from && r.at <= to);
  }
}
