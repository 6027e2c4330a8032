// A minimal keep-alive JSON client over node:http for setup calls and for timing list requests
// one at a time. node:http rather than fetch: fetch (undici) adds its own per-request work that
// would be measured as server latency.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';

export interface RawReply {
  status: number;
  contentType: string;
  body: string;
  /** Milliseconds from sending the request to the last byte of the response. */
  ms: number;
}

export class HttpClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });

  constructor(
    private readonly baseUrl: string,
    private readonly key: string,
  ) {}

  send(method: 'GET' | 'POST', path: string, body?: unknown): Promise<RawReply> {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
    const url = new URL(`${this.baseUrl}/api/v3${path}`);
    return new Promise((resolve, reject) => {
      const started = performance.now();
      const req = request(
        url,
        {
          method,
          agent: this.agent,
          headers: {
            authorization: `Bearer ${this.key}`,
            ...(payload === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': String(payload.length) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              contentType: String(res.headers['content-type'] ?? ''),
              body: Buffer.concat(chunks).toString('utf8'),
              ms: performance.now() - started,
            }),
          );
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A JSON call that must answer `expected`; anything else means the benchmark is broken. */
  async json<T>(method: 'GET' | 'POST', path: string, expected: number, body?: unknown): Promise<T> {
    const reply = await this.send(method, path, body);
    if (reply.status !== expected)
      throw new Error(`${method} ${path}: expected ${expected}, got ${reply.status}: ${reply.body.slice(0, 500)}`);
    return JSON.parse(reply.body) as T;
  }

  close(): void {
    this.agent.destroy();
  }
}
