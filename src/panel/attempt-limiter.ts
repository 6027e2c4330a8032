// Failed attempts counted per key (an address, an account, both) in a sliding window; past the
// limit the caller answers 429 until the oldest failure leaves the window (account.pages.ts). Kept in
// memory, per process (like the API's per-key rate limit): N servers allow N times the attempts.

export class AttemptLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs;
    const kept = (this.failures.get(key) ?? []).filter((at) => at > since);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Milliseconds until `key` may try again; 0 when it may now. */
  blockedFor(key: string): number {
    const kept = this.recent(key);
    if (kept.length < this.limit) return 0;
    return (kept[kept.length - this.limit] ?? 0) + this.windowMs - this.now();
  }

  /** Failures of `key` still in the window. */
  count(key: string): number {
    return this.recent(key).length;
  }

  fail(key: string): void {
    const kept = this.recent(key);
    kept.push(this.now());
    this.failures.set(key, kept);
    // Bounded memory under a flood of distinct keys: forget the oldest entries.
    if (this.failures.size > 100_000) {
      const first = this.failures.keys().next();
      if (first.done !== true) this.failures.delete(first.value);
    }
  }

  reset(key: string): void {
    this.failures.delete(key);
  }
}
