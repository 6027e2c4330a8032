// Property-based bad input over EVERY route of the OpenAPI document and every panel form: the
// sibling bad-input.property.test.ts aims deep at the write routes' fields; this one is wide.
// Routes are read from the app's own /api/v3/openapi.json and forms from the panel's own pages (a
// crawl from /panel), never listed by hand, so a new route or form is covered the day it is added.
//
// Per database, at least 10,000 generated requests. For each: never a 5xx; a 4xx of the API is in
// the spec's shape ({ message } for 401, { success: false, errorMsg } otherwise) and a panel 4xx
// is an HTML page; an unsafe method never succeeds. Over the whole run: no row of any table
// changes (every table hashed before and after), and /healthz keeps answering within a second.
//
// Why the health probe runs in-process: the generated requests go through Fastify's inject on the
// same event loop as the probe, so any request that holds the loop (a quadratic scan, a parser on
// a hostile body) delays the probe by exactly as long, as it would for a real client; a separate
// server process would add a TCP round trip to each of the 20,000 requests and halve what fits in
// the time budget. test/server/hostile-bodies.test.ts probes a real server process over TCP.
//
// What makes every generated request a certain refusal (so "no row changed" is an oracle, not a
// hope): a JSON body broken against its route's schema (wrong type, over-long, unknown field,
// missing field, a control character, nested too deep, not JSON, wrong content type); on unsafe
// methods, path ids that name nothing of this account; on panel forms, a control character in a
// field, a missing or foreign CSRF token, an over-long form, or a JSON body. GETs also get real ids
// and odd queries, and may answer 200.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { seedBasics, startTestApp, type Client, type TestApp } from '../support/app.ts';
import { Visitor } from '../support/panel-visitor.ts';
import { snapshotTables, type TableSnapshot } from '../support/table-snapshot.ts';

/** Generated requests per database: API routes and panel forms. */
const API_RUNS = 8_500;
const FORM_RUNS = 1_500;

type Schema = Record<string, unknown>;
type Json = unknown;

interface Operation {
  method: string;
  /** OpenAPI path template, relative to /api/v3. */
  path: string;
  pathParams: string[];
  query: { name: string; schema: Schema }[];
  /** The JSON body schema, when the route takes one. */
  body: Schema | null;
  /** Other content types the route declares (images, multipart). */
  consumes: string[];
}

interface Form {
  /** The page the form is on (its CSRF token comes from there). */
  page: string;
  action: string;
  fields: string[];
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

/** Characters the service refuses in text (src/domain/safe-text.ts). */
const CONTROL = fc.constantFrom(
  '\r\n',
  '\n',
  '\t',
  '\u0000',
  '\u001b',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u202e',
  '\u2066',
);

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ maxLength: 12, unit: 'grapheme' }),
  fc.constantFrom('', ' ', 'é', '😀', '0', '-1', '1e300', 'null', 'true', '..', '%00'),
);

function typesOf(schema: Schema): Set<string> {
  const types = new Set<string>();
  const type = schema.type;
  if (typeof type === 'string') types.add(type === 'integer' ? 'number' : type);
  if (Array.isArray(type)) for (const t of type) types.add(String(t) === 'integer' ? 'number' : String(t));
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const s of list as Schema[]) for (const t of typesOf(s)) types.add(t);
  }
  if ('const' in schema || 'enum' in schema) types.add('const');
  return types;
}

/**
 * A JSON value that is none of the schema's types. `null` counts as a type of every optional field:
 * an optional field sent as null means "not given" (docs/api-notes.md).
 */
function wrongTypeFor(schema: Schema, optional: boolean): fc.Arbitrary<Json> {
  const accepted = typesOf(schema);
  if (optional) accepted.add('null');
  const candidates: [string, fc.Arbitrary<Json>][] = [
    ['object', fc.constant({ nested: [1] })],
    ['array', fc.constant([1, 'a'])],
    ['boolean', fc.boolean()],
    ['number', fc.oneof(fc.integer(), fc.constant(1e300), fc.constant(-0.5))],
    // "" on an optional field that cannot hold it means "not given": not a breakage.
    ['string', optional ? text.filter((t) => t !== '') : text],
    ['null', fc.constant(null)],
  ];
  const wrong = candidates.filter(([type]) => !accepted.has(type) && !(type === 'string' && accepted.has('const')));
  if (wrong.length === 0) return fc.constant({ nested: [1] });
  return fc.oneof(...wrong.map(([, arb]) => arb));
}

/** A value roughly of the schema's shape (not necessarily valid: the breakage is added elsewhere). */
function roughly(schema: Schema, depth = 0): fc.Arbitrary<Json> {
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (anyOf !== undefined && anyOf.length > 0) return fc.oneof(...anyOf.map((s) => roughly(s, depth)));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as Json[]));
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? String(schema.type[0]) : String(schema.type ?? 'string');
  if (depth > 4) return fc.constant(null);
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const required = (schema.required ?? []) as string[];
      const entries = Object.keys(properties);
      if (entries.length === 0) return fc.constant({});
      return fc.record(Object.fromEntries(entries.map((k) => [k, roughly(properties[k] as Schema, depth + 1)])), {
        requiredKeys: required.filter((k) => entries.includes(k)),
      });
    }
    case 'array':
      return fc.array(roughly((schema.items ?? {}) as Schema, depth + 1), { minLength: 1, maxLength: 2 });
    case 'number':
    case 'integer':
      return fc.integer({ min: 0, max: 1000 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.string({ minLength: 1, maxLength: Math.min(20, Number(schema.maxLength ?? 20)) });
  }
}

/** Every (path, sub-schema) of object properties reachable through objects and arrays. */
function fieldsOf(
  schema: Schema,
  path: (string | number)[] = [],
  out: { path: (string | number)[]; schema: Schema; parent: Schema }[] = [],
): typeof out {
  if (path.length > 6) return out;
  const type = schema.type;
  if (type === 'object') {
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    for (const [key, sub] of Object.entries(properties)) {
      out.push({ path: [...path, key], schema: sub, parent: schema });
      fieldsOf(sub, [...path, key], out);
    }
  } else if (type === 'array' && schema.items !== undefined) fieldsOf(schema.items as Schema, [...path, 0], out);
  return out;
}

/** Puts `value` at `path` inside `root`, making the containers on the way. */
function setAt(root: Json, path: (string | number)[], value: Json): Json {
  if (path.length === 0) return value;
  const [head, ...rest] = path;
  if (typeof head === 'number') {
    const list = Array.isArray(root) && root.length > 0 ? [...root] : [{}];
    list[0] = setAt(list[0], rest, value);
    return list;
  }
  const object =
    typeof root === 'object' && root !== null && !Array.isArray(root) ? { ...(root as Record<string, Json>) } : {};
  object[head as string] = setAt(object[head as string], rest, value);
  return object;
}

function removeAt(root: Json, path: (string | number)[]): Json {
  if (path.length === 0) return root;
  const [head, ...rest] = path;
  if (typeof head === 'number')
    return Array.isArray(root) && root.length > 0 ? [removeAt(root[0], rest), ...root.slice(1)] : root;
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return root;
  const object = { ...(root as Record<string, Json>) };
  if (rest.length === 0) delete object[head as string];
  else object[head as string] = removeAt(object[head as string], rest);
  return object;
}

/** A body the route's schema (or the body scan before it) must refuse: [payload text, content type]. */
function brokenBody(schema: Schema): fc.Arbitrary<[string, string | null]> {
  const json = (value: Json): [string, string | null] => [JSON.stringify(value), 'application/json'];
  const base = roughly(schema);
  const fields = fieldsOf(schema);
  const strategies: fc.Arbitrary<[string, string | null]>[] = [
    // A control character somewhere: refused by the scan whatever the schema.
    fc.tuple(base, CONTROL, text, fc.nat()).map(([value, c, t, n]) => {
      const strings = fields.filter((f) => typesOf(f.schema).has('string'));
      const target = strings[n % Math.max(1, strings.length)];
      return json(target === undefined ? { [`x${c}`]: t } : setAt(value, target.path, `${t}${c}${t}`));
    }),
    // Nested past the limit (33..200 levels), at the root or inside a field.
    fc.tuple(fc.integer({ min: 33, max: 200 }), fc.boolean()).map(([depth, inside]): [string, string | null] => {
      const deep = '['.repeat(depth) + ']'.repeat(depth);
      return [inside ? `{"x":${deep}}` : deep, 'application/json'];
    }),
    // Not JSON.
    fc
      .constantFrom('{', '{"a":}', "{'a':1}", '[1,]', 'nul', '{"a":1}}', '\u0000')
      .map((t): [string, string | null] => [t, 'application/json']),
    // A JSON body under another content type, or none.
    fc
      .tuple(
        base,
        fc.constantFrom<string | null>(
          null,
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'text/json',
        ),
      )
      .map(([value, type]) => [JSON.stringify(value), type]),
    // Not an object at all.
    fc.constantFrom<Json>(null, 1, 'text', [], [{}], true).map(json),
  ];
  if (fields.length > 0) {
    // One field of the wrong type.
    strategies.push(
      fc.tuple(base, fc.nat()).chain(([value, n]) => {
        const field = fields[n % fields.length] as (typeof fields)[number];
        const optional = !((field.parent.required ?? []) as string[]).includes(String(field.path.at(-1)));
        return wrongTypeFor(field.schema, optional).map((bad) => json(setAt(value, field.path, bad)));
      }),
    );
    const limited = fields.filter((f) => typeof f.schema.maxLength === 'number');
    if (limited.length > 0) {
      strategies.push(
        fc.tuple(base, fc.nat(), fc.integer({ min: 1, max: 50 })).map(([value, n, extra]) => {
          const field = limited[n % limited.length] as (typeof limited)[number];
          return json(setAt(value, field.path, 'x'.repeat(Number(field.schema.maxLength) + extra)));
        }),
      );
    }
    const closed = fields.filter((f) => f.parent.additionalProperties === false);
    if (closed.length > 0) {
      strategies.push(
        fc
          .tuple(base, fc.nat(), fc.constantFrom('unknownField', 'Name', 'id', 'constructor2', 'amount_', 'é'))
          .map(([value, n, key]) => {
            const field = closed[n % closed.length] as (typeof closed)[number];
            return json(setAt(value, [...field.path.slice(0, -1), key], 1));
          }),
      );
    }
    const required = fields.filter((f) => ((f.parent.required ?? []) as string[]).includes(String(f.path.at(-1))));
    if (required.length > 0) {
      strategies.push(
        fc.tuple(base, fc.nat()).map(([value, n]) => {
          const field = required[n % required.length] as (typeof required)[number];
          return json(removeAt(value, field.path));
        }),
      );
    }
  }
  return fc.oneof(...strategies);
}

function parseDocument(doc: { paths: Record<string, Record<string, Record<string, unknown>>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const parameters = (op.parameters ?? []) as { in: string; name: string; schema?: Schema }[];
      const content = ((op.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content ??
        {}) as Record<string, { schema?: Schema }>;
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema ?? {} })),
        body: content['application/json']?.schema ?? null,
        consumes: Object.keys(content).filter((t) => t !== 'application/json'),
      });
    }
  }
  return operations;
}

/** Forms on the panel's pages, found by following the panel's own links from /panel. */
async function crawlForms(visitor: Visitor, starts: string[]): Promise<Form[]> {
  const seen = new Set<string>();
  const queue = [...starts];
  const forms = new Map<string, Form>();
  while (queue.length > 0 && seen.size < 60) {
    const url = queue.shift() as string;
    if (seen.has(url)) continue;
    seen.add(url);
    const res = await visitor.get(url);
    if (res.status !== 200 || !String(res.headers['content-type']).startsWith('text/html')) continue;
    for (const match of res.body.matchAll(/href="(\/panel[^"#]*)"/g)) {
      const link = (match[1] ?? '').replace(/&amp;/g, '&');
      // Signing out would end the crawl's session; PDFs and assets are not pages.
      if (!link.includes('sign-out') && !link.endsWith('.pdf') && !link.includes('/pdf') && !seen.has(link))
        queue.push(link);
    }
    for (const match of res.body.matchAll(/<form[^>]*method="post"[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/g)) {
      const action = (match[1] ?? '').replace(/&amp;/g, '&');
      const fields = [...(match[2] ?? '').matchAll(/name="([^"]+)"/g)].map((m) => m[1] ?? '').filter((n) => n !== '');
      const key = action.replace(/\/[a-z]+_[0-9A-Z]{10,}/g, '/:id');
      if (!forms.has(key) && action !== '/panel/sign-out')
        forms.set(key, { page: url, action, fields: [...new Set(fields)] });
    }
  }
  return [...forms.values()];
}

describe.each(dialects())('bad input on every route and form (%s)', (dialect) => {
  let t: TestApp;
  let api: Client;
  let operations: Operation[];
  let forms: Form[];
  let panel: Visitor;
  /** Ids of the key's own account (used on safe methods only), of another account, and of nothing. */
  const ownIds: string[] = [];
  const foreignIds: string[] = [];
  let before: TableSnapshot;
  const tally = { requests: 0, fiveXX: 0, byStatus: new Map<number, number>() };
  let probe: { stop: () => Promise<{ probes: number; slowest: number }> };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    api = await t.client('wide@example.com');
    const other = await t.client('other-wide@example.com');
    for (const [client, pool] of [
      [api, ownIds],
      [other, foreignIds],
    ] as const) {
      const basics = await seedBasics(client);
      const check = await client.post('/checks', { checks: [{ ...basics, amount: 12.34, memo: 'seed' }] });
      const webhook = await client.post('/webhooks', { url: 'https://example.com/hook' });
      pool.push(
        basics.bankAccountId,
        basics.payeeId,
        check.body.data?.checks?.[0]?.checkId ?? '',
        webhook.body.data?.webhookId ?? webhook.body.data?.id ?? '',
      );
    }
    const doc = await t.app.inject({ method: 'GET', url: '/api/v3/openapi.json' });
    operations = parseDocument(doc.json());

    panel = new Visitor(t.app, '192.0.2.200');
    const signedUp = await panel.signUp({
      company: 'Wide Forms',
      email: 'forms@example.com',
      phone: '+14155550123',
      password: 'a long enough password',
    });
    if (signedUp.status !== 303) throw new Error(`panel sign-up: ${signedUp.status}`);
    await panel.submit('/panel/keys', '/panel/keys', { name: 'crawl', env: 'test' });
    forms = [
      ...(await crawlForms(panel, ['/panel'])),
      ...(await crawlForms(new Visitor(t.app, '192.0.2.201'), [
        '/panel/sign-in',
        '/panel/sign-up',
        '/panel/forgot-password',
      ])),
    ];

    before = await snapshotTables(t.database.db);
    probe = startHealthProbe(t);
  }, 120_000);

  afterAll(async () => {
    console.log(
      `bad input on every route and form (${dialect}): ${tally.requests} requests, ${tally.fiveXX} answered 5xx; statuses ${JSON.stringify(Object.fromEntries([...tally.byStatus].sort(([a], [b]) => a - b)))}`,
    );
    await t.close();
  });

  function count(status: number): void {
    tally.requests++;
    if (status >= 500) tally.fiveXX++;
    tally.byStatus.set(status, (tally.byStatus.get(status) ?? 0) + 1);
  }

  it('derives the routes from the OpenAPI document and the forms from the panel', () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
    expect(operations.some((o) => o.method === 'POST' && o.path === '/checks')).toBe(true);
    expect(forms.length).toBeGreaterThanOrEqual(8);
    expect(forms.map((f) => f.action)).toEqual(
      expect.arrayContaining(['/panel/sign-in', '/panel/sign-up', '/panel/keys']),
    );
  });

  it(`API: ${API_RUNS} generated requests over every route — never a 5xx, 4xx in the spec's shape, unsafe methods never succeed`, async () => {
    const nothing = fc.oneof(
      fc.constantFrom(
        'x',
        'chk_00000000000000000000000000',
        'pay_0',
        '%00',
        'a%0Ab',
        '%E2%80%AE',
        '..%2F..',
        ' ',
        '-1',
        '1e300',
        'null',
        'a'.repeat(150),
        'a'.repeat(250),
      ),
      fc.string({ minLength: 1, maxLength: 30 }).map(encodeURIComponent),
      fc.constantFrom(...foreignIds.filter((id) => id !== '')),
    );
    const any = fc.oneof(
      { weight: 3, arbitrary: nothing },
      { weight: 1, arbitrary: fc.constantFrom(...ownIds.filter((id) => id !== '')) },
    );
    const queryValue = fc.oneof(
      text.map(encodeURIComponent),
      fc.constantFrom(
        '0',
        '-1',
        '1e300',
        '99999999999999999999',
        '',
        '%00',
        'a%0Ab',
        '1.5',
        'NaN',
        'printed',
        'PRINTED',
      ),
    );
    const request = fc.constantFrom(...operations).chain((op) =>
      fc.record({
        op: fc.constant(op),
        ids: fc.array(UNSAFE.has(op.method) ? nothing : any, {
          minLength: op.pathParams.length,
          maxLength: op.pathParams.length,
        }),
        query: fc.array(
          fc.tuple(fc.constantFrom(...op.query.map((q) => q.name), 'unknown', 'page', 'perPage'), queryValue),
          { maxLength: 3 },
        ),
        body:
          op.body !== null
            ? brokenBody(op.body).map((b) => b as [string, string | null] | null)
            : fc.option(
                fc.tuple(
                  fc.constantFrom('junk', '{}', '\u0000\u0001'),
                  fc.constantFrom<string | null>(
                    'application/json',
                    'image/png',
                    'multipart/form-data; boundary=x',
                    'text/plain',
                    null,
                  ),
                ),
                { nil: null },
              ),
        auth: fc.constantFrom('key', 'key', 'key', 'key', 'key', 'key', 'key', 'none', 'bad', 'basic'),
      }),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ op, ids, query, body, auth }) => {
        let path = op.path;
        op.pathParams.forEach((name, i) => {
          path = path.replace(`{${name}}`, ids[i] ?? 'x');
        });
        const search = query.map(([k, v]) => `${k}=${v}`).join('&');
        const url = `/api/v3${path}${search === '' ? '' : `?${search}`}`;
        const authorization =
          auth === 'key'
            ? `Bearer ${api.key}`
            : auth === 'bad'
              ? 'Bearer not.a.key'
              : auth === 'basic'
                ? 'Basic dXNlcjpwYXNz'
                : undefined;
        const res = await t.app.inject({
          method: op.method as 'GET',
          url,
          headers: {
            ...(authorization === undefined ? {} : { authorization }),
            ...(body?.[1] == null ? {} : { 'content-type': body[1] }),
          },
          ...(body === null ? {} : { payload: body[0] }),
        });
        count(res.statusCode);
        const label = `${op.method} ${url} [${auth}] ${body?.[1] ?? ''} ${String(body?.[0] ?? '').slice(0, 120)} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, label).toBeLessThan(500);
        // A dry run of an import (POST /imports with dryRun true) answers its preview, row errors
        // included, with 200 and writes nothing (the table comparison below holds it to that).
        const dryRun = op.path === '/imports' && /"dryRun"\s*:\s*true/.test(String(body?.[0] ?? ''));
        if (UNSAFE.has(op.method) && !dryRun) expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
        if (res.statusCode >= 400) {
          expect(String(res.headers['content-type']), label).toMatch(/^application\/json/);
          const parsed: unknown = JSON.parse(res.body);
          if (res.statusCode === 401) expect(parsed, label).toEqual({ message: 'Unauthenticated.' });
          else expect(parsed, label).toEqual({ success: false, errorMsg: expect.stringMatching(/\S/) });
        }
      }),
      { numRuns: API_RUNS },
    );
  }, 300_000);

  it(`panel: ${FORM_RUNS} generated form posts over every form — never a 5xx, a 4xx page, nothing written`, async () => {
    const tokens = new Map<string, string>();
    const anonymous = new Visitor(t.app, '192.0.2.202');
    const visitorFor = (form: Form): Visitor =>
      ['/panel/sign-in', '/panel/sign-up', '/panel/forgot-password'].includes(form.page) ? anonymous : panel;
    for (const form of forms) {
      const page = await visitorFor(form).get(form.page);
      tokens.set(form.page, /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '');
    }
    const post = fc.record({
      form: fc.constantFrom(...forms),
      values: fc.array(text, { minLength: 8, maxLength: 8 }),
      breakage: fc.constantFrom('control', 'control', 'control', 'no-csrf', 'wrong-csrf', 'too-long', 'json'),
      control: CONTROL,
      at: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(post, async ({ form, values, breakage, control, at }) => {
        const visitor = visitorFor(form);
        const fields: Record<string, string> = {};
        for (const [i, name] of form.fields.entries()) {
          fields[name] = name === '_csrf' ? (tokens.get(form.page) ?? '') : (values[i % values.length] ?? '');
        }
        if (breakage === 'control') {
          // Passwords may hold anything but NUL; every other field refuses the character.
          const targets = form.fields.filter((n) => !/password/i.test(n));
          const target = targets[at % Math.max(1, targets.length)] ?? '_csrf';
          fields[target] = `${fields[target] ?? ''}${control}`;
        }
        if (breakage === 'no-csrf') delete fields._csrf;
        if (breakage === 'wrong-csrf') fields._csrf = 'forged-token';
        if (breakage === 'too-long') fields[form.fields[0] ?? 'x'] = 'x'.repeat(70_000);
        let res: { status: number; headers: Record<string, unknown>; body: string };
        if (breakage === 'json') {
          const injected = await t.app.inject({
            method: 'POST',
            url: form.action,
            remoteAddress: visitor.address,
            headers: {
              cookie: [...visitor.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
              'content-type': 'application/json',
            },
            payload: JSON.stringify(fields),
          });
          res = { status: injected.statusCode, headers: injected.headers, body: injected.body };
        } else res = await visitor.post(form.action, fields);
        count(res.status);
        const label = `${breakage} ${form.action} ${JSON.stringify(fields).slice(0, 200)} -> ${res.status}`;
        expect(res.status, label).toBeGreaterThanOrEqual(400);
        expect(res.status, label).toBeLessThan(500);
        expect(String(res.headers['content-type']), label).toMatch(/^text\/html/);
      }),
      { numRuns: FORM_RUNS },
    );
  }, 300_000);

  it('changed no row of any table, and /healthz answered within 1 s throughout', async () => {
    const { probes, slowest } = await probe.stop();
    console.log(`bad input (${dialect}): /healthz probed ${probes} times, slowest ${Math.round(slowest)} ms`);
    expect(await snapshotTables(t.database.db)).toEqual(before);
    expect(tally.requests).toBeGreaterThanOrEqual(API_RUNS + FORM_RUNS);
    expect(tally.fiveXX).toBe(0);
    expect(probes).toBeGreaterThan(10);
    expect(slowest).toBeLessThan(1_000);
  });
});

/** Asks /healthz every 50 ms on the same event loop as the generated requests; reports the slowest answer. */
function startHealthProbe(t: TestApp): { stop: () => Promise<{ probes: number; slowest: number }> } {
  let running = true;
  let probes = 0;
  let slowest = 0;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      const res = await t.app.inject({ method: 'GET', url: '/healthz' });
      if (res.statusCode !== 200) throw new Error(`/healthz answered ${res.statusCode}`);
      slowest = Math.max(slowest, performance.now() - started);
      probes++;
      // A request that holds the loop while the probe sleeps shows as a late wake-up.
      const sleeping = performance.now();
      await new Promise((r) => setTimeout(r, 50));
      slowest = Math.max(slowest, performance.now() - sleeping - 50);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return { probes, slowest };
    },
  };
}
