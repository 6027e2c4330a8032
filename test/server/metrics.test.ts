// /metrics: Prometheus text from a real server process on each database, on the API's
// port behind METRICS_TOKEN and on METRICS_PORT. Parsed back by the line format Prometheus reads
// (name{labels} value), not by our own registry.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects, freshDatabaseConfig } from '../support/databases.ts';
import { createCheckOverHttp, http, runCli, startServerProcess, type ServerProcess } from '../support/processes.ts';

const TOKEN = randomBytes(32).toString('base64url');

/** Every sample line of a Prometheus text exposition, as name, labels and value. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  const out: { name: string; labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not a Prometheus sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = pair[2] ?? '';
    }
    out.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return out;
}

function sampleValue(text: string, name: string, labels: Record<string, string>): number | undefined {
  return samples(text).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
    ?.value;
}

async function scrape(url: string, token: string | null): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe.each(dialects())('/metrics (%s)', (dialect) => {
  let server: ServerProcess;
  let cleanup: () => Promise<void>;
  let key = '';
  let metricsUrl = '';
  let env: Record<string, string> = {};

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig(dialect);
    cleanup = fresh.cleanup;
    env = { ...fresh.env, METRICS_TOKEN: TOKEN, METRICS_PORT: '0' };
    expect((await runCli(['migrate'], env)).code).toBe(0);
    server = await startServerProcess(env);
    // The banner names the separate listener; the process prints it before the "listening" line ends.
    for (let i = 0; i < 50 && !/metrics: +(http:\S+)/.test(server.output()); i++)
      await new Promise((r) => setTimeout(r, 20));
    metricsUrl = /metrics: +(http:\S+)/.exec(server.output())?.[1] ?? '';
    expect(metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    const created = await runCli(['keys', 'create', '--email', 'metrics@example.com', '--env', 'live'], env);
    key = created.stdout.trim().split('\n').at(-1) ?? '';
  }, 60_000);
  afterAll(async () => {
    await server.stop();
    await cleanup();
  });

  it('refuses a scrape without the token or with another one, on both listeners', async () => {
    expect((await scrape(`${server.url}/metrics`, null)).status).toBe(401);
    expect((await scrape(`${server.url}/metrics`, `${TOKEN}x`)).status).toBe(401);
    expect((await scrape(`${server.url}/metrics`, key)).status).toBe(401);
    expect((await scrape(metricsUrl, null)).status).toBe(401);
    expect((await scrape(metricsUrl.replace('/metrics', '/other'), TOKEN)).status).toBe(404);
  });

  it('counts requests by route template and status, never by raw URL', async () => {
    const api = `${server.url}/api/v3`;
    for (let i = 0; i < 3; i++) expect((await http(`${api}/checks`, { key })).status).toBe(200);
    const unknownId = `chk_${randomBytes(6).toString('hex')}`;
    expect((await http(`${api}/checks/${unknownId}`, { key })).status).toBe(404);
    const { status, type, text } = await scrape(`${server.url}/metrics`, TOKEN);
    expect(status).toBe(200);
    expect(type).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(
      sampleValue(text, 'checkwriter_http_requests_total', { method: 'GET', route: '/api/v3/checks', status: '200' }),
    ).toBe(3);
    expect(
      sampleValue(text, 'checkwriter_http_requests_total', {
        method: 'GET',
        route: '/api/v3/checks/:checkId',
        status: '404',
      }),
    ).toBe(1);
    expect(
      sampleValue(text, 'checkwriter_http_request_duration_seconds_count', { route: '/api/v3/checks', status: '200' }),
    ).toBe(3);
    expect(text).not.toContain(unknownId);
    expect(text).not.toContain(key);
    expect(text).toMatch(/^checkwriter_nodejs_eventloop_lag_seconds \d/m);
  });

  it('shows the outbox: a live email check with no SMTP server waits, and its age grows', async () => {
    const api = `${server.url}/api/v3`;
    const checkId = await createCheckOverHttp(api, key, {
      bankAccount: { name: 'Operating', routingNumber: '011000015', accountNumber: '123456789' },
      payee: { name: 'Acme Supplies', email: 'ap@acme.test' },
      amount: 10,
    });
    expect(
      (await http(`${api}/emailchecks`, { method: 'POST', key, body: { emailChecks: [{ checkId }] } })).status,
    ).toBe(200);
    await new Promise((r) => setTimeout(r, 1100));
    const { text } = await scrape(metricsUrl, TOKEN);
    expect(sampleValue(text, 'checkwriter_outbox_waiting', { channel: 'email' })).toBe(1);
    expect(sampleValue(text, 'checkwriter_outbox_oldest_age_seconds', { channel: 'email' })).toBeGreaterThanOrEqual(1);
    if (dialect === 'postgres') {
      expect(sampleValue(text, 'checkwriter_db_pool_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    }
    expect(server.output()).not.toContain(TOKEN);
  });

  it("counts the worker's finished deliveries: a test key's email lands in the sandbox as sent", async () => {
    const api = `${server.url}/api/v3`;
    const testKey =
      (await runCli(['keys', 'create', '--email', 'metrics@example.com', '--env', 'test'], env)).stdout
        .trim()
        .split('\n')
        .at(-1) ?? '';
    const checkId = await createCheckOverHttp(api, testKey, {
      bankAccount: { name: 'Operating', routingNumber: '011000015', accountNumber: '123456789' },
      payee: { name: 'Acme Supplies', email: 'ap@acme.test' },
      amount: 10,
    });
    const emailed = await http(`${api}/emailchecks`, {
      method: 'POST',
      key: testKey,
      body: { emailChecks: [{ checkId }] },
    });
    expect(emailed.status).toBe(200);
    let sent: number | undefined;
    for (let i = 0; i < 100 && sent === undefined; i++) {
      await new Promise((r) => setTimeout(r, 100));
      sent = sampleValue((await scrape(metricsUrl, TOKEN)).text, 'checkwriter_deliveries_total', {
        channel: 'email',
        outcome: 'sent',
      });
    }
    expect(sent).toBe(1);
  });
});
