// Where log lines go and how they look. Machines read pino's JSON, one object a
// line, and that stays the format whenever the output is a file, a pipe or a log collector. A person
// starting the server in a terminal gets readable lines instead — pino-pretty, the convention of
// pino-based servers — with the request line shortened to what one looks for ("GET /x 200 3ms").
// Redaction happens before a line reaches either (in pino; the access line is written from a fixed
// list of fields, src/http/access-line.ts), so both carry no credential.
//
// JSON lines are written asynchronously (pino.destination with sync: false, i.e. sonic-boom), and
// the lines of one turn of the event loop are handed to it together when the turn ends
// (LinesOfATurn): a quiet server's line leaves at once, a busy server's lines leave a few dozen to
// a write instead of one write(2) per line. A blocking write to a pipe whose reader lags waits for
// it: 110 µs a line against 7 µs buffered, measured with a pipe to `cat` on the shared bench
// machine (docs/operations.md, "The access log"); counted with strace under load, the lines of
// 5,000 requests left in 172 writes once they went by turn. What could be lost is what sits in a
// buffer when the process ends, so it is written out synchronously whenever the process ends in a
// way Node still sees: on `exit` (process.exit, the end of the event loop, an uncaught exception),
// and after every fatal line, before a death no handler sees (pino's own fatal(), which calls
// flushSync). Only a SIGKILL or a power cut with no fatal line before it loses the lines logged
// since the last write finished (test/server/log-buffer.test.ts).
import pino, { type DestinationStream } from 'pino';
import type { LogFormat } from './config.ts';

/** Readable lines for `pretty`, and for `auto` when standard output is a terminal. */
export function wantsReadableLogs(format: LogFormat, stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * The lines logged in one turn of the event loop, handed to sonic-boom as one string when the turn
 * ends (setImmediate). Under load a turn finishes several requests; one write call for all their
 * lines costs a fraction of one per line (sonic-boom measures each string it is given and appends
 * it to its buffer, and each write that leaves costs a thread-pool round trip). Nothing waits longer
 * than the turn it was logged in. What is still here when the process ends is handed over and
 * written synchronously: on `exit` (this listener, registered before pino's own) and by flushSync,
 * which pino calls after a fatal line.
 */
export class LinesOfATurn implements DestinationStream {
  #pending: string[] = [];
  #scheduled = false;

  constructor(private readonly out: Pick<SonicBoom, 'write' | 'flush' | 'flushSync'>) {}

  write(line: string): void {
    this.#pending.push(line);
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#endOfTurn);
    }
  }

  readonly #endOfTurn = (): void => {
    this.#scheduled = false;
    try {
      this.#handOver();
    } catch {
      // The output is gone (sonic-boom destroyed): the lines have nowhere to go. A throw here, in
      // a callback of its own, would end the process; written from the request, it did not.
    }
  };

  #handOver(): void {
    const lines = this.#pending;
    if (lines.length === 0) return;
    this.#pending = [];
    this.out.write(lines.length === 1 ? (lines[0] as string) : lines.join(''));
  }

  /** pino's fatal() calls this: every line logged so far is written before it returns. */
  flushSync(): void {
    this.#handOver();
    this.out.flushSync();
  }

  /** pino's logger.flush(cb). */
  flush(cb?: (error?: Error) => void): void {
    this.#handOver();
    this.out.flush(cb);
  }
}

/**
 * One buffered writer of standard output for the whole process: every app built in it (tests build
 * many) shares it, so there is one buffer and one exit handler, not one per app.
 */
let standardOutput: LinesOfATurn | null = null;

function bufferedStandardOutput(): LinesOfATurn {
  if (standardOutput === null) {
    const out = pino.destination({ dest: 1, sync: false });
    const lines = new LinesOfATurn(out);
    // pino writes sonic-boom's buffer out on `exit` (flushSync); the lines of the last turn must
    // be in it by then, and writing them synchronously here makes that true whatever the order.
    process.on('exit', () => {
      try {
        lines.flushSync();
      } catch {
        // A closed standard output (EPIPE): there is nowhere left to write.
      }
    });
    standardOutput = lines;
  }
  return standardOutput;
}

/** The stream for pino: buffered JSON lines, or readable ones for a person. */
export async function logDestination(format: LogFormat): Promise<DestinationStream> {
  if (!wantsReadableLogs(format, process.stdout.isTTY === true)) return bufferedStandardOutput();
  // Loaded only when wanted: a server writing JSON never pays for the formatter.
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    // Synchronous: a person reading a terminal sees each line at once, and none is lost at exit.
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,reqId,responseTime,reason',
    messageFormat:
      '{if req.method}{req.method} {req.url} {res.statusCode} {responseTime}ms {end}{msg}{if reason}: {reason}{end}{if reqId} ({reqId}){end}',
  });
}
