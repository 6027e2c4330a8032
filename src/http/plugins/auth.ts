// Bearer authentication (spec "Authentication") and the per-key rate limit (API decisions).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Principal } from '../../domain/owner.ts';
import { AppError } from '../../errors.ts';
import type { ApiKeys } from '../../services/api-key.service.ts';
import type { AddressLimiter } from './address-limiter.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

/** Token bucket per key: `rate` a second, bursts up to two seconds' worth. In-process only. */
class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  constructor(private readonly rate: number) {}

  /** 0 when the request may go, else the seconds to wait. */
  take(key: string, now: number): number {
    const capacity = this.rate * 2;
    const bucket = this.buckets.get(key) ?? { tokens: capacity, at: now };
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    this.buckets.set(key, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }
}

export function principalOf(request: FastifyRequest): Principal {
  if (request.principal === null) throw new AppError('unauthenticated', 'Unauthenticated.');
  return request.principal;
}

/**
 * `failures` limits requests without a valid key per client address (address-limiter.ts); the key
 * is checked first, so a valid key is never refused for its neighbours' failures.
 */
export function registerAuth(
  scope: FastifyInstance,
  keys: ApiKeys,
  ratePerSecond: number,
  failures: AddressLimiter | null,
): void {
  const limiter = ratePerSecond > 0 ? new RateLimiter(ratePerSecond) : null;
  const unauthenticated = (request: FastifyRequest): AppError =>
    failures?.overBudget(request.ip) ?? new AppError('unauthenticated', 'Unauthenticated.');
  const admit = (request: FastifyRequest, principal: Principal): AppError | null => {
    if (limiter !== null) {
      const wait = limiter.take(principal.keyId, Date.now());
      if (wait > 0)
        return new AppError('rate_limited', 'Too many requests for this API key; slow down.', {
          'retry-after': String(wait),
        });
    }
    request.principal = principal;
    return null;
  };
  // A callback-style hook, not an async one: a key this process has seen is answered from the
  // cache without a promise (issue 13, the hot read path); only a new key waits for the database.
  scope.addHook('onRequest', (request, _reply, done) => {
    const header = request.headers.authorization;
    // The scheme is case-insensitive (RFC 9110 §11.1) and clients pad the token with spaces:
    // neither changes which key is meant (issue 11).
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null || match[1] === undefined) return done(unauthenticated(request));
    const token = match[1];
    const cached = keys.cached(token);
    if (cached !== undefined) return done(admit(request, cached) ?? undefined);
    keys.verify(token).then(
      (principal) => done(admit(request, principal) ?? undefined),
      (error: unknown) =>
        done(
          error instanceof AppError && error.code === 'unauthenticated'
            ? unauthenticated(request)
            : error instanceof Error
              ? error
              : new Error(String(error)),
        ),
    );
  });
}
