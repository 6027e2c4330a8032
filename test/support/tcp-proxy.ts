// A TCP proxy between the service and PostgreSQL that a test can break the way networks break
// (as in a failover): cut every connection at once (a failover, a crashed server), or blackhole them
// (packets vanish: nothing answers, nothing closes), and listen on a port only later (a database
// not up yet at start). Plain node:net, on loopback.
import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Destroys every open connection, both sides (new ones are still accepted). */
  cut(): void;
  /** On: existing connections stop carrying bytes and new ones are accepted but never answered. */
  blackhole(on: boolean): void;
  /** Connections currently open through the proxy. */
  open(): number;
  close(): Promise<void>;
}

/** Listens on `listenPort` (0: any free port) and forwards to `target`. */
export async function startTcpProxy(target: { host: string; port: number }, listenPort = 0): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket | null }>();
  let holed = false;
  const server: Server = createServer((client) => {
    const pair: { client: Socket; upstream: Socket | null } = { client, upstream: null };
    pairs.add(pair);
    client.on('error', () => undefined);
    client.on('close', () => {
      pair.upstream?.destroy();
      pairs.delete(pair);
    });
    if (holed) {
      client.pause();
      return;
    }
    const upstream = connect(target.port, target.host);
    pair.upstream = upstream;
    upstream.on('error', () => undefined);
    upstream.on('close', () => client.destroy());
    client.on('data', (chunk: Buffer) => {
      if (!holed) upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      if (!holed) client.write(chunk);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    cut: () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      pairs.clear();
    },
    blackhole: (on) => {
      holed = on;
    },
    open: () => pairs.size,
    close: async () => {
      for (const { client, upstream } of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      pairs.clear();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** `url` with its host and port replaced by the proxy's. */
export function throughProxy(url: string, proxy: TcpProxy): string {
  const parsed = new URL(url);
  parsed.hostname = '127.0.0.1';
  parsed.port = String(proxy.port);
  return parsed.toString();
}
