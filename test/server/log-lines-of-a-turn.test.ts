// The JSON log hands sonic-boom the lines of one event-loop turn as one string when the turn ends
// (src/log-stream.ts, LinesOfATurn). What it is given is recorded here; that the lines then reach a
// real pipe, whatever way the process ends, is test/server/log-buffer.test.ts's.
import { describe, expect, it } from 'vitest';
import { LinesOfATurn } from '../../src/log-stream.ts';

function recorder() {
  const calls: string[] = [];
  const out = {
    write: (chunk: string) => {
      calls.push(`write ${chunk}`);
      return true;
    },
    flush: (cb?: (error?: Error) => void) => {
      calls.push('flush');
      cb?.();
    },
    flushSync: () => {
      calls.push('flushSync');
    },
  };
  return { calls, out };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('the lines of a turn', () => {
  it('are handed over once, in order, when the turn ends', async () => {
    const { calls, out } = recorder();
    const lines = new LinesOfATurn(out);
    lines.write('a\n');
    lines.write('b\n');
    lines.write('c\n');
    expect(calls).toEqual([]);
    await nextTurn();
    expect(calls).toEqual(['write a\nb\nc\n']);
    lines.write('d\n');
    await nextTurn();
    expect(calls).toEqual(['write a\nb\nc\n', 'write d\n']);
  });

  it('a turn with no line writes nothing', async () => {
    const { calls, out } = recorder();
    new LinesOfATurn(out);
    await nextTurn();
    expect(calls).toEqual([]);
  });

  it('flushSync (after a fatal line) hands the turn over before flushing, and the turn then has nothing left', async () => {
    const { calls, out } = recorder();
    const lines = new LinesOfATurn(out);
    lines.write('x\n');
    lines.write('fatal\n');
    lines.flushSync();
    expect(calls).toEqual(['write x\nfatal\n', 'flushSync']);
    await nextTurn();
    expect(calls).toEqual(['write x\nfatal\n', 'flushSync']);
  });

  it('flush hands the turn over and passes the callback on', async () => {
    const { calls, out } = recorder();
    const lines = new LinesOfATurn(out);
    lines.write('y\n');
    let called = false;
    lines.flush(() => {
      called = true;
    });
    expect(calls).toEqual(['write y\n', 'flush']);
    expect(called).toBe(true);
  });

  it("an output that throws loses the turn's lines but never throws out of the turn, and the next turn is written", async () => {
    const { calls, out } = recorder();
    let broken = true;
    const failing = {
      ...out,
      write: (chunk: string) => {
        if (broken) throw new Error('SonicBoom destroyed');
        return out.write(chunk);
      },
    };
    const errors: unknown[] = [];
    const onError = (error: unknown) => errors.push(error);
    process.on('uncaughtException', onError);
    try {
      const lines = new LinesOfATurn(failing);
      lines.write('lost\n');
      await nextTurn();
      broken = false;
      lines.write('kept\n');
      await nextTurn();
    } finally {
      process.off('uncaughtException', onError);
    }
    expect(errors).toEqual([]);
    expect(calls).toEqual(['write kept\n']);
  });
});
