// Form-encoded bodies (docs/security.md, "Form-encoded bodies"): a real server process gets
// pathological application/x-www-form-urlencoded bodies on an API route with a valid key while
// /healthz is probed. Each must be refused with a 4xx in the spec's error shape, naming the bound
// it broke, and no probe may wait a second. Nothing may be written. The bounds are measured on the
// raw text before `qs` parses it, with keys split as `qs` splits them: the shapes that once held
// the event loop inside `qs.parse` (the deepest, widest and most keys in 2 MB) must leave /healthz
// as fast as it is when idle; every spelling of `__proto__` that `qs` reads is refused; a field
// given twice is refused, never "the last one wins".
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { type HostileServer, startHostileServer } from '../support/hostile-server.ts';
import { http, type ServerProcess } from '../support/processes.ts';
import { rawRequest } from '../support/raw-http.ts';
import { type HealthProbe, healthzBound } from '../support/responsiveness.ts';

const many = (count: number, part: (i: number) => string) => Array.from({ length: count }, (_, i) => part(i)).join('&');

/** The shapes of the finding, each about 2 MB: 19,999 keys each 31 brackets deep, 19,999 names, 19,999 keys of one list. */
const FREEZERS: { name: string; body: string; status: number; says: RegExp }[] = [
  {
    name: 'deepest: 19,999 keys k0[0][0]… 31 brackets deep',
    body: many(19_999, (i) => `k${i}${'[0]'.repeat(31)}=1`),
    status: 413,
    says: /too many brackets in its form field names \(at most 10,000 in all\)/,
  },
  {
    name: 'widest: 19,999 names in one object',
    body: many(19_999, (i) => `k${i}${'_'.repeat(90)}=1`),
    status: 400,
    says: /too many members \(at most 1000 in one\)/,
  },
  {
    name: 'most keys: payees[0..499][k0..k39]',
    body: many(19_999, (i) => `payees[${i % 500}][k${Math.floor(i / 500)}${'_'.repeat(70)}]=1`),
    status: 413,
    says: /too many brackets/,
  },
];

/** Each body, the status it must get, and a piece of the message. */
const HOSTILE: { name: string; body: string; status: number; says: RegExp }[] = [
  {
    name: 'deep brackets a[a][a]… (10,000 levels)',
    body: `a${'[a]'.repeat(10_000)}=1`,
    status: 400,
    says: /too deeply \(at most 32 levels\)/,
  },
  {
    name: 'deep brackets inside a real field',
    body: `payees[0]${'[x]'.repeat(40)}=1`,
    status: 400,
    says: /too deeply/,
  },
  { name: 'deep numeric brackets', body: `payees${'[0]'.repeat(500)}=1`, status: 400, says: /too deeply/ },
  {
    name: '100,000 parameters',
    body: many(100_000, (i) => `k${i}=1`),
    status: 413,
    says: /too many form fields \(at most 20000\)/,
  },
  { name: 'a[] × 100,000', body: many(100_000, () => 'a[]=1'), status: 413, says: /too many form fields/ },
  {
    name: 'payees[0..600][name]',
    body: many(601, (i) => `payees[${i}][name]=P${i}`),
    status: 422,
    says: /more than 500 items/,
  },
  { name: 'a[] × 600', body: many(600, () => 'a[]=1'), status: 422, says: /more than 500 items/ },
  { name: 'sparse index a[999999999]', body: 'payees[999999999][name]=x', status: 422, says: /more than 500 items/ },
  {
    name: '__proto__ key',
    body: 'payees[0][name]=x&__proto__[polluted]=1',
    status: 400,
    says: /__proto__ is not allowed/,
  },
  {
    name: 'constructor[prototype] key',
    body: 'constructor[prototype][polluted]=1&payees[0][name]=x',
    status: 400,
    says: /constructor is not allowed/,
  },
  {
    name: 'encoded __proto__',
    body: 'payees[0][%5F%5Fproto%5F%5F][x]=1',
    status: 400,
    says: /__proto__ is not allowed/,
  },
  // Every spelling of a prototype key that qs reads as one (qs would silently drop the parameter).
  ...[
    'x=[__proto__][polluted]=1',
    '[__proto__][polluted]=1',
    'payees[0][__proto__][polluted]=1',
    'payees%5B0%5D%5B__proto__%5D%5Bpolluted%5D=1',
    'payees[0]%5B%5F%5Fproto%5F%5F%5D=1',
    '%5F%5Fproto%5F%5F[polluted]=1',
    'x=%5B__proto__%5D=1',
  ].map((spelling) => ({
    name: `__proto__ spelled ${spelling}`,
    body: `payees[0][name]=x&${spelling}`,
    status: 400,
    says: /the form field __proto__ is not allowed/,
  })),
  {
    name: 'constructor[prototype] inside a field',
    body: 'payees[0][name]=x&payees[0][constructor][prototype][polluted]=1',
    status: 400,
    says: /constructor is not allowed/,
  },
  { name: 'toString key', body: 'payees[0][name]=x&toString=1', status: 400, says: /toString is not allowed/ },
  // Without allowDots a dot is part of the name: an unknown field, refused by the schema.
  {
    name: 'dotted __proto__ (no allowDots)',
    body: 'payees[0][name]=x&a.__proto__=1',
    status: 422,
    says: /The a\.__proto__ field is not allowed/,
  },
  {
    name: 'a scalar given twice',
    body: 'payees[0][name]=First&payees[0][name]=Second',
    status: 422,
    says: /^The payees\.0\.name field is given more than once\.$/,
  },
  {
    name: 'a scalar given twice, once percent-encoded',
    body: 'payees[0][name]=First&payees%5B0%5D%5Bn%61me%5D=Second',
    status: 422,
    says: /^The payees\.0\.name field is given more than once\.$/,
  },
  {
    name: 'a scalar given twice, once as [payees]',
    body: 'payees[0][name]=First&[payees][0][name]=Second',
    status: 422,
    says: /^The payees\.0\.name field is given more than once\.$/,
  },
  {
    name: '1,001 members in one object',
    body: many(1_001, (i) => `payees[0][k${i}]=1`),
    status: 400,
    says: /too many members \(at most 1000 in one\)/,
  },
  {
    name: '10,001 brackets in all',
    body: many(5_001, (i) => `payees[${i % 500}][k${Math.floor(i / 500)}]=1`),
    status: 413,
    says: /too many brackets/,
  },
  {
    name: 'huge value (1.5 MB name)',
    body: `payees[0][name]=${'x'.repeat(1_500_000)}`,
    status: 422,
    says: /must not be greater than 100 characters/,
  },
  {
    name: 'over the body limit (3 MB)',
    body: `payees[0][name]=${'x'.repeat(3_000_000)}`,
    status: 413,
    says: /too large/,
  },
  {
    name: 'invalid percent-encoding in a value',
    body: 'payees[0][name]=%E0%A4%A',
    status: 400,
    says: /percent-encoding/,
  },
  { name: 'invalid percent-encoding in a key', body: 'payees[0][na%ZZme]=x', status: 400, says: /percent-encoding/ },
  {
    name: 'a NUL in a value',
    body: 'payees[0][name]=a%00b',
    status: 422,
    says: /payees\.0\.name field must not contain NUL/,
  },
  { name: 'a line break in a value', body: 'payees[0][name]=a%0D%0Ab', status: 422, says: /control characters/ },
];

describe.each(dialects())('hostile form bodies against a server process on %s', (dialect) => {
  let hostile: HostileServer;
  let server: ServerProcess;
  let key = '';
  let probe: HealthProbe;
  // On a socket rather than fetch: a body refused part-way (413, too many fields) is answered and the
  // connection closed while the client still writes, and fetch then fails with EPIPE and loses the
  // answer; the socket keeps what came back.
  const form = async (path: string, body: string) => {
    const bytes = Buffer.from(body);
    const { status, text } = await rawRequest(
      server.url,
      [
        `POST /api/v3${path} HTTP/1.1`,
        'Host: x',
        `Authorization: Bearer ${key}`,
        'Content-Type: application/x-www-form-urlencoded',
        `Content-Length: ${bytes.length}`,
        'Connection: close',
      ].join('\r\n'),
      bytes,
      // A body over the limit is refused from its Content-Length: wait for that answer, as a client
      // sending `Expect: 100-continue` would, before writing into a socket the server closes.
      { timeoutMs: 60_000, ...(bytes.length > 1024 * 1024 ? { waitForEarlyAnswerMs: 300 } : {}) },
    );
    return { status, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };

  beforeAll(async () => {
    hostile = await startHostileServer(dialect, 'hostile-forms@example.com', { probe: true });
    ({ server, key } = hostile);
    probe = hostile.probe as HealthProbe;
  }, 60_000);
  afterAll(async () => {
    await hostile?.close();
  });

  it('refuses each with its 4xx in the error shape while /healthz answers near its idle time; nothing is written', async () => {
    const idle = await probe.idle();
    await probe.reset();
    const answers: { name: string; status: number; text: string; ms: number; want: number; says: RegExp }[] = [];
    for (const h of HOSTILE) {
      const started = performance.now();
      const { status, text } = await form('/payees', h.body);
      answers.push({
        name: h.name,
        status,
        text,
        ms: performance.now() - started,
        want: h.status,
        says: h.says,
      });
    }
    const during = await probe.read();
    for (const a of answers) {
      expect(a.status, `${a.name}: ${a.text.slice(0, 200)}`).toBe(a.want);
      const body = JSON.parse(a.text) as { success: boolean; errorMsg: string };
      expect(body, a.name).toEqual({ success: false, errorMsg: expect.stringMatching(a.says) });
    }
    const listed = await fetch(`${server.url}/api/v3/payees`, { headers: { authorization: `Bearer ${key}` } });
    expect(((await listed.json()) as { data: { meta: { total: number } } }).data.meta.total).toBe(0);
    const slowestRequest = answers.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(
      `hostile form bodies (${dialect}): ${answers.length} requests, slowest ${slowestRequest.name} ${Math.round(slowestRequest.ms)} ms; /healthz probed ${during.probes} times, slowest ${Math.round(during.worstMs)} ms (idle ${Math.round(idle.worstMs)} ms)`,
    );
    expect(during.probes).toBeGreaterThan(0);
    expect(during.failures).toBe(0);
    expect(during.worstMs, `slowest /healthz (idle ${Math.round(idle.worstMs)} ms)`).toBeLessThanOrEqual(
      healthzBound(idle),
    );
  }, 120_000);

  it('the deepest, widest and most-keys bodies are refused before qs runs: /healthz as fast as when idle', async () => {
    // The same machine's figure in the same run: /healthz probed from a worker thread, idle.
    await probe.reset();
    await new Promise((r) => setTimeout(r, 1_500));
    const idle = await probe.read();
    await probe.reset();
    const started = performance.now();
    // Four connections at once, each sending every shape twice.
    const answers = (
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          const seen: { name: string; status: number; text: string; want: number; says: RegExp }[] = [];
          for (let round = 0; round < 2; round++)
            for (const f of FREEZERS) {
              const { status, text } = await form('/payees', f.body);
              seen.push({ name: f.name, status, text, want: f.status, says: f.says });
            }
          return seen;
        }),
      )
    ).flat();
    const ms = performance.now() - started;
    await new Promise((r) => setTimeout(r, 60));
    const during = await probe.read();
    for (const a of answers) {
      expect(a.status, `${a.name}: ${a.text.slice(0, 200)}`).toBe(a.want);
      expect(JSON.parse(a.text), a.name).toEqual({ success: false, errorMsg: expect.stringMatching(a.says) });
    }
    console.log(
      `freezing form bodies (${dialect}): ${answers.length} requests of ~2 MB in ${Math.round(ms)} ms; /healthz idle worst ${Math.round(idle.worstMs)} ms (${idle.probes} probes), during worst ${Math.round(during.worstMs)} ms p99 ${Math.round(during.p99Ms)} ms (${during.probes} probes)`,
    );
    expect(during.failures).toBe(0);
    // Generous: a busy two-core machine stalls any process now and then, and reading 8 MB from four
    // sockets costs something. Before the scan, qs held the event loop for ~1 s per deepest body,
    // and /healthz waited that long each time.
    expect(during.worstMs, `during ${Math.round(during.worstMs)} ms, idle ${Math.round(idle.worstMs)} ms`).toBeLessThan(
      4 * idle.worstMs + 500,
    );
  }, 120_000);

  it('a scalar given twice writes nothing; lists as PHP and qs clients write them still work', async () => {
    const bankAccountId = await hostile.bankAccount();
    const payees = await form('/payees', 'payees[0][name]=Ann&payees[1][name]=Bob');
    expect(payees.status, payees.text).toBe(201);
    const [ann, bob] = (payees.json().data as { payees: { payeeId: string }[] }).payees.map((p) => p.payeeId);
    const twice = await form(
      '/checks',
      `checks[0][bankAccountId]=${bankAccountId}&checks[0][payeeId]=${ann}&checks[0][amount]=1.00&checks[0][amount]=99999999.99`,
    );
    expect(twice.status, twice.text).toBe(422);
    expect(twice.json()).toEqual({
      success: false,
      errorMsg: 'The checks.0.amount field is given more than once.',
    });
    const none = await http(`${server.url}/api/v3/checks`, { key });
    expect(none.body.data.meta.total).toBe(0);
    // The same with the key spelled two ways (qs would merge them into a list, refused as no amount).
    const spelled = await form(
      '/checks',
      `checks[0][bankAccountId]=${bankAccountId}&checks[0][payeeId]=${ann}&checks[0][amount]=1.00&checks%5B0%5D%5Bamount%5D=99999999.99`,
    );
    expect(spelled.status, spelled.text).toBe(422);
    // Indexed items: two checks.
    const made = await form(
      '/checks',
      `checks[0][bankAccountId]=${bankAccountId}&checks[0][payeeId]=${ann}&checks[0][amount]=1.00&checks[1][bankAccountId]=${bankAccountId}&checks[1][payeeId]=${bob}&checks[1][amount]=2.00`,
    );
    expect(made.status, made.text).toBe(201);
    const ids = (made.json().data as { checks: { checkId: string; amount: string }[] }).checks;
    expect(ids.map((c) => c.amount)).toEqual(['1.00', '2.00']);
    // A list of scalars appended with []: both checks are printed.
    const print = await fetch(`${server.url}/api/v3/checks/print`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: ids.map((c) => `checkIds[]=${c.checkId}`).join('&'),
    });
    const printed = Buffer.from(await print.arrayBuffer());
    expect(print.status, printed.toString('utf8', 0, 200)).toBe(200);
    expect(printed.subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});
