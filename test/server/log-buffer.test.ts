// The JSON log is buffered (log-stream.ts: sonic-boom, writes of a few kilobytes instead of one
// write per line), so the lines still in the buffer when a process ends must be written out then:
// on process.exit, at the end of the event loop, after an uncaught exception, and after a fatal
// line even when the process is killed right after it. A real child process, its standard output a
// pipe as under a log collector; every line is read back and parsed.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHILD = fileURLToPath(new URL('./children/log-then-end.ts', import.meta.url));
const LINES = 200;

function run(mode: string): Promise<{ lines: Record<string, unknown>[]; code: number | null; signal: string | null }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return new Promise((resolve) => {
    child.once('close', (code, signal) => {
      const lines = out
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      resolve({ lines, code, signal });
    });
  });
}

function requestIds(lines: Record<string, unknown>[]): unknown[] {
  return lines.filter((l) => l.msg === 'request completed').map((l) => l.reqId);
}

const ALL = Array.from({ length: LINES }, (_, i) => `req-${i}`);

describe('buffered log lines at the end of a process', () => {
  it.each([
    ['the event loop empties', 'idle', 0],
    ['process.exit', 'exit', 3],
    ['an uncaught exception', 'uncaught', 1],
  ])('all are written when %s', async (_what, mode, code) => {
    const result = await run(mode);
    expect(result.code).toBe(code);
    expect(requestIds(result.lines)).toEqual(ALL);
  });

  it('a fatal line and every line before it are written even when a SIGKILL follows', async () => {
    const result = await run('fatal-then-kill');
    expect(result.signal).toBe('SIGKILL');
    expect(requestIds(result.lines)).toEqual(ALL);
    expect(result.lines.at(-1)).toMatchObject({ level: 60, msg: 'last words' });
  });

  it('a SIGKILL with no fatal line loses what is buffered: the lines are not written one by one', async () => {
    // What makes the cases above worth testing: with a write per line all 200 would be out.
    const result = await run('kill');
    expect(result.signal).toBe('SIGKILL');
    const written = requestIds(result.lines);
    expect(written.length).toBeLessThan(LINES);
    expect(written).toEqual(ALL.slice(0, written.length));
  });
});
