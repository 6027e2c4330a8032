// Issue 22, item 4: the CSV rows of the parser table (docs/security.md) with the table's own
// assertions — /healthz within 100 ms throughout (probed from a worker thread), memory bounded,
// time linear in the size (N vs 2N), and an 8 MB upload of the worst shape refused — on a real
// server process, both databases. The readers are csv-parse (domain/csv.ts, domain/cleared-items.ts);
// test/server/hostile-csv.test.ts holds the exact messages of each refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { HttpVisitor } from '../support/http-visitor.ts';
import { createKeyWithCli, http, startServerProcess, type ServerProcess } from '../support/processes.ts';
import { rawRequest } from '../support/raw-http.ts';
import {
  DOUBLING_RATIO,
  doubling,
  expectErrorShape,
  HealthProbe,
  hostileRow,
  NOISE_FLOOR_MS,
} from '../support/responsiveness.ts';

const MiB = 1024 * 1024;

interface Answer {
  status: number;
  text: string;
}

describe.each(dialects())('CSV parsers on a server process (%s)', { timeout: 300_000 }, (dialect) => {
  let server: ServerProcess;
  let probe: HealthProbe;
  let cleanup: () => Promise<void>;
  let key = '';
  let bankAccountId = '';
  let panel: HttpVisitor;

  const post = async (path: string, body: string, type: string): Promise<Answer> => {
    const response = await fetch(`${server.url}/api/v3${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': type },
      body,
      signal: AbortSignal.timeout(120_000),
    });
    return { status: response.status, text: await response.text() };
  };
  const dryRun = (csv: string): Promise<Answer> =>
    post('/imports', JSON.stringify({ type: 'payees', csv, dryRun: true }), 'application/json');
  const clearedItems = (csv: string): Promise<Answer> =>
    post(`/bankAccounts/${bankAccountId}/clearedItems`, csv, 'text/csv');
  /** An 8 MB body on a socket, waiting for an answer to its headers first (see raw-http.ts). */
  const large = (path: string, type: string, body: Buffer, headers: string[] = []): Promise<Answer> =>
    rawRequest(
      server.url,
      [
        `POST ${path} HTTP/1.1`,
        'Host: x',
        ...headers,
        `Content-Type: ${type}`,
        `Content-Length: ${body.length}`,
        'Connection: close',
      ].join('\r\n'),
      body,
      { timeoutMs: 60_000, waitForEarlyAnswerMs: 300 },
    );
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
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    server = await startServerProcess(fresh.env);
    key = await createKeyWithCli('hostile-csv-parsers@example.com', fresh.env);
    const bank = await http(`${server.url}/api/v3/bankAccounts`, {
      method: 'POST',
      key,
      body: { bankAccounts: [{ name: 'Operating', routingNumber: '021000021', accountNumber: '12345678' }] },
    });
    expect(bank.status).toBe(201);
    bankAccountId = bank.body.data.bankAccounts[0].bankAccountId;
    panel = new HttpVisitor(server.url);
    await panel.signUp('hostile-csv-panel@example.com');
    probe = await HealthProbe.start(server.url);
  }, 120_000);
  afterAll(async () => {
    await probe?.close();
    await server?.stop();
    await cleanup?.();
  });

  it('imports: a 1,000,000-column header then 10,000 one-cell rows (2 MB, dry run) is a 422; wide rows scale linearly', async () => {
    await hostileRow(server, probe, `imports, 1,000,000 columns (${dialect})`, async () => {
      const answer = await dryRun(`${','.repeat(999_999)}\n${`${'a'.repeat(99)}\n`.repeat(10_000)}`);
      expect(answer.status, answer.text.slice(0, 300)).toBe(422);
      expectErrorShape(answer.status, answer.text);
      expect(JSON.parse(answer.text).errorMsg).toContain('Line 1');
      return answer.status;
    });
    await hostileRow(server, probe, `imports, 40,000 columns x 2,500 rows (${dialect})`, async () => {
      const wide = `${Array.from({ length: 40_000 }, (_, i) => `c${i}`).join(',')}\n${'x\n'.repeat(2_500)}`;
      const answer = await dryRun(wide);
      expect(answer.status).toBe(422);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    // The widest rows the reader takes (200 columns), N = 1,000 rows and 2N = 2,000 rows: read whole.
    const rows = (n: number): string => {
      const header = ['Name', ...Array.from({ length: 199 }, (_, i) => `extra${i}`)].join(',');
      const line = ['Acme Paper Co.', ...Array.from({ length: 199 }, () => 'x')].join(',');
      return `${header}\n${`${line}\n`.repeat(n)}`;
    };
    const read = await dryRun(rows(10));
    expect(read.status, read.text.slice(0, 300)).toBe(200);
    await linear('imports, 200-column rows', (scale) => dryRun(rows(1_000 * scale)));
  });

  it('imports: an 8 MB body of the worst shape is a 413 before it is parsed', async () => {
    await hostileRow(server, probe, `imports, 8 MB of commas (${dialect})`, async () => {
      const body = Buffer.from(JSON.stringify({ type: 'payees', csv: ','.repeat(8 * MiB), dryRun: true }));
      const answer = await large('/api/v3/imports', 'application/json', body, [`Authorization: Bearer ${key}`]);
      expect(answer.status).toBe(413);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
  });

  it('cleared items: `a` then N double quotes is a 422 in time linear in N (was quadratic); the 1 MB limit; 8 MB', async () => {
    const storm = (n: number): string => `a${'"'.repeat(n)}`;
    await hostileRow(server, probe, `cleared items, a + 1 MB of quotes (${dialect})`, async () => {
      const answer = await clearedItems(storm(MiB - 2));
      expect(answer.status).toBe(422);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
    await linear('cleared items, quote storm', (scale) => clearedItems(storm(200 * 1024 * scale)));
    await hostileRow(server, probe, `cleared items, 8 MB of quotes (${dialect})`, async () => {
      const answer = await large(
        `/api/v3/bankAccounts/${bankAccountId}/clearedItems`,
        'text/csv',
        Buffer.from(storm(8 * MiB)),
        [`Authorization: Bearer ${key}`],
      );
      expect(answer.status).toBe(413);
      expectErrorShape(answer.status, answer.text);
      return answer.status;
    });
  });

  it('panel import: a 100,000-column header (200 KB) is refused with a small page; 8 MB is refused', async () => {
    await hostileRow(server, probe, `panel import, 100,000 columns (${dialect})`, async () => {
      const answer = await panel.upload(
        '/panel/imports',
        '/panel/imports/upload',
        { kind: 'payees', env: 'test' },
        { name: 'wide.csv', type: 'text/csv', bytes: Buffer.from(`${Array(100_000).fill('c').join(',')}\nx\n`) },
      );
      expect(answer.status).toBe(422);
      expect(answer.text).toMatch(/Line 1/);
      // The page is about the refusal, not the file (the old preview was 56 MB).
      expect(answer.text.length).toBeLessThan(100_000);
      return answer.status;
    });
    await hostileRow(server, probe, `panel import, 8 MB (${dialect})`, async () => {
      const answer = await panel.upload(
        '/panel/imports',
        '/panel/imports/upload',
        { kind: 'payees', env: 'test' },
        { name: 'huge.csv', type: 'text/csv', bytes: Buffer.from(','.repeat(8 * MiB)) },
      );
      expect(answer.status).toBe(413);
      return answer.status;
    });
  });
});
