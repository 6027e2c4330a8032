// Every answer of the API carries the spec's error shape, whatever produced it —
// the router (unknown route, over-long path id, malformed percent-encoding), the body parser
// (not JSON, wrong content type, too large, too deep), and Node's own HTTP parser (headers too
// large, a malformed request), where Node lets us answer at all.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { BASE, startTestApp, type Client, type TestApp } from '../support/app.ts';

const SHAPE = { success: false, errorMsg: expect.any(String) };

/** Raw bytes to the listening server; resolves with everything it answered before closing. */
function raw(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    socket.setTimeout(5_000, () => socket.destroy());
  });
}

function parseRaw(answer: string): { status: number; type: string; body: unknown } {
  const [head = '', body = ''] = answer.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const type = /content-type: ([^\r\n]+)/i.exec(head)?.[1] ?? '';
  return { status, type, body: JSON.parse(body) };
}

describe.each(dialects())('error shapes on %s', (dialect) => {
  let t: TestApp;
  let api: Client;
  let port = 0;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('shapes@example.com');
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    const address = t.app.server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(() => t.close());

  const inject = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: string,
    type?: string,
    key: string | null = api.key,
  ) =>
    t.app.inject({
      method,
      url,
      headers: {
        ...(key === null ? {} : { authorization: `Bearer ${key}` }),
        ...(type === undefined ? {} : { 'content-type': type }),
      },
      ...(payload === undefined ? {} : { payload }),
    });

  it('a path id over the router limit: 404 in the error shape (was Fastify 414)', async () => {
    for (const key of [api.key, null]) {
      const res = await inject('GET', `${BASE}/checks/${'a'.repeat(300)}`, undefined, undefined, key);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        success: false,
        errorMsg: 'Not found: an id in the path is longer than 200 characters.',
      });
    }
  });

  it('a path id of 101–200 characters is an ordinary unknown id', async () => {
    const res = await inject('GET', `${BASE}/checks/${'a'.repeat(150)}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, errorMsg: 'Check not found.' });
  });

  it('a malformed percent-encoding in the path: 400 in the error shape', async () => {
    const res = await inject('GET', `${BASE}/checks/%E0%A4%A`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(SHAPE);
  });

  it('an unknown route or method: 404 in the error shape, with or without a key', async () => {
    for (const [method, url] of [
      ['GET', `${BASE}/nope`],
      ['PATCH', `${BASE}/checks`],
      ['POST', '/nowhere'],
    ] as const) {
      for (const key of [api.key, null]) {
        const res = await inject(method, url, '{"a":1}', 'application/json', key);
        expect(res.statusCode, `${method} ${url}`).toBe(404);
        expect(res.json()).toEqual(SHAPE);
      }
    }
  });

  it('body parser errors: 400 / 413 in the error shape', async () => {
    const cases: [string, string | undefined, number][] = [
      ['{"checks": [', 'application/json', 400],
      ['{"checks": []}', 'text/plain', 400],
      ['{"checks": []}', 'application/xml', 400],
      ['{"checks": []}', undefined, 400],
      ['', 'application/json', 400],
      ['['.repeat(40) + ']'.repeat(40), 'application/json', 400],
      [JSON.stringify({ checks: [{ memo: 'x'.repeat(t.config.bodyLimitBytes) }] }), 'application/json', 413],
    ];
    for (const [payload, type, status] of cases) {
      const res = await inject('POST', `${BASE}/checks`, payload, type);
      expect(res.statusCode, `${type} ${payload.slice(0, 20)}`).toBe(status);
      expect(res.json()).toEqual(SHAPE);
    }
  });

  it('a body nested past the limit names the limit', async () => {
    const res = await inject(
      'POST',
      `${BASE}/checks`,
      `{"checks":[${'['.repeat(40)}${']'.repeat(40)}]}`,
      'application/json',
    );
    expect(res.json()).toEqual({
      success: false,
      errorMsg: 'The request body nests arrays and objects too deeply (at most 32 levels).',
    });
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await inject(
      'POST',
      `${BASE}/payees`,
      JSON.stringify({ payees: [{ name: `${'['.repeat(60)}"\\` }] }),
      'application/json',
    );
    expect(res.statusCode, res.body).toBe(201);
  });

  it("headers over Node's limit: 431 in the error shape, from a real socket", async () => {
    const answer = parseRaw(
      await raw(port, `GET ${BASE}/checks HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`),
    );
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ success: false, errorMsg: 'The request headers are too large.' });
  });

  it('a request Node cannot parse: 400 in the error shape, from a real socket', async () => {
    const answer = parseRaw(await raw(port, 'GARBAGE\r\n\r\n'));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(SHAPE);
  });
});
