// Bearer authentication (spec "Authentication") and the per-key rate limit (API decisions).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { originOf } from '../../domain/audit.ts';
import type { Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import type { ApiKeys } from '../../services/api-key.service.ts';
import type { SharedRate } from '../../services/shared-limits.service.ts';
import type { AddressLimiter } from './address-limiter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError('unauthenticated', 'Unauthenticated.');
  return request.principal;
}

/**
 * `failures` limits requests without a valid key per client address (address-limiter.ts); the key
 * is checked first, so a valid key is never refused for its neighbours' failures. `rate` is the
 * per-key rate (null: off), shared with the other servers in batches (shared-limits.service.ts).
 */
export function registerAuth(
  scope: FastifyInstance,
  keys: ApiKeys,
  rate: SharedRate | null,
  failures: AddressLimiter | null,
): void {
  const refuse = (request: FastifyRequest, done: (error?: Error) => void): void => {
    if (failures === null) {
      done(new AppError('unauthenticated', 'Unauthenticated.'));
      return;
    }
    failures.overBudget(request.ip).then(
      (limited) => done(limited ?? new AppError('unauthenticated', 'Unauthenticated.')),
      (error: unknown) => done(error instanceof Error ? error : new Error(String(error))),
    );
  };
  const admit = (request: FastifyRequest, principal: Principal): AppError | null => {
    if (rate !== null) {
      const wait = rate.take(principal.keyId);
      if (wait > 0)
        return new AppError('rate_limited', 'Too many requests for this API key; slow down.', {
          'retry-after': String(wait),
        });
    }
    // The cached principal is shared by every request of the key: this request's origin goes on a
    // copy, written as one literal (a spread followed by a field is built the slow way by V8, and
    // every later read of the object pays for it too; presenters.ts checkWire).
    request.principal = {
      keyId: principal.keyId,
      accountId: principal.accountId,
      env: principal.env,
      timeZone: principal.timeZone,
      actor: principal.actor,
      origin: originOf(request),
    };
    return null;
  };
  // A callback-style hook, not an async one: a key this process has seen is answered from the cache
  // without a promise (the hot read path of every request); only a new key waits for the database.
  scope.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    // The scheme is case-insensitive (RFC 9110 §11.1) and clients pad the token with spaces:
    // neither changes which key is meant, and clients in the field send both.
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null || match[1] === undefined) return refuse(request, done);
    const token = match[1];
    const cached = keys.cached(token);
    if (cached !== undefined) return done(admit(request, cached) ?? undefined);
    keys.verify(token).then(
      (principal) => done(admit(request, principal) ?? undefined),
      (error: unknown) => {
        if (error instanceof AppError && error.code === 'unauthenticated') refuse(request, done);
        else done(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}
