// A browser stand-in for a real server process (over TCP, not Fastify's inject): keeps cookies,
// fills a form's CSRF field from the page it is on, and posts forms and files as a browser does.
import { csrfOf } from './panel-visitor.ts';
import { FORM_END, FORM_TYPE, formPart } from './hostile-inputs.ts';

export interface HttpAnswer {
  status: number;
  text: string;
  location: string;
}

export class HttpVisitor {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  private remember(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1);
      if (value === '' || /Max-Age=0/i.test(line)) this.cookies.delete(pair.slice(0, eq));
      else this.cookies.set(pair.slice(0, eq), value);
    }
  }

  private async send(path: string, init: { method: string; body?: Uint8Array<ArrayBuffer> | string; type?: string }) {
    const response = await fetch(`${this.base}${path}`, {
      method: init.method,
      headers: {
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(init.type === undefined ? {} : { 'content-type': init.type }),
      },
      ...(init.body === undefined ? {} : { body: init.body }),
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    });
    this.remember(response);
    return { status: response.status, text: await response.text(), location: response.headers.get('location') ?? '' };
  }

  get(path: string): Promise<HttpAnswer> {
    return this.send(path, { method: 'GET' });
  }

  /** Opens `page`, then posts `form` to `action` with that page's CSRF token. */
  async submit(page: string, action: string, form: Record<string, string>): Promise<HttpAnswer> {
    const opened = await this.get(page);
    const body = new URLSearchParams({ ...form, _csrf: csrfOf(opened.text) }).toString();
    return this.send(action, { method: 'POST', body, type: 'application/x-www-form-urlencoded' });
  }

  /** The CSRF token of `page`, opening it as a browser does. */
  async csrf(page: string): Promise<string> {
    return csrfOf((await this.get(page)).text);
  }

  /** Posts `fields` and one file to `action` as multipart/form-data, with a CSRF token already read. */
  postFile(
    action: string,
    csrf: string,
    fields: Record<string, string>,
    file: { name: string; type: string; bytes: Buffer },
  ): Promise<HttpAnswer> {
    const parts = Object.entries({ ...fields, _csrf: csrf }).map(([k, v]) => formPart(k, v));
    const body = Buffer.concat([
      ...parts,
      formPart('file', file.bytes, { filename: file.name, type: file.type }),
      FORM_END,
    ]);
    return this.send(action, { method: 'POST', body: new Uint8Array(body), type: FORM_TYPE });
  }

  /** Opens `page`, then posts `fields` and one file to `action` as multipart/form-data. */
  async upload(
    page: string,
    action: string,
    fields: Record<string, string>,
    file: { name: string; type: string; bytes: Buffer },
  ): Promise<HttpAnswer> {
    return this.postFile(action, await this.csrf(page), fields, file);
  }

  /** Signs up and in, as a new owner does. */
  async signUp(email: string, password = 'correct horse battery'): Promise<void> {
    const up = await this.submit('/panel/sign-up', '/panel/sign-up', {
      company: 'Hostile Co',
      email,
      phone: '+14155552671',
      password,
    });
    if (up.status !== 303) throw new Error(`sign-up answered ${up.status}`);
    const inside = await this.submit('/panel/sign-in', '/panel/sign-in', { email, password });
    if (inside.status !== 303) throw new Error(`sign-in answered ${inside.status}`);
  }
}
