// A browser stand-in for the panel over real HTTP (test/support/panel-visitor.ts does the same
// through inject): it keeps the cookies the server sets and posts forms with the CSRF token of the
// page they are on. Used only to set up the panel scenario; the load itself is autocannon with
// the resulting Cookie header.
import { Agent, request } from 'node:http';

export interface PanelReply {
  status: number;
  /** The Location header of a redirect, '' otherwise. */
  location: string;
  body: string;
}

/** The hidden `_csrf` field of a panel page (every form carries one). */
export function csrfOf(page: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(page);
  if (match?.[1] === undefined) throw new Error('no CSRF field on the panel page');
  return match[1];
}

export class PanelClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  readonly cookies = new Map<string, string>();

  constructor(private readonly baseUrl: string) {}

  /** What autocannon sends to be this browser: `cw_csrf=…; cw_session=…`. */
  cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  private remember(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      // A cleared cookie comes back empty or already expired.
      if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private send(method: 'GET' | 'POST', path: string, form?: Record<string, string>): Promise<PanelReply> {
    const payload = form === undefined ? undefined : Buffer.from(new URLSearchParams(form).toString(), 'utf8');
    const headers: Record<string, string> = { cookie: this.cookieHeader() };
    if (payload !== undefined)
      Object.assign(headers, {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(payload.length),
      });
    return new Promise((resolve, reject) => {
      const req = request(new URL(`${this.baseUrl}${path}`), { method, agent: this.agent, headers }, (res) => {
        this.remember(res.headers['set-cookie']);
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            location: String(res.headers.location ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  /** A page that must answer `expected`; anything else means the setup is broken. */
  async get(path: string, expected = 200): Promise<PanelReply> {
    const reply = await this.send('GET', path);
    if (reply.status !== expected)
      throw new Error(
        `GET ${path}: expected ${expected}, got ${reply.status}${reply.location === '' ? '' : ` to ${reply.location}`}: ${reply.body.slice(0, 300)}`,
      );
    return reply;
  }

  /** Opens `pagePath` and posts `form` to `action` with that page's CSRF token, as a browser would. */
  async submit(pagePath: string, action: string, form: Record<string, string>, expected: number): Promise<PanelReply> {
    const page = await this.get(pagePath);
    const reply = await this.send('POST', action, { ...form, _csrf: csrfOf(page.body) });
    if (reply.status !== expected)
      throw new Error(
        `POST ${action}: expected ${expected}, got ${reply.status}${reply.location === '' ? '' : ` to ${reply.location}`}: ${reply.body.slice(0, 300)}`,
      );
    return reply;
  }

  close(): void {
    this.agent.destroy();
  }
}
