// Failed requests per client address: API requests without a valid key and
// requests for unknown paths. A stranger scanning for keys or paths gets 429 after a minute's
// budget; a client with a valid key is never limited by it (its key is checked first, so a
// neighbour behind the same NAT cannot lock it out). The address is Fastify's request.ip, which
// follows TRUST_PROXY. Counted in the database, so the budget is one across every server
// (services/shared-limits.service.ts): at most `perMinute` in any minute.
import { AppError } from '../../errors.ts';
import type { SharedLimits } from '../../services/shared-limits.service.ts';

export class AddressLimiter {
  private readonly window: { limit: number; ms: number };

  constructor(
    private readonly limits: SharedLimits,
    perMinute: number,
  ) {
    this.window = { limit: perMinute, ms: 60_000 };
  }

  /**
   * Records a failed request from `address`: null while it has budget (the caller answers as it
   * would anyway), else the 429 to answer instead, with Retry-After.
   */
  async overBudget(address: string): Promise<AppError | null> {
    const wait = await this.limits.take('failed-request', address, this.window);
    if (wait === 0) return null;
    return new AppError('rate_limited', 'Too many failed requests from this address; slow down.', {
      'retry-after': String(Math.max(1, Math.ceil(wait / 1000))),
    });
  }
}
