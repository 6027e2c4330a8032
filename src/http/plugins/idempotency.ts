// Wires idempotency keys into every POST, PUT and DELETE of the API (services/idempotency.service.ts).
import type { FastifyInstance } from 'fastify';
import type { ServiceContext } from '../../services/context.ts';
import * as idempotency from '../../services/idempotency.service.ts';
import { principalOf } from './auth.ts';

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: { key: string; createdAt: number } | null;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'DELETE', 'PATCH']);

export function registerIdempotency(scope: FastifyInstance, ctx: ServiceContext): void {
  scope.decorateRequest('idempotency', null);

  // After validation: a request the schemas refuse changes nothing and is refused the same way again.
  scope.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !UNSAFE.has(request.method)) return;
    const key = Array.isArray(header) ? (header[0] ?? '') : header;
    const principal = principalOf(request);
    const body = Buffer.isBuffer(request.body) ? request.body.toString('base64') : request.body;
    const outcome = await idempotency.begin(ctx, principal, key, idempotency.requestHash(request.method, request.url, body));
    if (outcome.proceed) {
      request.idempotency = { key, createdAt: outcome.createdAt };
      return;
    }
    return reply.code(outcome.response.status).type(outcome.response.type).header('idempotent-replayed', 'true').send(outcome.response.body);
  });

  scope.addHook('onSend', async (request, reply, payload) => {
    const claimed = request.idempotency;
    if (claimed === null) return payload;
    request.idempotency = null;
    const body = typeof payload === 'string' ? Buffer.from(payload) : Buffer.isBuffer(payload) ? payload : null;
    if (body === null) return payload;
    const type = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
    await idempotency.finish(ctx, principalOf(request), claimed.key, claimed.createdAt, { status: reply.statusCode, type, body });
    return payload;
  });
}
