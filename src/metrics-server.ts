// METRICS_PORT: `GET /metrics` on a listener of its own, so the figures can stay on a private
// interface (METRICS_HOST, default 127.0.0.1) while the API faces the internet. With METRICS_TOKEN
// set, this listener asks for it too.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches, tokenHash } from './domain/secret-tokens.ts';
import type { Metrics } from './metrics.ts';

export interface MetricsListener {
  url: string;
  close: () => Promise<void>;
}

export async function listenForMetrics(
  metrics: Metrics,
  host: string,
  port: number,
  token: string,
): Promise<MetricsListener> {
  const expected = token === '' ? null : tokenHash(token);
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || (request.url ?? '').split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    if (expected !== null && !bearerMatches(expected, request.headers.authorization)) {
      response.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthenticated\n');
      return;
    }
    metrics.text().then(
      (text) => response.writeHead(200, { 'content-type': metrics.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics unavailable\n'),
    );
  });
  // The figures are small; a slow or idle client must not hold a socket open.
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}/metrics`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
