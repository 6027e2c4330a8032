// Failed requests per client address (issue 10, item 10): API requests without a valid key and
// requests for unknown paths. A stranger scanning for keys or paths gets 429 after a minute's
// budget; a client with a valid key is never limited by it (its key is checked first, so a
// neighbour behind the same NAT cannot lock it out). The address is Fastify's request.ip, which
// follows TRUST_PROXY. Kept in memory per process, like the per-key limit.
import { AppError } from '../../errors.ts';

/** Addresses remembered at most; past it the oldest is forgotten (bounded memory under a flood). */
const MAX_ADDRESSES = 100_000;

export class AddressLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly perSecond: number;

  constructor(
    private readonly perMinute: number,
    private readonly now: () => number = Date.now,
  ) {
    this.perSecond = perMinute / 60;
  }

  private bucket(address: string): { tokens: number; at: number } {
    const now = this.now();
    const bucket = this.buckets.get(address) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 1000) * this.perSecond);
    bucket.at = now;
    return bucket;
  }

  /** Seconds until `address` may fail again; 0 when it may now. */
  blockedFor(address: string): number {
    const bucket = this.bucket(address);
    return bucket.tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - bucket.tokens) / this.perSecond));
  }

  fail(address: string): void {
    const bucket = this.bucket(address);
    bucket.tokens = Math.max(0, bucket.tokens - 1);
    this.buckets.delete(address);
    this.buckets.set(address, bucket);
    if (this.buckets.size > MAX_ADDRESSES) {
      const oldest = this.buckets.keys().next();
      if (oldest.done !== true) this.buckets.delete(oldest.value);
    }
  }

  /**
   * Records a failed request from `address`: null while it has budget (the caller answers as it
   * would anyway), else the 429 to answer instead, with Retry-After.
   */
  overBudget(address: string): AppError | null {
    const wait = this.blockedFor(address);
    if (wait > 0)
      return new AppError('rate_limited', 'Too many failed requests from this address; slow down.', {
        'retry-after': String(wait),
      });
    this.fail(address);
    return null;
  }
}
