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
export function registerAuth(scope: FastifyInstance, keys: ApiKeys, ratePerSecond: number, failures: AddressLimiter | null): void {
  const limiter = ratePerSecond > 0 ? new RateLimiter(ratePerSecond) : null;
  const unauthenticated = (request: FastifyRequest): AppError => {
    const error = new AppError('unauthenticated', 'Unauthenticated.');
    return failures === null ? error : failures.refuse(request.ip, error);
  };
  scope.addHook('onRequest', async (request) => {
    const header = request.headers.authorization;
    // The scheme is case-insensitive (RFC 9110 §11.1) and clients pad the token with spaces:
    // neither changes which key is meant (issue 11).
    const match = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (match === null || match[1] === undefined) throw unauthenticated(request);
    let principal: Principal;
    try {
      principal = await keys.verify(match[1]);
    } catch (error) {
      if (error instanceof AppError && error.code === 'unauthenticated') throw unauthenticated(request);
      throw error;
    }
    if (limiter !== null) {
      const wait = limiter.take(principal.keyId, Date.now());
      if (wait > 0) throw new AppError('rate_limited', 'Too many requests for this API key; slow down.', { 'retry-after': String(wait) });
    }
    request.principal = principal;
  });
}
