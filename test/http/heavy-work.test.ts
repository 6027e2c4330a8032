// Heavy work through the app as it runs in the server: the real worker pool (test/support/app.ts)
// renders the PDFs and writes the positive pay files. A task past its deadline or its heap cap is
// stopped and answered in the spec's shape, nothing is written, and the next request is served; a
// full pool answers 503 with Retry-After. What the pool renders is what the main thread renders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InlineHeavyWork } from '../../src/heavy-work/inline.ts';
import { PiscinaHeavyWork } from '../../src/heavy-work/piscina-pool.ts';
import type { ServiceContext } from '../../src/services/context.ts';
import { readFileOrRefuse } from '../../src/services/imports/preview.service.ts';
import * as printService from '../../src/services/checks/print.service.ts';
import { pageText, parsePdf } from '../render/support/pdf.ts';
import { signaturePng } from '../render/support/png.ts';
import { BASE, type Client, seedBasics, startTestApp, type TestApp } from '../support/app.ts';
import { dialects } from '../support/databases.ts';

/** The heap cap of the heap-cap tests: a one-check PDF fits under it on Node 20, 22 and 24. */
const HEAP_MB = 24;

/** The most checks one print names (MAX_BATCH): the heaviest task a tenant can ask for. */
const MOST = 500;

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  bytes: Buffer;
  // biome-ignore lint/suspicious/noExplicitAny: JSON read back in tests, walked freely by the assertions
  json: any;
}

async function call(t: TestApp, client: Client, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> {
  const res = await t.app.inject({
    method,
    url: `${BASE}${path}`,
    headers: {
      authorization: `Bearer ${client.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
  const json = res.headers['content-type']?.toString().startsWith('application/json') ? JSON.parse(res.body) : null;
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, json };
}

/** `count` new checks with a voucher each, made in one batch; answers their ids. */
async function newChecks(client: Client, basics: { bankAccountId: string; payeeId: string }, count: number) {
  const res = await client.post('/checks', {
    checks: Array.from({ length: count }, (_, i) => ({
      ...basics,
      amount: (((i * 7919) % 500_000) / 100 + 1).toFixed(2),
      memo: 'October irrigation repairs',
      invoiceNumber: `INV-${i}`,
    })),
  });
  expect(res.status).toBe(201);
  return res.body.data.checks.map((c: { checkId: string }) => c.checkId) as string[];
}

/** Status of each check (0: new), read through the API. */
async function statuses(client: Client, ids: readonly string[]): Promise<number[]> {
  const out: number[] = [];
  for (const id of ids.slice(0, 5)) out.push((await client.get(`/checks/${id}`)).body.data.status);
  return out;
}

describe.each(dialects())('heavy work in the worker pool (%s)', (dialect) => {
  describe('what the pool renders', () => {
    let t: TestApp;
    let api: Client;
    let basics: { bankAccountId: string; payeeId: string };

    beforeAll(async () => {
      t = await startTestApp(dialect);
      api = await t.client('pool@example.com', { env: 'live' });
      basics = await seedBasics(api, { address1: '88 Riverside Drive', city: 'Peoria', state: 'IL', zip: '61602' });
      const signature = await t.app.inject({
        method: 'PUT',
        url: `${BASE}/bankAccounts/${basics.bankAccountId}/signature`,
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'image/png' },
        payload: signaturePng(),
      });
      expect(signature.statusCode).toBe(200);
    });
    afterAll(() => t.close());

    it('runs in worker threads: the app was given the pool, not the main thread', () => {
      expect(t.heavyWork).toBeInstanceOf(PiscinaHeavyWork);
    });

    it('a PDF from the pool is byte for byte the one the main thread renders, and reads back the same', async () => {
      const [first, second] = await newChecks(api, basics, 2);
      const principal = await t.principal('pool@example.com', 'live');
      const at = Date.parse('2026-11-20T15:00:00Z');
      const pooled: ServiceContext = t.serviceContext(() => at);
      const inline: ServiceContext = { ...pooled, heavyWork: new InlineHeavyWork() };
      for (const id of [first ?? '', second ?? '']) {
        const fromPool = await printService.checkPdf(pooled, principal, id);
        const fromMain = await printService.checkPdf(inline, principal, id);
        expect(Buffer.isBuffer(fromPool.pdf)).toBe(true);
        expect(fromPool.pdf.equals(fromMain.pdf)).toBe(true);
        const [poolPage] = await parsePdf(fromPool.pdf);
        const [mainPage] = await parsePdf(fromMain.pdf);
        if (poolPage === undefined || mainPage === undefined) throw new Error('no page');
        expect(pageText(poolPage)).toContain('Acme Supplies');
        expect(pageText(poolPage)).toBe(pageText(mainPage));
        // The signature crossed to the thread and back into the PDF.
        expect(poolPage.images.length).toBeGreaterThanOrEqual(1);
        expect(poolPage.images).toEqual(mainPage.images);
      }
      const page = await printService.micrTestPage(pooled, principal, basics.bankAccountId);
      const mainPage = await printService.micrTestPage(inline, principal, basics.bankAccountId);
      expect(page.equals(mainPage)).toBe(true);
      expect(pageText((await parsePdf(page))[0] ?? { width: 0, height: 0, texts: [], paths: [], images: [] })).toMatch(
        /MICR/,
      );
    });

    it('a print over HTTP comes back from the pool as one PDF with every check, each printed', async () => {
      const ids = await newChecks(api, basics, 30);
      const res = await call(t, api, 'POST', '/checks/print', { checkIds: ids });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/pdf');
      const pages = await parsePdf(res.bytes);
      expect(pages).toHaveLength(30);
      expect(await statuses(api, ids)).toEqual([1, 1, 1, 1, 1]);
    });

    it('a renderer refusal in the thread is still a 422 naming the check, nothing printed', async () => {
      const ids = await newChecks(api, basics, 2);
      // A stored routing number that fails its checksum (the API would refuse it): the renderer's own check.
      await t.database.db.run('UPDATE bank_accounts SET routing_number = ? WHERE id = ?', [
        '011000016',
        basics.bankAccountId,
      ]);
      try {
        const res = await call(t, api, 'POST', '/checks/print', { checkIds: ids });
        expect(res.status).toBe(422);
        expect(res.json).toEqual({
          success: false,
          errorMsg: expect.stringMatching(/^The check in checkIds\.0 cannot/),
        });
        expect(await statuses(api, ids)).toEqual([0, 0]);
      } finally {
        await t.database.db.run('UPDATE bank_accounts SET routing_number = ? WHERE id = ?', [
          '011000015',
          basics.bankAccountId,
        ]);
      }
    });

    it('an import file and a cleared-items file read in the pool read as on the main thread', async () => {
      const pooled: ServiceContext = t.serviceContext();
      const inline: ServiceContext = { ...pooled, heavyWork: new InlineHeavyWork() };
      const owner = await t.principal('pool@example.com', 'live');
      const csv = [
        'Payee,Amount,Date,Memo',
        'Acme Supplies,"1,234.56",2026-11-02,October repairs',
        'Blue Harbor Freight,99.00,2026-11-03,',
        'Nobody,not money,2026-13-40,bad row',
      ].join('\r\n');
      const options = { kind: 'checks' as const, csv, bankAccountId: basics.bankAccountId };
      const fromPool = await readFileOrRefuse(pooled, owner, options);
      expect(fromPool.lines).toHaveLength(3);
      expect(fromPool).toEqual(await readFileOrRefuse(inline, owner, options));
      // A refusal crosses as a value and is the same 422.
      const bad = { kind: 'checks' as const, csv: 'only a header\r\n' };
      await expect(readFileOrRefuse(pooled, owner, bad)).rejects.toMatchObject({ code: 'validation' });
      const cleared = {
        text: 'Check Number,Amount,Paid Date\r\n1001,1234.56,2026-11-05\r\n',
        fallbackDate: '2026-11-06',
        today: '2026-11-20',
      };
      const items = await pooled.heavyWork.run('read-cleared-items', cleared, { owner });
      expect(items.ok).toBe(true);
      expect(items).toEqual(await inline.heavyWork.run('read-cleared-items', cleared, { owner }));
    });

    it('a positive pay file written in the pool is recorded with its digest and size', async () => {
      const today = new Date().toISOString().slice(0, 10);
      const res = await api.post('/positive-pay-exports', {
        bankAccountId: basics.bankAccountId,
        from: today,
        to: today,
        format: 'fixed',
      });
      expect(res.status).toBe(201);
      const { file, positivePayExport } = res.body.data;
      const { createHash } = await import('node:crypto');
      expect(positivePayExport.fileSha256).toBe(createHash('sha256').update(file.content, 'utf8').digest('hex'));
      expect(positivePayExport.fileBytes).toBe(Buffer.byteLength(file.content));
      expect(file.content.split('\r\n').filter((l: string) => l !== '')).toHaveLength(positivePayExport.issuedCount);
    });
  });

  describe('a task past its deadline', () => {
    let t: TestApp;
    let api: Client;
    let basics: { bankAccountId: string; payeeId: string };

    // 500 checks take over a second to draw anywhere; 200 ms is far below it.
    beforeAll(async () => {
      t = await startTestApp(dialect, { HEAVY_WORK_DEADLINE_MS: '200' });
      api = await t.client('deadline@example.com');
      basics = await seedBasics(api);
    });
    afterAll(() => t.close());

    it('is stopped and answered 422 in the spec shape; nothing is printed and the next request is served', async () => {
      const ids = await newChecks(api, basics, MOST);
      const res = await call(t, api, 'POST', '/checks/print', { checkIds: ids });
      expect(res.status).toBe(422);
      expect(res.json).toEqual({
        success: false,
        errorMsg: 'Rendering the PDF took longer than 0.2 s, the most one task may run; print fewer checks at a time.',
      });
      expect(await statuses(api, ids)).toEqual([0, 0, 0, 0, 0]);
      // The server serves on: a read, and heavy work again on a new thread.
      expect((await api.get(`/checks/${ids[0]}`)).status).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      const today = new Date().toISOString().slice(0, 10);
      const file = await api.post('/positive-pay-exports', {
        bankAccountId: basics.bankAccountId,
        from: today,
        to: today,
        format: 'csv',
      });
      expect(file.status).toBe(201);
    });
  });

  describe('a task past its heap cap', () => {
    let t: TestApp;
    let api: Client;
    let basics: { bankAccountId: string; payeeId: string };

    // A cap a one-check PDF fits under on every runtime (Node 22 and 24 need 20 MB for one check
    // with tsx loaded, Node 20 up to 16), and a CSV of 4 MB in 400,000 distinct cells does not: read
    // into rows, its strings alone take more. (A 500-check print is no such task: it renders in
    // about 4 MB more than one check, so no cap split the two on every runtime.)
    beforeAll(async () => {
      t = await startTestApp(dialect, { HEAVY_WORK_HEAP_MB: String(HEAP_MB) });
      api = await t.client('heap@example.com');
      basics = await seedBasics(api);
    });
    afterAll(() => t.close());

    it('is stopped and answered 413 in the spec shape; nothing is imported, the process lives and serves on', async () => {
      const columns = 40;
      const header = Array.from({ length: columns }, (_, c) => `Column ${c}`).join(',');
      const rows = Array.from({ length: 10_000 }, (_, r) =>
        Array.from({ length: columns }, (_, c) => `r${r}c${c}`.padEnd(9, 'x')).join(','),
      );
      const csv = [header, ...rows].join('\n');
      expect(Buffer.byteLength(csv)).toBeLessThan(4 * 1024 * 1024);
      const res = await call(t, api, 'POST', '/imports', { type: 'payees', csv, dryRun: true });
      expect(res.status).toBe(413);
      expect(res.json).toEqual({
        success: false,
        errorMsg: `Reading the CSV file needed more than ${HEAP_MB} MB of memory, the most one task may use; split it into smaller files.`,
      });
      const payees = await api.get('/payees');
      expect(payees.body.data.payees).toHaveLength(1);
      // A new thread replaced the one stopped: a one-check PDF renders.
      const [id] = await newChecks(api, basics, 1);
      const one = await call(t, api, 'GET', `/checks/${id}/pdf`);
      expect(one.status).toBe(200);
      expect(await parsePdf(one.bytes)).toHaveLength(1);
    });
  });

  describe('a full pool', () => {
    let t: TestApp;
    let api: Client;
    let basics: { bankAccountId: string; payeeId: string };

    // One thread, no queue: while one print renders, the next heavy task has nowhere to wait.
    beforeAll(async () => {
      t = await startTestApp(dialect, { HEAVY_WORK_THREADS: '1', HEAVY_WORK_QUEUE: '0' });
      api = await t.client('full@example.com');
      basics = await seedBasics(api);
    });
    afterAll(() => t.close());

    it('answers 503 with Retry-After in the spec shape, and serves the same request once the pool is free', async () => {
      const pool = t.heavyWork;
      if (!(pool instanceof PiscinaHeavyWork)) throw new Error('the test app runs the pool');
      const ids = await newChecks(api, basics, MOST);
      const [single] = await newChecks(api, basics, 1);
      const big = call(t, api, 'POST', '/checks/print', { checkIds: ids });
      // The print reads its checks first; once its task is in the pool, the pool is full.
      const deadline = Date.now() + 20_000;
      while (pool.inFlight === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      expect(pool.inFlight).toBe(1);
      const refused = await call(t, api, 'GET', `/checks/${single}/pdf`);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.json).toEqual({
        success: false,
        errorMsg: expect.stringMatching(
          /^Rendering the PDF has to wait: the server is busy with other heavy work; try again in \d+ s\.$/,
        ),
      });
      expect((await big).status).toBe(200);
      expect((await call(t, api, 'GET', `/checks/${single}/pdf`)).status).toBe(200);
    });
  });
});
