// Where log lines go and how they look. Machines read pino's JSON, one object a
// line, and that stays the format whenever the output is a file, a pipe or a log collector. A person
// starting the server in a terminal gets readable lines instead — pino-pretty, the convention of
// pino-based servers — with the request line shortened to what one looks for ("GET /x 200 3ms").
// Redaction happens in pino before a line reaches either, so both carry no credential.
import type { DestinationStream } from 'pino';
import type { LogFormat } from './config.ts';

/** Readable lines for `pretty`, and for `auto` when standard output is a terminal. */
export function wantsReadableLogs(format: LogFormat, stdoutIsTerminal: boolean): boolean {
  return format === 'pretty' || (format === 'auto' && stdoutIsTerminal);
}

/** The stream for pino, or undefined for its default: JSON to standard output. */
export async function logDestination(format: LogFormat): Promise<DestinationStream | undefined> {
  if (!wantsReadableLogs(format, process.stdout.isTTY === true)) return undefined;
  // Loaded only when wanted: a server writing JSON never pays for the formatter.
  const { default: pretty } = await import('pino-pretty');
  return pretty({
    // Synchronous, like pino's own JSON destination: a line written just before exit is not lost.
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,req,res,reqId,responseTime,reason',
    messageFormat:
      '{if req.method}{req.method} {req.url} {res.statusCode} {responseTime}ms {end}{msg}{if reason}: {reason}{end}{if reqId} ({reqId}){end}',
  });
}
