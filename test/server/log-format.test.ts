// Log lines for people and for machines: a server started in a terminal writes
// readable lines, one started with its output in a pipe writes pino's JSON; both carry no
// credential. The terminal is a real pseudo-terminal (util-linux `script`), not a flag we set.
// SQLite only: the format is chosen before any database is involved.
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wantsReadableLogs } from '../../src/log-stream.ts';
import { freshDatabaseConfig } from '../support/databases.ts';
import { startServerProcess } from '../support/processes.ts';
import { until } from '../support/until.ts';

const BIN = fileURLToPath(new URL('../../bin/checkwriter.js', import.meta.url));
const SECRET_KEY = 'cw_test_terminalSecretZZZZ9999';

describe('log format', () => {
  let env: Record<string, string>;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const fresh = await freshDatabaseConfig('sqlite');
    env = fresh.env;
    cleanup = fresh.cleanup;
  });
  afterAll(async () => cleanup());

  it('chooses readable lines only for a terminal, or when asked', () => {
    expect(wantsReadableLogs('auto', true)).toBe(true);
    expect(wantsReadableLogs('auto', false)).toBe(false);
    expect(wantsReadableLogs('json', true)).toBe(false);
    expect(wantsReadableLogs('pretty', false)).toBe(true);
  });

  it('writes JSON lines when its output is a pipe', async () => {
    const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
    try {
      await fetch(`${server.url}/healthz`).then((r) => r.arrayBuffer());
      await until(async () => server.output().includes('request completed'));
      const line = server
        .output()
        .split('\n')
        .find((l) => l.includes('request completed'));
      expect(line?.startsWith('{')).toBe(true);
      const entry = JSON.parse(line ?? '{}');
      expect(entry).toMatchObject({ msg: 'request completed', level: 30 });
      // A request's time to a tenth of a millisecond, not 54.00699899999745.
      expect(String(entry.responseTime)).toMatch(/^\d+(\.\d)?$/);
      expect(entry.reason).toBeUndefined();
      // A refusal says why in its own line: the rule, never what the client sent.
      await fetch(`${server.url}/api/v3/no-such-route-4111111111111111`).then((r) => r.arrayBuffer());
      await until(async () => server.output().includes('no-such-route'));
      const refused = JSON.parse(
        server
          .output()
          .split('\n')
          .find((l) => l.includes('no-such-route')) ?? '{}',
      );
      expect(refused).toMatchObject({ msg: 'request completed', res: { statusCode: 404 } });
      expect(refused.reason).toBe('No route GET /api/v3/no-such-route-….');
    } finally {
      await server.stop();
    }
  });

  it('writes each request as one line with the same fields and names, whatever the Host', async () => {
    const server = await startServerProcess({ ...env, LOG_LEVEL: 'info' });
    try {
      const port = new URL(server.url).port;
      // Host as a name with a port, an IPv6 literal with a port, and a bare name: request.hostname
      // is the host without its port, brackets kept.
      const hosts = [`names.example:${port}`, `[::1]:${port}`, 'bare.example'];
      for (const [i, host] of hosts.entries())
        await new Promise<void>((resolve, reject) => {
          const sent = request(
            `${server.url}/api/v3/checks/chk_shape${i}`,
            { headers: { host, authorization: `Bearer ${SECRET_KEY}`, cookie: `cw_session=${SECRET_KEY}` } },
            (res) => res.resume().once('end', resolve),
          );
          sent.once('error', reject).end();
        });
      await until(async () => server.output().includes('chk_shape2'));
      const lines = server
        .output()
        .split('\n')
        .filter((l) => l.includes('chk_shape'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(lines.map((l) => (l.req as Record<string, unknown>).hostname)).toEqual([
        'names.example',
        '[::1]',
        'bare.example',
      ]);
      for (const [i, line] of lines.entries()) {
        expect(Object.keys(line)).toEqual([
          'level',
          'time',
          'pid',
          'hostname',
          'reqId',
          'req',
          'res',
          'responseTime',
          'reason',
          'msg',
        ]);
        expect(line).toMatchObject({
          level: 30,
          msg: 'request completed',
          reqId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          req: {
            method: 'GET',
            url: `/api/v3/checks/chk_shape${i}`,
            remoteAddress: expect.stringMatching(/127\.0\.0\.1$/),
          },
          res: { statusCode: 401 },
          reason: expect.any(String),
        });
        expect(Object.keys(line.req as object)).toEqual(['method', 'url', 'hostname', 'remoteAddress', 'remotePort']);
        expect(Object.keys(line.res as object)).toEqual(['statusCode']);
        expect((line.req as Record<string, unknown>).remotePort).toEqual(expect.any(Number));
      }
      expect(server.output()).not.toContain(SECRET_KEY);
    } finally {
      await server.stop();
    }
  });

  it('writes readable lines in a terminal, with no credential in them', async () => {
    // `script` runs the server with a pseudo-terminal as its standard output, as a person's shell does.
    const child = spawn('script', ['-qfec', `${process.execPath} ${BIN} serve`, '/dev/null'], {
      env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', LOG_FORMAT: 'auto' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await until(async () => /listening on http:\/\/[^\s]+/.test(output));
      const url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1] ?? '';
      await fetch(`${url}/api/v3/checks?api_key=${SECRET_KEY}`, {
        headers: { authorization: `Bearer ${SECRET_KEY}` },
      }).then((r) => r.arrayBuffer());
      await until(async () => output.includes('/api/v3/checks'));
      // Colours are escape codes around the words; strip them to read the line as a person does.
      const plain = output.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
      const line = plain.split(/\r?\n/).find((l) => l.includes('/api/v3/checks')) ?? '';
      expect(line).toMatch(
        /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/api\/v3\/checks\?api_key=\[redacted\] 401 [\d.]+ms request completed/,
      );
      expect(plain).not.toContain('{"level"');
      expect(plain).not.toContain(SECRET_KEY);
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
  });
});
