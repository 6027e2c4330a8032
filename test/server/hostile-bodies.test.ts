// One anonymous request must not freeze the server. A ~2 MB body of nested
// brackets used to hold the event loop for 26–47 s (a NUL scan that copied its path at every level,
// and a JSON parser that ran for the whole app before authentication). A real server process gets
// the hostile bodies on anonymous paths and on an API route with a valid key, while /healthz is
// probed: every probe must answer near the machine's idle figure, and every hostile request gets a 4xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dialects } from '../support/databases.ts';
import { type HostileServer, startHostileServer } from '../support/hostile-server.ts';
import type { ServerProcess } from '../support/processes.ts';
import { type HealthProbe, healthzBound } from '../support/responsiveness.ts';

// Four 2 MB bodies read from the socket and scanned (linear, bounded) cost the loop a little each:
// a larger allowance than one request's, and still a fraction of the seconds the old code took.
const NESTED_BODIES_ALLOWANCE_MS = 400;

const HALF = 1_000_000; // 2,000,000 bytes in all: under the default 2 MiB body limit
const NESTED_ARRAYS = '['.repeat(HALF) + ']'.repeat(HALF);
const NESTED_OBJECTS = `${'{"a":'.repeat(HALF / 5)}1${'}'.repeat(HALF / 5)}`;
// A thousand siblings each nested a thousand deep: shallow enough for JSON.parse and a recursive
// scan, and the shape that made the old scan copy its path half a billion times (the 26–47 s).
const DEEP_SIBLINGS = `[${Array.from({ length: 999 }, () => '['.repeat(1000) + ']'.repeat(1000)).join(',')}]`;
// Within the depth limit but wide: many strings to scan, one holding a NUL at the end.
const WIDE = JSON.stringify({
  checks: Array.from({ length: 60_000 }, (_, i) => ({ memo: i === 59_999 ? 'x\u0000' : 'abcdefghij' })),
});

async function send(
  url: string,
  body: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  return { status: response.status, type: response.headers.get('content-type') ?? '', text: await response.text() };
}

describe.each(dialects())('hostile bodies against a server process on %s', (dialect) => {
  let hostile: HostileServer;
  let server: ServerProcess;
  let key = '';

  beforeAll(async () => {
    hostile = await startHostileServer(dialect, 'hostile@example.com', { probe: true });
    ({ server, key } = hostile);
  }, 60_000);
  afterAll(async () => {
    await hostile?.close();
  });

  it('answers /healthz near its idle time while 2 MB nested bodies arrive, and answers each with a 4xx in the error shape', async () => {
    const targets: { path: string; headers: Record<string, string>; spec: boolean }[] = [
      { path: '/panel/sign-in', headers: {}, spec: false },
      { path: '/no/such/path', headers: {}, spec: true },
      { path: '/api/v3/checks', headers: {}, spec: true },
      { path: '/api/v3/checks', headers: { authorization: `Bearer ${key}` }, spec: true },
      { path: '/api/v3/payees', headers: { authorization: `Bearer ${key}` }, spec: true },
      { path: '/api/v3/no-such-route', headers: { authorization: `Bearer ${key}` }, spec: true },
    ];
    const probe = hostile.probe as HealthProbe;
    const idle = await probe.idle();
    await probe.reset();
    // One hostile request at a time: one was enough to freeze the server, and on a busy machine
    // six at once would measure the machine rather than the server.
    const answers = [];
    for (const body of [DEEP_SIBLINGS, NESTED_ARRAYS, NESTED_OBJECTS, WIDE]) {
      for (const t of targets) answers.push({ ...t, ...(await send(`${server.url}${t.path}`, body, t.headers)) });
    }
    const during = await probe.read();
    for (const a of answers) {
      expect(a.status, `${a.path}: ${a.text.slice(0, 200)}`).toBeGreaterThanOrEqual(400);
      expect(a.status, a.path).toBeLessThan(500);
      if (a.spec) {
        const body: unknown = JSON.parse(a.text);
        if (a.status === 401) expect(body).toEqual({ message: 'Unauthenticated.' });
        else expect(body).toEqual({ success: false, errorMsg: expect.any(String) });
      }
    }
    console.log(
      `hostile bodies (${dialect}): ${answers.length} requests, /healthz probed ${during.probes} times, slowest ${Math.round(during.worstMs)} ms (idle ${Math.round(idle.worstMs)} ms)`,
    );
    expect(during.probes).toBeGreaterThan(0);
    expect(during.failures).toBe(0);
    // The old code held the loop for seconds per body; the depth scan answers within a probe or two.
    expect(during.worstMs, `slowest /healthz (idle ${Math.round(idle.worstMs)} ms)`).toBeLessThanOrEqual(
      healthzBound(idle, NESTED_BODIES_ALLOWANCE_MS),
    );
  }, 120_000);
});
