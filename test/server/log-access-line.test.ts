// The access line written as JSON by the controller itself must be the line pino wrote from the
// same fields (a logger whose `req` and `res` serializers take them as they are), byte for byte
// but for the time: the same keys in the same order, the same escaping of every string, a field
// left out where pino leaves it out.
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { OneLinePerRequest } from '../../src/http/access-line.ts';

function capture(): { lines: string[]; logger: FastifyBaseLogger } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  // The server logger's options that shape a line (app.ts): its serializers and redact paths.
  const app = Fastify({
    logger: {
      level: 'info',
      stream,
      serializers: { req: () => ({ replaced: 'by the server serializer' }) },
      redact: { paths: ['req.headers.authorization', 'headers.authorization'], censor: '[redacted]' },
    },
  });
  // Writable.write is synchronous with this stream: each line is in `lines` when write returns.
  return { lines, logger: app.log };
}

interface Case {
  name: string;
  id?: string;
  url?: string;
  host?: string;
  ip?: string | undefined;
  port?: number | undefined;
  status?: number;
  refusal?: string | null;
  elapsed?: number;
}

function fakes(logger: FastifyBaseLogger, c: Case): { request: FastifyRequest; reply: FastifyReply } {
  const request = {
    log: logger,
    id: c.id ?? '3f0c7a8e-1d2b-4c5d-9e8f-0a1b2c3d4e5f',
    method: 'GET',
    url: c.url ?? '/api/v3/checks/chk_1',
    host: c.host ?? '127.0.0.1:3000',
    ip: 'ip' in c ? c.ip : '127.0.0.1',
    socket: { remotePort: 'port' in c ? c.port : 51234 },
  } as unknown as FastifyRequest;
  const reply = {
    statusCode: c.status ?? 200,
    refusal: c.refusal ?? null,
    elapsedTime: c.elapsed ?? 3.26549,
  } as unknown as FastifyReply;
  return { request, reply };
}

/** The line as pino wrote it before, from the fields the controller logs. */
function throughPino(
  logger: FastifyBaseLogger,
  request: FastifyRequest,
  reply: FastifyReply,
  url: string,
  hostname: string,
): void {
  const asBuilt = (value: unknown): unknown => value;
  const lines = logger.child(
    {},
    { serializers: { req: asBuilt, res: asBuilt }, redact: { paths: ['headers.authorization'], censor: '[redacted]' } },
  );
  const fields: Record<string, unknown> = {
    reqId: request.id,
    req: { method: request.method, url, hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort },
    res: { statusCode: reply.statusCode },
    responseTime: Math.round(reply.elapsedTime * 10) / 10,
  };
  if (reply.refusal !== null) fields.reason = reply.refusal;
  lines.info(fields, 'request completed');
}

const withoutTime = (line: string | undefined): string => (line ?? '').replace(/,"time":\d+/, ',"time":0');

const TRICKY = 'quote " backslash \\ tab \t newline \n nul \u0000 del \u007f é 中文 😀 \u2028 end';

const CASES: (Case & { expectUrl?: string; expectHost?: string })[] = [
  { name: 'a plain GET' },
  {
    name: 'a URL with quotes, backslashes, unicode and control characters',
    url: `/api/v3/x/${TRICKY}`,
    expectUrl: `/api/v3/x/${TRICKY}`,
  },
  { name: 'a payee link, redacted', url: '/c/secret-token-value', expectUrl: '/c/[redacted]' },
  { name: 'a refusal with a reason', status: 422, refusal: 'The checks.0.amount field must be a number.' },
  { name: 'a refusal whose reason has quotes and control characters', status: 404, refusal: `No route GET ${TRICKY}` },
  { name: 'a long reason', status: 400, refusal: `${'x'.repeat(150)} "quoted" \\` },
  { name: 'a reason with a lone surrogate (through pino)', status: 400, refusal: 'broken \ud800 text' },
  { name: 'no remote address or port (a closed socket)', ip: undefined, port: undefined },
  { name: 'an IPv6 host and address', host: '[::1]:3000', ip: '::1', expectHost: '[::1]' },
  { name: 'a host with quotes', host: 'a"b\\c', expectHost: 'a"b\\c' },
  { name: 'a caller request id', id: 'caller.id:42-x_y' },
  { name: 'a whole number time', elapsed: 54 },
];

describe('the access line', () => {
  for (const c of CASES) {
    it(`is pino's line for ${c.name}`, () => {
      const { lines, logger } = capture();
      const { request, reply } = fakes(logger, c);
      new OneLinePerRequest().requestCompleted(null, request, reply);
      throughPino(logger, request, reply, c.expectUrl ?? request.url, c.expectHost ?? '127.0.0.1');
      expect(lines).toHaveLength(2);
      expect(withoutTime(lines[0])).toBe(withoutTime(lines[1]));
      const parsed = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
      expect(parsed.msg).toBe('request completed');
      expect(parsed.level).toBe(30);
      expect(typeof parsed.pid).toBe('number');
    });
  }

  it('writes an errored request through pino, with its error and level', () => {
    const { lines, logger } = capture();
    const { request, reply } = fakes(logger, { name: 'error', status: 500 });
    new OneLinePerRequest().requestCompleted(new Error('boom "x"'), request, reply);
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
    expect(parsed).toMatchObject({ level: 50, msg: 'request errored', res: { statusCode: 500 } });
    expect((parsed.err as { message: string }).message).toBe('boom "x"');
    expect(Object.keys(parsed).slice(0, 5)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId']);
  });

  it('writes nothing for a request that went well when the level is warn', () => {
    const { lines, logger } = capture();
    logger.level = 'warn';
    const { request, reply } = fakes(logger, { name: 'quiet' });
    new OneLinePerRequest().requestCompleted(null, request, reply);
    expect(lines).toHaveLength(0);
  });
});
