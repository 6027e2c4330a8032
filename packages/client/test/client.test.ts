// The typed client against a real checkwriter server process, on SQLite and PostgreSQL: the
// README's example as written, typed errors, retries through a misbehaving proxy (503, 429 with
// Retry-After, and a response lost after the server committed) without a second write, and
// webhook signatures of a real delivery.
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { dialects, freshDatabaseConfig } from '../../../test/support/databases.ts';
import { runCli, startServerProcess, type ServerProcess } from '../../../test/support/processes.ts';
import { createCheckwriterClient, verifyLegacySignature, verifyWebhook, WebhookSignatureError } from '../src/index.ts';

const SRC = fileURLToPath(new URL('../src/index.ts', import.meta.url));
const README = fileURLToPath(new URL('../README.md', import.meta.url));
const SCRATCH = fileURLToPath(new URL('./.scratch/', import.meta.url));

type Step = 'forward' | '503' | '429' | 'lose-response';
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** A proxy in front of the server that misbehaves as scripted, one step per request, then forwards. */
async function startProxy(
  target: string,
  steps: Step[],
): Promise<{ url: string; seen: Seen[]; close: () => Promise<void> }> {
  const seen: Seen[] = [];
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const step = steps.shift() ?? 'forward';
      if (step === '503')
        return res
          .writeHead(503, { 'content-type': 'application/json' })
          .end('{"success":false,"errorMsg":"Service unavailable."}');
      if (step === '429')
        return res
          .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
          .end('{"success":false,"errorMsg":"Too many requests."}');
      const upstream = httpRequest(
        {
          host: to.hostname,
          port: to.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: to.host },
        },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => body.push(chunk));
          answer.on('end', () => {
            // The server did the work and answered; the client never hears of it.
            if (step === 'lose-response') return req.socket.destroy();
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
          });
        },
      );
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe.each(dialects())('@checkwriter/client against a real server (%s)', (dialect) => {
  // Unset when start-up failed; afterAll then has nothing to stop.
  let server: ServerProcess | undefined;
  const url = (): string => {
    if (server === undefined) throw new Error('the server did not start');
    return server.url;
  };
  let cleanup: () => Promise<void>;
  let apiKey = '';

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    // The webhook receiver of the last test listens on loopback.
    const env = { ...fresh.env, WEBHOOKS_ALLOW_PRIVATE: 'true' };
    const started = await startServerProcess(env);
    server = started;
    const email = `client-${dialect}@example.com`;
    apiKey = (await runCli(['keys', 'create', '--email', email], env)).stdout.trim().split('\n').at(-1) ?? '';
    expect(apiKey).not.toBe('');
    expect((await runCli(['accounts', 'verify', '--email', email], env)).code).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    await cleanup();
  });

  it("runs the README's example as written: a check created, listed and emailed", async () => {
    const code = /```ts\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1] ?? '';
    expect(code.split('\n').filter((line) => line.trim() !== '').length).toBeLessThanOrEqual(11);
    mkdirSync(SCRATCH, { recursive: true });
    const file = `${SCRATCH}readme-${dialect}.ts`;
    writeFileSync(file, code.replace("'@checkwriter/client'", JSON.stringify(SRC)));
    // It type-checks against the generated types, as a user's editor would check it.
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(problems).toEqual([]);
    const logged: unknown[][] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void logged.push(args));
    process.env.CHECKWRITER_URL = url();
    process.env.CHECKWRITER_KEY = apiKey;
    try {
      await import(pathToFileURL(file).href);
    } finally {
      spy.mockRestore();
      rmSync(file, { force: true });
    }
    const [checkId, total, emailStatus] = logged[0] ?? [];
    expect(checkId).toMatch(/^chk_/);
    expect(total).toBe(1);
    expect(emailStatus).toBe(200);
    const api = createCheckwriterClient({ baseUrl: url(), apiKey });
    const read = await api.GET('/checks/{checkId}', { params: { path: { checkId: String(checkId) } } });
    expect(read.data?.data.memo).toBe('Invoice 42');
    expect(read.data?.data.checkStatus.description).toBe('Emailed');
  });

  it('a refusal comes back as the typed error body, not retried', async () => {
    const proxy = await startProxy(url(), []);
    try {
      const api = createCheckwriterClient({ baseUrl: `${proxy.url}/api/v3/`, apiKey, baseDelayMs: 1 });
      const missing = await api.GET('/checks/{checkId}', { params: { path: { checkId: 'chk_missing' } } });
      expect(missing.response.status).toBe(404);
      expect(missing.error).toEqual({ success: false, errorMsg: expect.any(String) });
      expect(proxy.seen).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });

  it('503, then 429 with Retry-After, then a response lost after the commit: one batch, the same key on every attempt, the ids of the first run', async () => {
    const api = createCheckwriterClient({ baseUrl: url(), apiKey });
    const bank = await api.POST('/bankAccounts', {
      body: { bankAccounts: [{ name: 'Retries', routingNumber: '011000015', accountNumber: '55555' }] },
    });
    const payee = await api.POST('/payees', { body: { payees: [{ name: 'Retry payee' }] } });
    const bankAccountId = bank.data?.data.bankAccounts[0]?.bankAccountId ?? '';
    const payeeId = payee.data?.data.payees[0]?.payeeId ?? '';
    const proxy = await startProxy(url(), ['503', '429', 'lose-response', 'forward']);
    try {
      const flaky = createCheckwriterClient({ baseUrl: proxy.url, apiKey, baseDelayMs: 10 });
      const started = Date.now();
      const created = await flaky.POST('/checks', {
        body: {
          checks: [
            { bankAccountId, payeeId, amount: '10.00', memo: 'retried batch' },
            { bankAccountId, payeeId, amount: 20, memo: 'retried batch' },
          ],
        },
      });
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // Retry-After: 1 was honoured
      expect(created.response.status, JSON.stringify(created.error)).toBe(201);
      expect(proxy.seen.map((s) => s.method)).toEqual(['POST', 'POST', 'POST', 'POST']);
      const keys = new Set(proxy.seen.map((s) => s.headers['idempotency-key']));
      expect(keys.size).toBe(1);
      expect([...keys][0]).toMatch(/^[0-9a-f-]{36}$/);
      const listed = await api.GET('/checks', { params: { query: { term: 'retried batch', perPage: '50' } } });
      expect(listed.data?.data.meta.total).toBe(2);
      expect((listed.data?.data.checks ?? []).map((c) => c.checkId).sort()).toEqual(
        (created.data?.data.checks ?? []).map((c) => c.checkId).sort(),
      );
    } finally {
      await proxy.close();
    }
  });

  it('gives up after maxRetries and returns the last answer', async () => {
    const proxy = await startProxy(url(), ['503', '503', '503']);
    try {
      const api = createCheckwriterClient({ baseUrl: proxy.url, apiKey, maxRetries: 2, baseDelayMs: 1 });
      const res = await api.GET('/payees');
      expect(res.response.status).toBe(503);
      expect(proxy.seen).toHaveLength(3);
    } finally {
      await proxy.close();
    }
  });

  it('verifies the signatures of a real webhook delivery, and refuses a tampered or stale one', async () => {
    const received: { raw: Buffer; headers: IncomingHttpHeaders }[] = [];
    const receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        received.push({ raw: Buffer.concat(chunks), headers: req.headers });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const api = createCheckwriterClient({ baseUrl: url(), apiKey });
      const hook = await api.POST('/webhooks', {
        body: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, events: ['check.created'] },
      });
      const secret = hook.data?.data.secret ?? '';
      expect(secret).not.toBe('');
      const bank = await api.POST('/bankAccounts', {
        body: { bankAccounts: [{ name: 'Hooks', routingNumber: '011000015', accountNumber: '77777' }] },
      });
      const payee = await api.POST('/payees', { body: { payees: [{ name: 'Hook payee' }] } });
      await api.POST('/checks', {
        body: {
          checks: [
            {
              bankAccountId: bank.data?.data.bankAccounts[0]?.bankAccountId ?? '',
              payeeId: payee.data?.data.payees[0]?.payeeId ?? '',
              amount: '5.00',
            },
          ],
        },
      });
      await vi.waitFor(() => expect(received.length).toBeGreaterThan(0), { timeout: 15_000, interval: 100 });
      const [delivery] = received;
      if (delivery === undefined) throw new Error('no delivery');
      const header = String(delivery.headers['checkwriter-signature']);
      const event = verifyWebhook({ payload: delivery.raw, header, secret });
      expect(event.type).toBe('check.created');
      expect(verifyLegacySignature(delivery.raw, String(delivery.headers.signature), secret)).toBe(true);
      const tampered = Buffer.from(delivery.raw.toString().replace('5.00', '9.00').replace('"amount":5', '"amount":9'));
      expect(tampered.equals(delivery.raw)).toBe(false);
      expect(() => verifyWebhook({ payload: tampered, header, secret })).toThrow(WebhookSignatureError);
      expect(() => verifyWebhook({ payload: delivery.raw, header, secret: `${secret}x` })).toThrow(
        WebhookSignatureError,
      );
      expect(() => verifyWebhook({ payload: delivery.raw, header, secret, now: Date.now() + 10 * 60_000 })).toThrow(
        /tolerance/,
      );
      expect(() => verifyWebhook({ payload: delivery.raw, header: undefined, secret })).toThrow(WebhookSignatureError);
      expect(verifyLegacySignature(tampered, String(delivery.headers.signature), secret)).toBe(false);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });
});
