// Heavy work in real server processes: while a 500-check print renders, /healthz polled every ~20
// ms answers every poll near the same machine's idle figure (healthzBound; before the pool it
// waited seconds; the absolute 50 ms target is the bench's); and the worker threads load both from
// the compiled dist/ and from the sources through tsx.
import { afterEach, describe, expect, it } from 'vitest';
import { healthzBound } from '../support/responsiveness.ts';
import { freshDatabaseConfig } from '../support/databases.ts';
import { dialects } from '../support/databases.ts';
import { requiredInCiElseSkipped } from '../support/optional-tool.ts';
import {
  createCheckOverHttp,
  createKeyWithCli,
  distIsCurrent,
  http,
  type ServerEntry,
  type ServerProcess,
  startServerProcess,
} from '../support/processes.ts';

const BANK = { name: 'Operating', bankName: 'First Test Bank', routingNumber: '011000015', accountNumber: '123456789' };
const PAYEE = { name: 'Harper & Lowe Irrigation Co.', email: 'ap@harper.test' };

/** dist/ when it is up to date (what bin/checkwriter.js would run), else the sources. */
const AS_RUN: ServerEntry = distIsCurrent() ? 'dist' : 'sources';

/** Milliseconds each GET /healthz took, one every ~20 ms, until `until` says stop. */
async function pollHealth(url: string, until: () => boolean): Promise<number[]> {
  const polls: number[] = [];
  while (!until()) {
    const sent = performance.now();
    // A failed poll counts as never answered, and ends the polling (the server is gone).
    const status = await fetch(`${url}/healthz`).then(
      async (res) => {
        await res.arrayBuffer();
        return res.status;
      },
      () => 0,
    );
    polls.push(status === 200 ? performance.now() - sent : Number.POSITIVE_INFINITY);
    if (status !== 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return polls;
}

/** Pages in a PDF, counted from its page objects (pdfkit writes them uncompressed). */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;
}

async function post(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

interface Running {
  server: ServerProcess;
  api: string;
  key: string;
  /** One check of a bank account and payee made over HTTP; more checks go to the same pair. */
  checkId: string;
  bankAccountId: string;
  payeeId: string;
}

const running: Array<{ server: ServerProcess; cleanup: () => Promise<void> }> = [];
afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.server.stop();
    await r.cleanup();
  }
});

async function start(
  dialect: 'sqlite' | 'postgres',
  env: Record<string, string>,
  entry: ServerEntry,
): Promise<Running> {
  const fresh = await freshDatabaseConfig(dialect);
  let server: ServerProcess;
  try {
    server = await startServerProcess({ ...fresh.env, ...env }, { entry });
  } catch (error) {
    await fresh.cleanup();
    throw error;
  }
  running.push({ server, cleanup: fresh.cleanup });
  const api = `${server.url}/api/v3`;
  const key = await createKeyWithCli('heavy@example.com', fresh.env);
  const checkId = await createCheckOverHttp(api, key, { bankAccount: BANK, payee: PAYEE, amount: 1234.56 });
  const check = await http(`${api}/checks/${checkId}`, { key });
  return {
    server,
    api,
    key,
    checkId,
    bankAccountId: check.body.data.bankAccount.bankAccountId,
    payeeId: check.body.data.payee.payeeId,
  };
}

/** The worker threads render: a one-check PDF of one page, and the bank account's MICR test page. */
async function expectOneCheckAndMicrPage(r: Running): Promise<void> {
  const headers = { authorization: `Bearer ${r.key}` };
  const one = await fetch(`${r.api}/checks/${r.checkId}/pdf`, { headers });
  expect(one.status).toBe(200);
  expect(pageCount(Buffer.from(await one.arrayBuffer()))).toBe(1);
  const page = await fetch(`${r.api}/bankAccounts/${r.bankAccountId}/micr-test.pdf`, { headers });
  expect(page.status).toBe(200);
}

async function newChecks(r: Running, count: number): Promise<string[]> {
  const res = await post(`${r.api}/checks`, r.key, {
    checks: Array.from({ length: count }, (_, i) => ({
      bankAccountId: r.bankAccountId,
      payeeId: r.payeeId,
      amount: (((i * 7919) % 500_000) / 100 + 1).toFixed(2),
      memo: 'October irrigation repairs',
      invoiceNumber: `INV-${i}`,
    })),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { checks: { checkId: string }[] } }).data.checks.map((c) => c.checkId);
}

describe.each(dialects())('heavy work in a server process (%s)', (dialect) => {
  it('while a 500-check print renders, /healthz polled every 20 ms answers every poll near its idle time', async () => {
    const r = await start(dialect, {}, AS_RUN);
    const ids = await newChecks(r, 500);
    // The route's first request compiles its schema (Ajv, on the main thread, once per process):
    // a one-check print first, so what is measured is the print's own work.
    const first = await post(`${r.api}/checks/print`, r.key, { checkIds: [r.checkId] });
    expect(first.status).toBe(200);
    const idleUntil = performance.now() + 2_000;
    const idle = await pollHealth(r.server.url, () => performance.now() > idleUntil);
    let printing = true;
    const polls = pollHealth(r.server.url, () => !printing);
    const started = performance.now();
    const printed = await post(`${r.api}/checks/print`, r.key, { checkIds: ids });
    const pdf = Buffer.from(await printed.arrayBuffer());
    const printMs = performance.now() - started;
    printing = false;
    const busy = await polls;
    expect(printed.status).toBe(200);
    expect(pageCount(pdf)).toBe(500);
    // The print took long enough for the polls to mean something.
    expect(busy.length).toBeGreaterThanOrEqual(5);
    const slowest = Math.max(...busy);
    expect(
      slowest,
      `slowest of ${busy.length} polls during a ${Math.round(printMs)} ms print: ${Math.round(slowest)} ms ` +
        `(idle, before it: slowest of ${idle.length} polls ${Math.round(Math.max(...idle))} ms)`,
    ).toBeLessThanOrEqual(healthzBound({ worstMs: Math.max(...idle) }));
  }, 180_000);

  it('run from the built dist/, its worker threads render, and stop a task at its heap cap', async (context) => {
    if (!requiredInCiElseSkipped(distIsCurrent(), 'an up-to-date dist/ (the build)', 'npm run build'))
      return context.skip();
    // A cap a one-check PDF fits under with room on every runtime (16 MB refused one check once on
    // Node 24), and a task that needs far more: a 4 MB CSV of 1,300,000 cells read into rows.
    const heapMb = 24;
    const r = await start(dialect, { HEAVY_WORK_HEAP_MB: String(heapMb) }, 'dist');
    await expectOneCheckAndMicrPage(r);
    // Only a task on a worker thread can be stopped: the main thread would have finished it.
    const letters = 'abcdefghijklmnopqrstuvwxyz';
    const cell = (n: number) => `${letters[n % 26]}${letters[Math.floor(n / 26) % 26]}`;
    const header = Array.from({ length: 130 }, (_, c) => `Column ${c}`).join(',');
    const rows = Array.from({ length: 10_000 }, (_, row) =>
      Array.from({ length: 130 }, (_, c) => cell(row * 131 + c)).join(','),
    );
    const csv = [header, ...rows].join('\n');
    expect(Buffer.byteLength(csv)).toBeLessThan(4 * 1024 * 1024);
    const stopped = await post(`${r.api}/imports`, r.key, { type: 'payees', csv, dryRun: true });
    expect(stopped.status).toBe(413);
    expect(await stopped.json()).toEqual({
      success: false,
      errorMsg: `Reading the CSV file needed more than ${heapMb} MB of memory, the most one task may use; split it into smaller files.`,
    });
    const again = await fetch(`${r.api}/checks/${r.checkId}/pdf`, { headers: { authorization: `Bearer ${r.key}` } });
    expect(again.status).toBe(200);
    expect(r.server.child.exitCode).toBeNull();
  }, 180_000);

  // From the sources, threads load tsx as well, and the heap a check needs moves with it by Node
  // (one check at 16 MB fitted on Node 20 in one CI run and not in the next; 500 fit in 20 MB
  // there): no cap both sides of a one-check PDF and a 500-check print holds on every runtime, so
  // this run is about the threads themselves — they start from the sources and render.
  it('run from the sources through tsx, its worker threads render a check, the MICR page and a 500-check print', async () => {
    const r = await start(dialect, {}, 'sources');
    await expectOneCheckAndMicrPage(r);
    const ids = await newChecks(r, 500);
    const printed = await post(`${r.api}/checks/print`, r.key, { checkIds: ids });
    expect(printed.status).toBe(200);
    expect(pageCount(Buffer.from(await printed.arrayBuffer()))).toBe(500);
    expect(r.server.child.exitCode).toBeNull();
  }, 180_000);
});
