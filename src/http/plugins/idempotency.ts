// Wires idempotency keys into every POST, PUT and DELETE of the API (services/idempotency.service.ts).
// Only those routes are touched, and only when the header is present: a GET pays nothing.
//
// The route's handler runs inside the idempotency transaction and must RETURN its payload (not
// send it): the payload is serialised and kept in that transaction, and sent after it commits, so
// a client never sees a success that a crash could still undo.
import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler, RouteHandlerMethod } from 'fastify';
import type { ServiceContext } from '../../services/context.ts';
import * as idempotency from '../../services/idempotency.service.ts';
import { AppError } from '../../errors.ts';
import { principalOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { key: string; hash: string; refused: boolean } | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);
const JSON_TYPE = 'application/json; charset=utf-8';

function keyOf(request: FastifyRequest): string | null {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return null;
  return Array.isArray(header) ? (header[0] ?? '') : header;
}

/** What a handler returned, as the bytes the client will get. */
function stored(reply: FastifyReply, payload: unknown): idempotency.StoredResponse {
  const type = reply.getHeader('content-type');
  if (Buffer.isBuffer(payload))
    return { status: reply.statusCode, type: String(type ?? 'application/octet-stream'), body: payload };
  if (typeof payload === 'string')
    return { status: reply.statusCode, type: String(type ?? 'text/plain; charset=utf-8'), body: Buffer.from(payload) };
  const serialized = reply.serialize(payload);
  return {
    status: reply.statusCode,
    type: JSON_TYPE,
    body: typeof serialized === 'string' ? Buffer.from(serialized) : Buffer.from(new Uint8Array(serialized)),
  };
}

function unsafeMethod(method: string | string[]): boolean {
  return (Array.isArray(method) ? method : [method]).some((m) => UNSAFE.has(m));
}

export function registerIdempotency(scope: FastifyInstance, ctx: ServiceContext): void {
  scope.decorateRequest('idempotency', null);

  // A refusal by the handler (4xx) rolled everything back; it is kept afterwards, outside the
  // transaction, so that a retry with the same key gets the same answer.
  const keepRefusal: onSendHookHandler = async (request, reply, payload) => {
    const claimed = request.idempotency;
    if (claimed === null || !claimed.refused || reply.statusCode < 400 || reply.statusCode >= 500) return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (body !== null) {
      try {
        await idempotency.keepRefusal(ctx, principalOf(request), claimed.key, claimed.hash, {
          status: reply.statusCode,
          type: String(reply.getHeader('content-type') ?? JSON_TYPE),
          body,
        });
      } catch (error) {
        // The database went away meanwhile: the refusal is sent but not kept, so a retry with the
        // key runs the request again (it wrote nothing) and is refused again, or succeeds.
        if (!(error instanceof AppError && error.code === 'unavailable')) throw error;
      }
    }
    return payload;
  };

  scope.addHook('onRoute', (route) => {
    if (!unsafeMethod(route.method)) return;
    const handler = route.handler as RouteHandlerMethod;
    const label = `${String(route.method)} ${route.url}`;
    route.onSend = [
      ...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]),
      keepRefusal,
    ];
    route.handler = async function idempotentHandler(
      this: FastifyInstance,
      request: FastifyRequest,
      reply: FastifyReply,
    ) {
      const key = keyOf(request);
      if (key === null) return handler.call(this, request, reply);
      // The one JSON parser (json-body.ts) is registered for application/json.
      const json = /^\s*application\/json\s*(?:;|$)/i.test(String(request.headers['content-type'] ?? ''));
      const hash = idempotency.requestHash(request.method, request.url, request.body, json);
      const claimed = { key, hash, refused: false };
      idempotency.checkKey(key);
      request.idempotency = claimed;
      const outcome = await idempotency.runOnce(ctx, principalOf(request), key, claimed.hash, async () => {
        try {
          const payload: unknown = await handler.call(this, request, reply);
          if (reply.sent)
            throw new Error(`${label} sent its own response: a route with idempotency keys must return its payload`);
          return stored(reply, payload);
        } catch (error) {
          claimed.refused = true;
          throw error;
        }
      });
      if (outcome.replayed) reply.header('idempotent-replayed', 'true');
      return reply.code(outcome.response.status).type(outcome.response.type).send(outcome.response.body);
    };
  });
}
