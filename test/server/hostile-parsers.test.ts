// Every parser of untrusted input against the shapes that hurt parsers, on a
// real server process on both databases (docs/security.md, "Parsers of untrusted input"). Each
// row asserts a 4xx in the spec's shape (or the correct result), the server alive, /healthz
// answered within 100 ms throughout (probed every ~20 ms from a worker thread) and its memory
// bounded; shapes that take work in proportion to their size are sent at N and 2N and must take
// at most ~2.5 times as long at 2N. Rows for the CSV readers and the images are in
// hostile-parsers-csv.test.ts and hostile-parsers-images.test.ts.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { today } from '../../src/domain/dates.ts';
import { dialects } from '../support/databases.ts';
import { FORM_END, FORM_TYPE, FORMULA_NAMES, FORMULA_START, formPart } from '../support/hostile-inputs.ts';
import { type HostileServer, startHostileServer } from '../support/hostile-server.ts';
import { http, type ServerProcess } from '../support/processes.ts';
import { rawRequest } from '../support/raw-http.ts';
import {
  DOUBLING_RATIO,
  doubling,
  expectErrorShape,
  type HealthProbe,
  hostileRow,
  NOISE_FLOOR_MS,
} from '../support/responsiveness.ts';

const MiB = 1024 * 1024;
/** The default BODY_LIMIT_BYTES. */
const BODY_LIMIT = 2 * MiB;

interface Answer {
  status: number;
  text: string;
}

describe.each(dialects())('parsers of untrusted input on a server process (%s)', { timeout: 300_000 }, (dialect) => {
  let hostile: HostileServer;
  let server: ServerProcess;
  let probe: HealthProbe;
  let key = '';
  let api = '';
  let checkId = '';
  let bankAccountId = '';

  const send = async (
    path: string,
    init: { method?: string; body?: string | Buffer; type?: string; auth?: boolean; headers?: Record<string, string> },
  ): Promise<Answer> => {
    const response = await fetch(`${server.url}${path}`, {
      method: init.method ?? 'POST',
      headers: {
        ...(init.auth === false ? {} : { authorization: `Bearer ${key}` }),
        ...(init.type === undefined ? {} : { 'content-type': init.type }),
        ...init.headers,
      },
      ...(init.body === undefined
        ? {}
        : { body: typeof init.body === 'string' ? init.body : new Uint8Array(init.body) }),
      redirect: 'manual',
      signal: AbortSignal.timeout(60_000),
    }).catch((error: unknown) => {
      throw new Error(`fetch failed on ${path.slice(0, 80)}: ${String(error)}`);
    });
    return { status: response.status, text: await response.text() };
  };
  /**
   * A large body on a socket: the server may answer (413, 401) and close before the body is all
   * sent, and fetch then loses the answer; a socket keeps what came back.
   */
  const sendLarge = (path: string, body: Buffer, type: string, auth = true): Promise<Answer> =>
    rawRequest(
      server.url,
      [
        `POST ${path} HTTP/1.1`,
        'Host: x',
        ...(auth ? [`Authorization: Bearer ${key}`] : []),
        `Content-Type: ${type}`,
        `Content-Length: ${body.length}`,
        'Connection: close',
      ].join('\r\n'),
      body,
      { timeoutMs: 60_000, waitForEarlyAnswerMs: 300 },
    );
  const json = (path: string, body: string | Buffer): Promise<Answer> =>
    send(`/api/v3${path}`, { body, type: 'application/json' });
  /** A 4xx of the API in the spec's shape. */
  const refusedInShape = (answer: Answer, status?: number): void => {
    if (status !== undefined) expect(answer.status, answer.text.slice(0, 300)).toBe(status);
    expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(answer.status).toBeLessThan(500);
    expectErrorShape(answer.status, answer.text);
  };
  const linear = async (name: string, sendAt: (scale: 1 | 2) => Promise<unknown>): Promise<void> => {
    const d = await doubling(sendAt);
    console.log(
      `${name} (${dialect}): N ${d.smallMs.toFixed(0)} ms, 2N ${d.largeMs.toFixed(0)} ms, ratio ${d.ratio.toFixed(2)}${d.attempts > 1 ? ' (second attempt)' : ''}`,
    );
    expect(d.largeMs, `${name}: t(2N) against ${DOUBLING_RATIO} × t(N) + ${NOISE_FLOOR_MS} ms`).toBeLessThanOrEqual(
      DOUBLING_RATIO * d.smallMs + NOISE_FLOOR_MS,
    );
  };

  beforeAll(async () => {
    hostile = await startHostileServer(dialect, 'hostile-parsers@example.com', { probe: true });
    ({ server, key, api } = hostile);
    probe = hostile.probe as HealthProbe;
    bankAccountId = await hostile.bankAccount();
    const payees = await http(`${api}/payees`, {
      method: 'POST',
      key,
      body: { payees: FORMULA_NAMES.map((name) => ({ name })) },
    });
    const checks = await http(`${api}/checks`, {
      method: 'POST',
      key,
      body: {
        checks: payees.body.data.payees.map((p: { payeeId: string }, i: number) => ({
          bankAccountId,
          payeeId: p.payeeId,
          amount: 10 + i,
        })),
      },
    });
    expect(checks.status).toBe(201);
    const ids = checks.body.data.checks.map((c: { checkId: string }) => c.checkId);
    checkId = ids[0];
    const printed = await fetch(`${api}/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ checkIds: ids }),
    });
    expect(printed.status).toBe(200);
    await printed.arrayBuffer();
  }, 120_000);
  afterAll(async () => {
    await hostile?.close();
  });

  // ---- JSON bodies ----

  it('JSON: the deepest nesting the body limit allows is a 400, in linear time', async () => {
    const nested = (n: number): string => '['.repeat(n) + ']'.repeat(n);
    const worst = nested(BODY_LIMIT / 2 - 16);
    await hostileRow(server, probe, `deepest nesting, 2 MB (${dialect})`, async () => {
      const answer = await json('/checks', worst);
      refusedInShape(answer, 400);
      return answer.status;
    });
    const nestedAt = { 1: nested(250_000), 2: nested(500_000) };
    await linear('deepest nesting', (scale) => json('/checks', nestedAt[scale]));
  });

  it('JSON: the widest object and array are refused (400) before JSON.parse, in linear time', async () => {
    const wideObject = (n: number): string =>
      `{"payees":[{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}]}`;
    const wideArray = (n: number): string => `{"payees":[${'{"name":"x"},'.repeat(n)}{"name":"x"}]}`;
    await hostileRow(server, probe, `widest object, ~2 MB (${dialect})`, async () => {
      const answer = await json('/payees', wideObject(170_000));
      refusedInShape(answer, 400);
      expect(JSON.parse(answer.text).errorMsg).toContain('at most 1000 in one');
      return answer.status;
    });
    await hostileRow(server, probe, `widest array, ~2 MB (${dialect})`, async () => {
      const answer = await json('/payees', wideArray(160_000));
      refusedInShape(answer, 400);
      return answer.status;
    });
    // Bodies built before the clock starts: building them is the test's work, not the server's.
    const objects = { 1: wideObject(80_000), 2: wideObject(160_000) };
    const arrays = { 1: wideArray(75_000), 2: wideArray(150_000) };
    await linear('widest object', (scale) => json('/payees', objects[scale]));
    await linear('widest array', (scale) => json('/payees', arrays[scale]));
  });

  it('JSON: a string of 2 MB and a number of 2 MB of digits (400 before parsing), repeated and __proto__ keys, invalid UTF-8 and NULs', async () => {
    const long = (n: number): string => `{"payees":[{"name":"${'a'.repeat(n)}"}]}`;
    await hostileRow(server, probe, `a 2 MB string (${dialect})`, async () => {
      const answer = await json('/payees', long(BODY_LIMIT - 64));
      refusedInShape(answer, 400);
      expect(JSON.parse(answer.text).errorMsg).toContain('a string longer than 65,536 characters');
      return answer.status;
    });
    // Under the scan's bound, validation names the field.
    const named = await json('/payees', long(60_000));
    refusedInShape(named, 422);
    expect(JSON.parse(named.text).errorMsg).toContain('payees.0.name');
    const longAt = { 1: long(900_000), 2: long(1_800_000) };
    await linear('long string', (scale) => json('/payees', longAt[scale]));

    const digits = (n: number): string =>
      `{"checks":[{"bankAccountId":"${bankAccountId}","payeeId":"x","amount":1${'0'.repeat(n)}}]}`;
    await hostileRow(server, probe, `a number of 2 MB of digits (${dialect})`, async () => {
      const answer = await json('/checks', digits(BODY_LIMIT - 200));
      refusedInShape(answer, 400);
      expect(JSON.parse(answer.text).errorMsg).toContain('a number longer than 100 characters');
      return answer.status;
    });
    const digitsAt = { 1: digits(900_000), 2: digits(1_800_000) };
    await linear('huge number', (scale) => json('/checks', digitsAt[scale]));

    const repeated = (keyName: string, n: number): string =>
      `{"payees":[{${`"${keyName}":{"polluted":"yes"},`.repeat(n)}"name":"Repeated"}]}`;
    for (const keyName of ['name', '__proto__', 'constructor']) {
      await hostileRow(server, probe, `repeated "${keyName}" keys, ~2 MB (${dialect})`, async () => {
        const answer = await json('/payees', repeated(keyName, 60_000));
        refusedInShape(answer, 400);
        return answer.status;
      });
    }
    const repeatedAt = { 1: repeated('name', 30_000), 2: repeated('name', 60_000) };
    await linear('repeated keys', (scale) => json('/payees', repeatedAt[scale]));
    // Within the width limit: a __proto__ key, or a constructor.prototype, is refused by the JSON
    // parser itself (secure-json-parse, protoAction and constructorAction "error"): 400. Another
    // repeated key is read as JSON.parse reads it, the last one counting.
    refusedInShape(await json('/payees', repeated('__proto__', 900)), 400);
    refusedInShape(
      await json('/payees', `{"payees":[{"constructor":{"prototype":{"polluted":"yes"}},"name":"C"}]}`),
      400,
    );
    const few = await json('/payees', repeated('name', 900));
    expect(few.status, few.text).toBe(201);
    expect(JSON.parse(few.text).data.payees[0].name).toBe('Repeated');
    // No prototype was polluted: a plain payee is made and read back with exactly its own fields.
    const made = await http(`${api}/payees`, { method: 'POST', key, body: { payees: [{ name: 'After the storm' }] } });
    expect(made.status).toBe(201);
    const read = await http(`${api}/payees/${made.body.data.payees[0].payeeId}`, { key });
    expect(read.body.data.name).toBe('After the storm');
    expect(JSON.stringify(read.body)).not.toContain('polluted');

    // Invalid UTF-8 (a lone continuation byte, an overlong encoding, a surrogate) inside a string.
    const invalid = Buffer.concat([
      Buffer.from('{"payees":[{"name":"'),
      Buffer.from([0x80, 0xc0, 0xaf, 0xed, 0xa0, 0x80, 0xff]),
      Buffer.from('"}]}'),
    ]);
    const bad = await json('/payees', invalid);
    expect(bad.status, bad.text).toBeLessThan(500);
    if (bad.status < 300) {
      // Taken, then only as the replacement character U+FFFD (a valid payee name).
      expect(bad.status).toBe(201);
      const stored = await http(`${api}/payees/${JSON.parse(bad.text).data.payees[0].payeeId}`, { key });
      expect(stored.body.data.name).toMatch(/^\uFFFD+$/);
    } else refusedInShape(bad);
    await hostileRow(server, probe, `2 MB of invalid UTF-8 in a string (${dialect})`, async () => {
      const answer = await json(
        '/payees',
        Buffer.concat([Buffer.from('{"payees":[{"name":"'), Buffer.alloc(BODY_LIMIT - 64, 0xff), Buffer.from('"}]}')]),
      );
      refusedInShape(answer, 400);
      return answer.status;
    });
    // NULs: escaped in a string (422 naming the field), raw in the body (400: not JSON).
    const escaped = await json('/payees', '{"payees":[{"name":"a\\u0000b"}]}');
    refusedInShape(escaped, 422);
    expect(JSON.parse(escaped.text).errorMsg).toContain('payees.0.name');
    refusedInShape(await json('/payees', '{"payees":[{"name":"a\u0000b"}]}'), 400);
    await hostileRow(server, probe, `2 MB of escaped NULs (${dialect})`, async () => {
      const answer = await json('/payees', `{"payees":[{"name":"${'\\u0000'.repeat((BODY_LIMIT - 64) / 6)}"}]}`);
      refusedInShape(answer, 400);
      return answer.status;
    });
  });

  it('JSON: the largest body allowed is processed; one byte more is a 413; 8 MB is a 413 at once', async () => {
    const body = '{"payees":[{"name":"At the limit"}]}';
    const padded = body + ' '.repeat(BODY_LIMIT - body.length);
    await hostileRow(server, probe, `a body of exactly BODY_LIMIT_BYTES (${dialect})`, async () => {
      const answer = await json('/payees', padded);
      expect(answer.status, answer.text).toBe(201);
      return answer.status;
    });
    // On a socket: the server answers the 413 from the header and closes, and fetch can lose it (EPIPE).
    refusedInShape(await sendLarge('/api/v3/payees', Buffer.from(`${padded} `), 'application/json'), 413);
    await hostileRow(server, probe, `8 MB of nested brackets (${dialect})`, async () => {
      const answer = await sendLarge(
        '/api/v3/checks',
        Buffer.from('['.repeat(4 * MiB) + ']'.repeat(4 * MiB)),
        'application/json',
      );
      refusedInShape(answer, 413);
      return answer.status;
    });
    // A stranger's 8 MB gets the 401 (or the 413), never a parse.
    await hostileRow(server, probe, `8 MB without a key (${dialect})`, async () => {
      const answer = await sendLarge('/api/v3/checks', Buffer.from('['.repeat(8 * MiB)), 'application/json', false);
      expect([401, 413]).toContain(answer.status);
      return answer.status;
    });
  });

  // ---- Headers, query strings, path ids ----

  it('headers: 500 repeated headers, one oversized header, a huge bearer token, a cookie storm', async () => {
    const repeatedHead = ['GET /api/v3/payees HTTP/1.1', `Host: x`, `Authorization: Bearer ${key}`];
    for (let i = 0; i < 500; i += 1) repeatedHead.push('X-Repeated: a');
    await hostileRow(server, probe, `500 repeated headers (${dialect})`, async () => {
      const answer = await rawRequest(server.url, [...repeatedHead, 'Connection: close'].join('\r\n'));
      expect(answer.status).toBe(200);
      return answer.status;
    });
    await hostileRow(server, probe, `a 64 KB header (${dialect})`, async () => {
      const answer = await rawRequest(
        server.url,
        ['GET /api/v3/payees HTTP/1.1', 'Host: x', `X-Big: ${'a'.repeat(64 * 1024)}`, 'Connection: close'].join('\r\n'),
      );
      expect(answer.status).toBe(431);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    await hostileRow(server, probe, `a 15 KB bearer token (${dialect})`, async () => {
      const answer = await send('/api/v3/payees', {
        method: 'GET',
        auth: false,
        headers: { authorization: `Bearer cw_${'A'.repeat(15_000)}.${'B'.repeat(100)}` },
      });
      expect(answer.status).toBe(401);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    await hostileRow(server, probe, `1,200 cookies on a panel page (${dialect})`, async () => {
      const cookies = Array.from({ length: 1200 }, (_, i) => `c${i}=v`).join('; ');
      const answer = await send('/panel/sign-in', { method: 'GET', auth: false, headers: { cookie: cookies } });
      expect(answer.status).toBe(200);
      return answer.status;
    });
  });

  it('query strings: thousands of parameters and repeated paging values', async () => {
    const many = (n: number): string => Array.from({ length: n }, (_, i) => `p${i}=${i}`).join('&');
    await hostileRow(server, probe, `1,500 query parameters on GET /checks (${dialect})`, async () => {
      const answer = await send(`/api/v3/checks?${many(1_500)}`, { method: 'GET' });
      expect(answer.status).toBeLessThan(500);
      if (answer.status >= 400) expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    await hostileRow(server, probe, `perPage repeated 2,000 times (${dialect})`, async () => {
      const answer = await send(`/api/v3/checks?${'perPage=500&'.repeat(2_000)}page=1`, { method: 'GET' });
      expect(answer.status).toBeLessThan(500);
      if (answer.status >= 400) expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    await hostileRow(server, probe, `1,500 query parameters on a panel list (${dialect})`, async () => {
      // (On a socket: the answer, a redirect to sign-in, carries the 16 KB address back in its
      // Location header, more than fetch reads.)
      const answer = await rawRequest(
        server.url,
        [`GET /panel/checks?${many(1_500)} HTTP/1.1`, 'Host: x', 'Connection: close'].join('\r\n'),
      );
      expect(answer.status).toBeGreaterThan(0);
      expect(answer.status).toBeLessThan(500);
      return answer.status;
    });
    // Beyond Node's 16 KiB for the request line and headers: 431, in the spec's shape.
    const tooLong = await send(`/api/v3/checks?${many(3_000)}`, { method: 'GET' });
    expect(tooLong.status).toBe(431);
  });

  it('path ids: 10,000 characters, percent-encoded junk, invalid UTF-8', async () => {
    await hostileRow(server, probe, `a 10,000-character path id (${dialect})`, async () => {
      const answer = await send(`/api/v3/checks/${'a'.repeat(10_000)}`, { method: 'GET' });
      refusedInShape(answer, 404);
      return answer.status;
    });
    refusedInShape(await send(`/api/v3/checks/${'%ff%fe'.repeat(30)}`, { method: 'GET' }));
    refusedInShape(await send('/api/v3/checks/%', { method: 'GET' }), 400);
    refusedInShape(await send(`/api/v3/checks/${'%00'.repeat(60)}`, { method: 'GET' }));
  });

  // ---- Multipart ----

  it('multipart: many parts, a lying Content-Length, an unterminated boundary, 8 MB', async () => {
    const path = `/api/v3/checks/${checkId}/attachments`;
    const manyParts = (n: number): Buffer =>
      Buffer.concat([...Array.from({ length: n }, (_, i) => formPart(`f${i}`, 'x')), FORM_END]);
    await hostileRow(server, probe, `10,000 parts (${dialect})`, async () => {
      const answer = await send(path, { body: manyParts(10_000), type: FORM_TYPE });
      refusedInShape(answer);
      return answer.status;
    });
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
    const unterminated = Buffer.concat([
      formPart('file', pdf, { filename: 'a.pdf', type: 'application/pdf' }).subarray(0, -2),
    ]);
    await hostileRow(server, probe, `an unterminated boundary (${dialect})`, async () => {
      const answer = await send(path, { body: unterminated, type: FORM_TYPE });
      refusedInShape(answer, 400);
      return answer.status;
    });
    // Content-Length says 1 MB, 100 bytes come, then the client stops sending.
    await hostileRow(server, probe, `a Content-Length larger than the body (${dialect})`, async () => {
      const answer = await rawRequest(
        server.url,
        [
          `POST ${path} HTTP/1.1`,
          'Host: x',
          `Authorization: Bearer ${key}`,
          `Content-Type: ${FORM_TYPE}`,
          `Content-Length: ${MiB}`,
        ].join('\r\n'),
        manyParts(3).subarray(0, 100),
        { halfClose: true, timeoutMs: 5_000 },
      );
      // The server answers 400 or just closes the connection; it never waits for the rest.
      expect([0, 400]).toContain(answer.status);
      return answer.status;
    });
    // Content-Length says 10 bytes and 64 KB come: the rest is read as a next request (400).
    await hostileRow(server, probe, `a Content-Length smaller than the body (${dialect})`, async () => {
      const answer = await rawRequest(
        server.url,
        [
          `POST ${path} HTTP/1.1`,
          'Host: x',
          `Authorization: Bearer ${key}`,
          `Content-Type: ${FORM_TYPE}`,
          'Content-Length: 10',
        ].join('\r\n'),
        Buffer.alloc(64 * 1024, 0x61),
        { halfClose: true, timeoutMs: 5_000 },
      );
      expect(answer.status).toBeLessThan(500);
      return answer.status;
    });
    await hostileRow(server, probe, `an 8 MB attachment (${dialect})`, async () => {
      const body = Buffer.concat([
        formPart('file', Buffer.concat([pdf, Buffer.alloc(8 * MiB, 0x20)]), {
          filename: 'a.pdf',
          type: 'application/pdf',
        }),
        FORM_END,
      ]);
      const answer = await sendLarge(path, body, FORM_TYPE);
      refusedInShape(answer, 413);
      return answer.status;
    });
  });

  // ---- Form-encoded bodies (the panel) ----

  it('form bodies: 64 KB of fields, control characters, 8 MB', async () => {
    const fields = (n: number): string => Array.from({ length: n }, (_, i) => `f${i}=v`).join('&');
    await hostileRow(server, probe, `7,000 form fields on the sign-in form (${dialect})`, async () => {
      const answer = await send('/panel/sign-in', {
        auth: false,
        body: fields(7_000),
        type: 'application/x-www-form-urlencoded',
      });
      // Refused on a count of the raw text, before it is parsed (MAX_FORM_FIELDS).
      expect(answer.status).toBe(413);
      expect(answer.text).toContain('more than 2000 fields');
      return answer.status;
    });
    // Up to the bound, the form is read (and refused for its missing CSRF token).
    const within = await send('/panel/sign-in', {
      auth: false,
      body: fields(2_000),
      type: 'application/x-www-form-urlencoded',
    });
    expect(within.status).toBe(403);
    await hostileRow(server, probe, `8 MB form body (${dialect})`, async () => {
      const answer = await sendLarge(
        '/panel/sign-in',
        Buffer.from('a='.padEnd(8 * MiB, 'b')),
        'application/x-www-form-urlencoded',
        false,
      );
      expect(answer.status).toBe(413);
      return answer.status;
    });
  });

  // ---- Dates that make sense, and files that never run as formulas, over the real server ----

  it('a cleared date of 1900-01-01 on a check issued today is a 422 naming clearedDate; the check stays uncleared', async () => {
    await hostileRow(server, probe, `clear on 1900-01-01 (${dialect})`, async () => {
      const answer = await json(`/checks/${checkId}/clear`, JSON.stringify({ clearedDate: '1900-01-01' }));
      refusedInShape(answer, 422);
      expect(JSON.parse(answer.text).errorMsg).toContain('clearedDate');
      return answer.status;
    });
    const check = await http(`${api}/checks/${checkId}`, { key });
    expect(check.body.data.clearedDate).toBeNull();
  });

  it('payee names that are formulas reach the positive pay CSV as text', async () => {
    const day = today('UTC');
    const made = await hostileRow(server, probe, `positive pay with formula payees (${dialect})`, async () => {
      const answer = await json(
        '/positive-pay-exports',
        JSON.stringify({ bankAccountId, from: day, to: day, format: 'csv' }),
      );
      expect(answer.status).toBe(201);
      const rows = parse(JSON.parse(answer.text).data.file.content) as string[][];
      expect(rows).toHaveLength(1 + FORMULA_NAMES.length);
      for (const row of rows) for (const cell of row) expect(cell).not.toMatch(FORMULA_START);
      expect(
        rows
          .slice(1)
          .map((r) => r[4])
          .sort(),
      ).toEqual(FORMULA_NAMES.map((n) => `'${n}`).sort());
      return answer.status;
    });
    expect(made.status).toBe(201);
  });
});
