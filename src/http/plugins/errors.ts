// The one error handler: AppErrors map through their code, schema failures become the decided
// 422 (or 400 when there is no JSON body at all), parser failures 400/413, and anything else a
// 500 whose details stay in the log next to the request id.
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ErrorObject } from 'ajv';
import { loggableReason } from '../../domain/redact.ts';
import { AppError, toWire, logUnavailable, type ErrorCode } from '../../errors.ts';
import { describeValidationError } from '../validation.ts';
import type { AddressLimiter } from './address-limiter.ts';

// Through require, not `import`: on Node 22 and 24 an ES import of node:http reads every export of
// the module, and one of them loads Node's bundled fetch library — about 35 ms of every start.
const { STATUS_CODES } = createRequire(import.meta.url)('node:http') as typeof import('node:http');

declare module 'fastify' {
  interface FastifyReply {
    /** Why a 4xx was answered, as the request's log line says it (domain/redact.ts, loggableReason). */
    refusal: string | null;
  }
  interface FastifyContextConfig {
    /** Text put before validation messages (PUT /payees: "Validation error: ", spec "Errors"). */
    validationPrefix?: string;
  }
}

function send(
  reply: FastifyReply,
  code: ErrorCode,
  status: number,
  message: string,
  headers: Record<string, string> = {},
  extra: Readonly<Record<string, string>> = {},
): FastifyReply {
  if (status < 500) reply.refusal = loggableReason(message);
  return reply
    .code(status)
    .headers(headers)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(toWire(code, message, extra)));
}

function notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return send(reply, 'not_found', 404, `No route ${request.method} ${request.url.split('?')[0] ?? ''}.`);
}

const UNPARSABLE = 'The request body could not be parsed: send a JSON object with Content-Type: application/json.';

function fromFastify(
  error: FastifyError,
  request: FastifyRequest,
): { code: ErrorCode; status: number; message: string } | null {
  const prefix = request.routeOptions.config.validationPrefix ?? '';
  if (error.validation !== undefined) {
    const context = error.validationContext ?? 'body';
    if (context === 'body' && (request.body === undefined || request.body === null))
      return { code: 'bad_request', status: 400, message: UNPARSABLE };
    const chosen = pickValidationError(error.validation as ErrorObject[]);
    const message = chosen === undefined ? `The ${context} is invalid.` : describeValidationError(chosen, context);
    return { code: 'validation', status: 422, message: `${prefix}${message}` };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
      return { code: 'payload_too_large', status: 413, message: 'The request body is too large.' };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { code: 'payload_too_large', status: 413, message: 'The file is too large: at most 5 MB.' };
    case 'FST_FILES_LIMIT':
      return { code: 'validation', status: 422, message: 'Send one file at a time.' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        code: 'bad_request',
        status: 400,
        message: 'Send the file as multipart/form-data in a field named "file".',
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: 'bad_request', status: 400, message: UNPARSABLE };
    default:
      break;
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON|body/i.test(error.message)))
    return { code: 'bad_request', status: 400, message: UNPARSABLE };
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
    return { code: 'bad_request', status: error.statusCode, message: error.message };
  return null;
}

/**
 * Ajv reports a failed union (anyOf) as each branch's failure followed by the union's own. A union
 * with its own wording (`x-message`: "must be true or false") speaks for itself. A union of two
 * body shapes (a batch or one object, POST /categories) has none: the branch failure that got
 * furthest into the body names what is wrong (`categories.0.name`, not "the body is invalid").
 */
function pickValidationError(errors: readonly ErrorObject[]): ErrorObject | undefined {
  const union = errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf').at(-1);
  if (union === undefined) return errors[0];
  if (typeof (union.parentSchema as Record<string, unknown> | undefined)?.['x-message'] === 'string') return union;
  // Deeper wins; at the same depth, the shape that knows a field the client sent (`{"type": ...}`
  // is a category missing its name, not a batch missing `categories`), then an unknown field over
  // a missing one (it is what the client wrote).
  const knowsSentField = (e: ErrorObject): boolean => {
    const properties = (e.parentSchema as Record<string, unknown> | undefined)?.properties;
    return (
      typeof e.data === 'object' &&
      e.data !== null &&
      typeof properties === 'object' &&
      properties !== null &&
      Object.keys(e.data).some((key) => key in properties)
    );
  };
  const score = (e: ErrorObject) =>
    e.instancePath.split('/').length * 4 + (knowsSentField(e) ? 2 : 0) + (e.keyword === 'additionalProperties' ? 1 : 0);
  const branches = errors.filter((e) => e !== union && e.instancePath.startsWith(union.instancePath));
  return (
    branches.reduce<ErrorObject | undefined>(
      (best, e) => (best === undefined || score(e) > score(best) ? e : best),
      undefined,
    ) ?? union
  );
}

/** Longest path parameter the router matches; ids are at most 200 characters (schemas/common.ts). */
export const MAX_PARAM_LENGTH = 200;

/**
 * Errors the router raises before any route or hook runs, still in the spec's error shape: a malformed
 * percent-encoding, a path parameter past MAX_PARAM_LENGTH. Fastify would answer them in its own
 * shape; here they get the spec's. An over-long id cannot name anything: 404, as for unknown ids.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (error, request, reply) => {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return send(reply, 'not_found', 404, `Not found: an id in the path is longer than ${MAX_PARAM_LENGTH} characters.`);
  }
  if (error.code === 'FST_ERR_BAD_URL')
    return send(reply, 'bad_request', 400, 'The URL could not be parsed: check its percent-encoding.');
  request.log.error({ err: error, reqId: request.id }, 'unexpected router error');
  return send(
    reply,
    'internal',
    500,
    `Something went wrong on our side. Quote request id ${request.id} when reporting it.`,
  );
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers too large, malformed
 * request line, timeouts). Node gives us only the socket: the answer is written raw, in the
 * spec's shape, and the connection closed, as Node itself does.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'The request headers are too large.']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'The request took too long to arrive.']
        : [400, 'The request could not be parsed as HTTP.'];
  const body = JSON.stringify(toWire('bad_request', message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export function registerErrorHandling(app: FastifyInstance, failures: AddressLimiter | null): void {
  app.decorateReply('refusal', null);
  // Only JSON bodies exist in this API, and they are parsed only in the authenticated API scope
  // (app.ts): elsewhere a JSON or text body is a wrong content type (400), never parsed.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  // An unknown path is answered before its body is read or parsed, so an anonymous body cannot hold
  // the server. The panel draws its own 404 page (panel.ts), so its paths are left to it.
  // Callback-style: this runs on every request, and a matched route must not pay for a promise.
  app.addHook('onRequest', (request, reply, done) => {
    if (!request.is404 || request.url.startsWith('/panel/')) return done();
    // Scanning for paths counts as a failed request of the client address (address-limiter.ts).
    if (failures === null) return notFound(request, reply);
    failures.overBudget(request.ip).then(
      (limited) => {
        if (limited !== null) send(reply, limited.code, limited.status, limited.message, { ...limited.headers });
        else notFound(request, reply);
      },
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      logUnavailable(request.log, request.id, error);
      return send(reply, error.code, error.status, error.message, { ...error.headers }, error.extra);
    }
    const known = fromFastify(error, request);
    if (known !== null) return send(reply, known.code, known.status, known.message);
    request.log.error({ err: error, reqId: request.id }, 'unexpected error');
    return send(
      reply,
      'internal',
      500,
      `Something went wrong on our side. Quote request id ${request.id} when reporting it.`,
    );
  });

  app.setNotFoundHandler(notFound);
}
