// The access line: one JSON line per request, written when it ends (docs/operations.md, "The
// access log").
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { LogController } from 'fastify';
import pino from 'pino';
import { REDACTED, redactUrl } from '../domain/redact.ts';

const LEVEL_INFO = pino.levels.values.info ?? 30;
const LEVEL_ERROR = pino.levels.values.error ?? 50;

/** The access line's `req` and `res`, built already: written as they are. */
const asBuilt = (value: unknown): unknown => value;
const BUILT = { req: asBuilt, res: asBuilt };

/** Credential headers, censored should a line ever carry them (docs/security.md). */
export const HEADER_PATHS = ['headers.authorization', 'headers.cookie'];

/**
 * pino writes a top-level string with escapes for quotes, backslashes and control characters, as
 * JSON.stringify does, but leaves a lone surrogate as it is where JSON.stringify writes \udxxx; a
 * reason holding one goes through pino, so that its line keeps pino's bytes.
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/** What pino puts around a line's fields, read from the logger itself so both write the same bytes. */
interface Frame {
  /** `{"level":30` */
  head: string;
  /** `,"time":<ms>`, from the logger's own clock. */
  time: () => string;
  /** `,"pid":…,"hostname":"…"` and any other binding of the logger. */
  bindings: string;
  /** `}` and the line's end. */
  end: string;
  stream: { write(line: string): unknown };
}

function frameOf(logger: FastifyBaseLogger): Frame {
  const parts = logger as unknown as Record<symbol, unknown>;
  const s = pino.symbols;
  const head = (parts[s.lsCacheSym] as Record<number, string>)[LEVEL_INFO];
  if (head === undefined) throw new Error('the logger has no info level');
  return {
    head,
    time: parts[s.timeSym] as () => string,
    bindings: parts[s.chindingsSym] as string,
    end: parts[s.endSym] as string,
    stream: parts[s.streamSym] as Frame['stream'],
  };
}

/**
 * One log line per request, written when it ends, instead of Fastify's two, and no per-request
 * child logger: both cost time on every request. Errors are logged where they are handled
 * (errors.ts).
 *
 * The line of a request that went well or was refused is written as JSON here, from a fixed list
 * of fields, and handed to pino's own stream (the same buffered writer, or the pretty formatter):
 * pino's per-line work on it — the level and time lookups, a walk of the object through the
 * serializers and redaction, a generic JSON.stringify of `req` — cost more than building it, and
 * the line cannot hold a header to censor. Each string is written by JSON.stringify, so its
 * escaping is what JSON requires and what pino writes (test/server/log-access-line.test.ts
 * compares the two byte for byte). An errored request's line, rare, goes through a logger of its
 * own whose `req` and `res` serializers take the built fields as they are, and whose `err`
 * serializer is the server's. Every other line keeps the server logger's guards.
 */
export class OneLinePerRequest extends LogController {
  #lines: FastifyBaseLogger | null = null;
  #frame: Frame | null = null;

  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    // At LOG_LEVEL=warn nothing is built for a request that went well.
    const threshold = pino.levels.values[request.log.level] ?? Number.POSITIVE_INFINITY;
    if (threshold > (error ? LEVEL_ERROR : LEVEL_INFO)) return;
    // A tenth of a millisecond is all the precision a request's time has (54.0, not 54.006998999).
    const responseTime = Math.round(reply.elapsedTime * 10) / 10;
    const url = redactUrl(request.url);
    const hostname = hostnameOf(request.host);
    const remoteAddress = request.ip;
    const remotePort = request.socket?.remotePort;
    const reason = reply.refusal;
    if (!error && (reason === null || !LONE_SURROGATE.test(reason))) {
      this.#frame ??= frameOf(request.log);
      const f = this.#frame;
      // The keys in pino's order; a field pino would leave out (undefined) is left out.
      f.stream.write(
        `${f.head}${f.time()}${f.bindings},"reqId":${JSON.stringify(request.id)},"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(url)},"hostname":${JSON.stringify(hostname)}${remoteAddress === undefined ? '' : `,"remoteAddress":${JSON.stringify(remoteAddress)}`}${remotePort === undefined ? '' : `,"remotePort":${remotePort}`}},"res":{"statusCode":${reply.statusCode}},"responseTime":${responseTime}${reason === null ? '' : `,"reason":${JSON.stringify(reason)}`},"msg":"request completed"${f.end}`,
      );
      return;
    }
    this.#lines ??= request.log.child({}, { serializers: BUILT, redact: { paths: HEADER_PATHS, censor: REDACTED } });
    const req = { method: request.method, url, hostname, remoteAddress, remotePort };
    const res = { statusCode: reply.statusCode };
    if (error) this.#lines.error({ reqId: request.id, req, res, responseTime, err: error }, 'request errored');
    else this.#lines.info({ reqId: request.id, req, res, responseTime, reason }, 'request completed');
  }
}

/** Fastify's request.hostname from its host, read once (its getter reads the host twice). */
function hostnameOf(host: string): string {
  if (host[0] === '[') return host.slice(0, host.indexOf(']') + 1);
  const colon = host.indexOf(':');
  return colon === -1 ? host : host.slice(0, colon);
}
