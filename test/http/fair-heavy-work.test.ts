// One tenant must not slow another (heavy work): a flood of 500-check prints that its client
// abandons after 0.3 s, and a flood of the largest images, against another tenant's one-check PDF
// and small signature, over real HTTP on a listening server with the real worker pool. The other
// tenant is answered 200, never 503, in about its idle time; the flooder gets 503 with Retry-After
// for its own excess; an abandoned print leaves the pool (dropped or stopped) and prints nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PiscinaHeavyWork } from '../../src/heavy-work/piscina-pool.ts';
import { stoppedBeforeHeavyWork } from '../../src/heavy-work/request-signal.ts';
import { signaturePng } from '../render/support/png.ts';
import { BASE, type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';
import { bombPng } from '../support/hostile-images.ts';
import { until } from '../support/until.ts';

/** The most checks one print names: the heaviest task a tenant can ask for. */
const MOST = 500;

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  // biome-ignore lint/suspicious/noExplicitAny: JSON read back in tests
  json: any;
}

async function newChecks(client: Client, basics: { bankAccountId: string; payeeId: string }, count: number) {
  const res = await client.post('/checks', {
    checks: Array.from({ length: count }, (_, i) => ({
      ...basics,
      amount: ((i % 900) + 1).toFixed(2),
      memo: 'October irrigation repairs',
    })),
  });
  expect(res.status).toBe(201);
  return res.body.data.checks.map((c: { checkId: string }) => c.checkId) as string[];
}

describe.each(dialects())('a fair share of heavy work per tenant (%s)', (dialect) => {
  let t: TestApp;
  let url: string;
  let flooder: Client;
  let other: Client;
  let floodIds: string[];
  let floodBank: string;
  let otherBank: string;
  let otherCheck: string;

  /** A real HTTP request; `abandonAfterMs` closes the connection then, answering null. */
  async function send(
    client: Client,
    method: string,
    path: string,
    body?: unknown,
    options: { abandonAfterMs?: number; type?: string } = {},
  ): Promise<Answer | null> {
    const controller = new AbortController();
    const timer =
      options.abandonAfterMs === undefined ? undefined : setTimeout(() => controller.abort(), options.abandonAfterMs);
    const began = performance.now();
    try {
      const res = await fetch(`${url}${BASE}${path}`, {
        method,
        signal: controller.signal,
        headers: {
          authorization: `Bearer ${client.key}`,
          ...(body === undefined ? {} : { 'content-type': options.type ?? 'application/json' }),
        },
        ...(body === undefined ? {} : { body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body) }),
      });
      const bytes = Buffer.from(await res.arrayBuffer());
      const json = res.headers.get('content-type')?.startsWith('application/json')
        ? JSON.parse(bytes.toString())
        : null;
      return { status: res.status, ms: performance.now() - began, retryAfter: res.headers.get('retry-after'), json };
    } catch (error) {
      if (controller.signal.aborted) return null;
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  const pool = (): PiscinaHeavyWork => t.heavyWork as PiscinaHeavyWork;
  const otherPdf = async (): Promise<Answer> => {
    const answer = await send(other, 'GET', `/checks/${otherCheck}/pdf`);
    if (answer === null) throw new Error('not abandoned');
    return answer;
  };
  /** The other tenant's one-check PDF with nothing else running: the same machine, the same run. */
  async function idlePdfMs(): Promise<number> {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const answer = await otherPdf();
      expect(answer.status).toBe(200);
      best = Math.min(best, answer.ms);
    }
    return best;
  }

  beforeAll(async () => {
    // Two threads and eight places: each tenant runs on one thread and waits in two places.
    t = await startTestApp(dialect, { HEAVY_WORK_THREADS: '2', HEAVY_WORK_QUEUE: '8' });
    url = await t.app.listen({ port: 0, host: '127.0.0.1' });
    flooder = await t.client('flooder@example.com');
    other = await t.client('bystander@example.com');
    const floodBasics = await seedBasics(flooder);
    floodBank = floodBasics.bankAccountId;
    floodIds = await newChecks(flooder, floodBasics, MOST);
    const otherBasics = await seedBasics(other);
    otherBank = otherBasics.bankAccountId;
    [otherCheck = ''] = await newChecks(other, otherBasics, 1);
  }, 120_000);
  afterAll(() => t.close());

  it("forty abandoned 500-check prints: the other tenant's PDF is 200 near its idle time, the prints leave the pool and print nothing", async () => {
    const idle = await idlePdfMs();
    const before = pool().counts;
    const early = stoppedBeforeHeavyWork();
    const flood = Array.from({ length: 40 }, () =>
      send(flooder, 'POST', '/checks/print', { checkIds: floodIds }, { abandonAfterMs: 300 }),
    );
    await new Promise((resolve) => setTimeout(resolve, 400));
    const during: Answer[] = [];
    for (let i = 0; i < 3; i++) during.push(await otherPdf());
    const answered = (await Promise.all(flood)).filter((a): a is Answer => a !== null);
    for (const answer of during) expect(answer.status, JSON.stringify(answer.json)).toBe(200);
    // Generously: a 500-check print takes seconds, and forty of them minutes, on this machine.
    const slowest = Math.max(...during.map((a) => a.ms));
    expect(slowest, `idle ${idle.toFixed(0)} ms`).toBeLessThan(3_000 + 10 * idle);
    // Every abandoned print leaves soon, and each is counted where it stopped: before its task
    // (the documents read for nobody), dropped from the pool's queue, or its thread stopped.
    const left = (): number => {
      const now = pool().counts;
      const inPool = now.dropped - before.dropped + now.stopped - before.stopped + now.refused - before.refused;
      return stoppedBeforeHeavyWork() - early + inPool;
    };
    // Settled: nothing running or waiting, and no abandoned request stopped for two seconds.
    let seen = -1;
    for (let quiet = 0; quiet < 40; ) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const { running, waiting } = pool().counts;
      quiet = running === 0 && waiting === 0 && left() === seen ? quiet + 1 : 0;
      seen = left();
    }
    expect(left(), JSON.stringify({ answered: answered.length, ...pool().counts })).toBeGreaterThanOrEqual(1);
    await until(async () => pool().counts.running === 0 && pool().counts.waiting === 0);
    // None answered but 503s (nothing finished within 0.3 s), and none printed a check.
    for (const answer of answered) expect(answer.status).toBe(503);
    const statuses = await t.database.db.all<{ status: number }>(
      'SELECT DISTINCT status FROM checks WHERE id IN (?, ?, ?)',
      [floodIds[0] ?? '', floodIds[250] ?? '', floodIds[499] ?? ''],
    );
    expect(statuses.map((row) => Number(row.status))).toEqual([0]);
  }, 120_000);

  it('the flooder is refused its own excess with 503 and Retry-After while the other tenant is served', async () => {
    // Six prints of checks of their own (the same checks twice would race for their status).
    const flood = Array.from({ length: 6 }, (_, i) =>
      send(flooder, 'POST', '/checks/print', { checkIds: floodIds.slice(i * 80, i * 80 + 80) }),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const mine = await otherPdf();
    const answers = (await Promise.all(flood)).filter((a): a is Answer => a !== null);
    expect(mine.status, JSON.stringify(mine.json)).toBe(200);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(answer.json).toEqual({ success: false, errorMsg: expect.stringMatching(/try again in \d+ s/) });
    }
    const other = answers.filter((a) => a.status !== 200 && a.status !== 503);
    expect(other.map((a) => `${a.status} ${JSON.stringify(a.json)}`)).toEqual([]);
  }, 120_000);

  it("two hundred 5000x5000 uploads by one tenant: the other's small signature is 200 near its idle time; the excess 503", async () => {
    const small = signaturePng();
    const upload = (client: Client, bank: string, png: Buffer) =>
      send(client, 'PUT', `/bankAccounts/${bank}/signature`, png, { type: 'image/png' });
    let idle = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const answer = await upload(other, otherBank, small);
      expect(answer?.status).toBe(200);
      idle = Math.min(idle, answer?.ms ?? idle);
    }
    const big = await bombPng(5000, 5000, 8, 6);
    const flood = Array.from({ length: 200 }, () => upload(flooder, floodBank, big));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const mine = await upload(other, otherBank, small);
    const answers = (await Promise.all(flood)).filter((a): a is Answer => a !== null);
    expect(mine?.status, JSON.stringify(mine?.json)).toBe(200);
    expect(mine?.ms, `idle ${idle.toFixed(0)} ms`).toBeLessThan(2_000 + 10 * idle);
    const refused = answers.filter((a) => a.status === 503);
    expect(refused.length).toBeGreaterThan(100);
    for (const answer of refused) expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(answers.every((a) => a.status === 200 || a.status === 503)).toBe(true);
  }, 120_000);
});
