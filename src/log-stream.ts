// Where log lines go and how they look. Machines read pino's JSON, one object a
// line, and that stays the format whenever the output is a file, a pipe or a log collector. A person
// starting the server in a terminal gets readable lines instead — pino-pretty, the convention of
// pino-based servers — with the request line shortened to what one looks for ("GET /x 200 3ms").
// Redaction happens before a line reaches either (in pino; the access line is written from a fixed
// list of fields, src/http/access-line.ts), so both carry no credential.
//
// JSON lines are written asynchronously (pino.destination with sync: false, i.e. sonic-boom): a
// line starts a write at once (no delay on a quiet server), and the lines logged while that write
// is under way leave together in the next one, instead of one blocking write(2) per line. A
// blocking write to a pipe whose reader lags waits for it: 110 µs a line against 7 µs buffered,
// measured with a pipe to `cat` on the shared bench machine (docs/operations.md, "The access
// log"). What could be lost is what sits in the buffer when the
// process ends, so pino writes it out synchronously whenever the process ends in a way Node still
// sees: on `exit` (process.exit, the end of the event loop, an uncaught exception), and after every
// fatal line, before a death no handler sees (pino's own fatal(), which calls flushSync). Only a
// SIGKILL or a power cut with no fatal line before it loses the lines logged since the last write
// finished (test/server/log-buffer.test.ts).
import pino, { type DestinationStream } from 'pino';
import type { LogFormat } from './config.ts';

/** Readable lines for `pretty`, and for `auto` when standard output is a terminal. */
export function wantsReadableLogs(format: LogFormat, stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

type SonicBoom = ReturnType<typeof pino.destination>;

/**
 * One buffered writer of standard output for the whole process: every app built in it (tests build
 * many) shares it, so there is one buffer and one exit handler, not one per app.
 */
let standardOutput: SonicBoom | null = null;

function bufferedStandardOutput(): SonicBoom {
  standardOutput ??= pino.destination({ dest: 1, sync: false });
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
