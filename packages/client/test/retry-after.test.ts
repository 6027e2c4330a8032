// Retry-After in both forms RFC 9110 §10.2.3 allows, with the RFC's own examples.
import { describe, expect, it } from 'vitest';
import { retryAfterMs } from '../src/index.ts';

describe('retryAfterMs', () => {
  it('reads delay-seconds and HTTP-dates, and nothing else', () => {
    expect(retryAfterMs('120')).toBe(120_000);
    expect(retryAfterMs(' 0 ')).toBe(0);
    const now = Date.UTC(1999, 11, 31, 23, 58, 59);
    expect(retryAfterMs('Fri, 31 Dec 1999 23:59:59 GMT', now)).toBe(60_000);
    expect(retryAfterMs('Fri, 31 Dec 1999 23:59:59 GMT', now + 120_000)).toBe(0);
    expect(retryAfterMs(null)).toBeNull();
    expect(retryAfterMs('')).toBeNull();
    expect(retryAfterMs('soon')).toBeNull();
    expect(retryAfterMs('-5')).toBeNull();
  });
});
