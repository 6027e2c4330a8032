// A browser stand-in for panel tests over Fastify's inject: keeps cookies like a browser does and
// fills the CSRF field from the page the form is on.
import type { FastifyInstance } from 'fastify';

export interface PanelResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  location: string;
  setCookies: string[];
}

export function csrfOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('no CSRF field on the page');
  return match[1];
}

let visitors = 0;

export class Visitor {
  readonly cookies = new Map<string, string>();

  /** Each visitor is its own client machine (its own address), unless told to share one. */
  constructor(
    private readonly app: FastifyInstance,
    readonly address: string = `10.0.${Math.floor(++visitors / 250) % 250}.${(visitors % 250) + 1}`,
  ) {}

  private remember(headers: PanelResponse['headers']): string[] {
    const raw = headers['set-cookie'];
    const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const line of list) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return list;
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async get(url: string): Promise<PanelResponse> {
    const response = await this.app.inject({
      method: 'GET',
      url,
      remoteAddress: this.address,
      headers: { cookie: this.cookieHeader() },
    });
    const setCookies = this.remember(response.headers);
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      location: String(response.headers.location ?? ''),
      setCookies,
    };
  }

  /** POSTs a form as the browser would; `csrf` defaults to none (use `submit` for the page's token). */
  async post(
    url: string,
    form: Record<string, string | string[]>,
    extraHeaders: Record<string, string> = {},
  ): Promise<PanelResponse> {
    const body = new URLSearchParams();
    for (const [k, v] of Object.entries(form)) for (const item of Array.isArray(v) ? v : [v]) body.append(k, item);
    const response = await this.app.inject({
      method: 'POST',
      url,
      remoteAddress: this.address,
      headers: { cookie: this.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded', ...extraHeaders },
      payload: body.toString(),
    });
    const setCookies = this.remember(response.headers);
    return {
      status: response.statusCode,
      headers: response.headers,
      body: response.body,
      location: String(response.headers.location ?? ''),
      setCookies,
    };
  }

  /** Opens `pageUrl`, then posts `form` to `action` with that page's CSRF token. */
  async submit(
    pageUrl: string,
    action: string,
    form: Record<string, string | string[]>,
    extraHeaders: Record<string, string> = {},
  ): Promise<PanelResponse> {
    const page = await this.get(pageUrl);
    if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
    return this.post(action, { ...form, _csrf: csrfOf(page.body) }, extraHeaders);
  }

  /**
   * Signs up, then signs in as the new owner does (sign-up signs nobody in: its answer is the same
   * for a taken email). Answers the sign-up's response when it was refused, else the sign-in's.
   */
  async signUp(fields: { company: string; email: string; phone: string; password: string }): Promise<PanelResponse> {
    const signedUp = await this.submit('/panel/sign-up', '/panel/sign-up', fields);
    if (signedUp.status !== 303) return signedUp;
    return this.signIn(fields.email, fields.password);
  }

  async signIn(email: string, password: string): Promise<PanelResponse> {
    return this.submit('/panel/sign-in', '/panel/sign-in', { email, password });
  }

  /** Creates a key on /panel/keys and answers it, read from the page that shows it once. */
  async createKey(name: string, env: 'test' | 'live' = 'test'): Promise<string> {
    const created = await this.submit('/panel/keys', '/panel/keys', { name, env });
    const key = /id="new-key">([^<]+)</.exec(created.body)?.[1];
    if (key === undefined) throw new Error(`no new key on the keys page (status ${created.status})`);
    return key;
  }
}
