// The abuse limits, counted in the database so that every server sees every
// count: N servers allow one address what one server allows. docs/security.md, "Abuse limits",
// says what is counted and why; this file says how.
//
// - Sign-in, sign-up and reset attempts and the API's failed requests are sliding windows: the
//   times of the events still in the window, at most the limit of them, in one row per counted
//   thing (limit-counters.repository.ts), read and written under that row's lock, so two servers
//   deciding at once decide one after the other and the limit is exact across servers.
// - The per-key request rate is on every API request, where a round trip to the database would
//   cost GET throughput: each server keeps its own token bucket per key and, every SYNC_MS, adds
//   what it admitted to a running total per key in the same table (one statement for all keys) and
//   takes what the other servers admitted out of its own bucket. N servers then allow one key the
//   rate one server allows, give or take what the others admitted in the last interval.
//
// Rows are named by an HMAC of what they count under a key derived from the server secret: the
// table holds no address, email or API key, and one name cannot be turned back into them.
import { createHmac } from 'node:crypto';
import type { Db, Queryable } from '../store/db.ts';
import * as counters from '../store/limit-counters.repository.ts';

/** At most `limit` events in any `ms` milliseconds. */
export interface Window {
  readonly limit: number;
  readonly ms: number;
}

/** Expired rows are deleted at most this often, by one server (whichever claims the sweep). */
const SWEEP_MS = 60_000;
const SWEEP_BATCH = 5_000;
const SWEEP_ROW = 'sweep';
/** Names remembered as blocked in this process at most (bounded memory under a flood). */
const MAX_BLOCKED = 100_000;

/** The events of `hits` still in `window` at `now`. */
function inWindow(hits: readonly number[], window: Window, now: number): number[] {
  return hits.filter((at) => at > now - window.ms);
}

/** Milliseconds until one more event fits in `window`; 0 when it fits now. */
export function waitFor(hits: readonly number[], window: Window, now: number): number {
  const kept = inWindow(hits, window, now);
  if (kept.length < window.limit) return 0;
  return Math.max(1, (kept[kept.length - window.limit] ?? now) + window.ms - now);
}

/** A sign-in attempt counted in advance (beginSignIn): a success takes it back. */
export interface SignInAttempt {
  readonly names: { pair: string; address: string; account: string };
  readonly at: number;
}

export class SharedLimits {
  private readonly key: Buffer;
  /** Names known to be full until a time: a flood of refused requests costs no round trip. */
  private readonly blocked = new Map<string, number>();
  private sweptAt = 0;

  /** `autoSweep` false: expired rows are deleted only by sweep() (tests that count rows). */
  constructor(
    private readonly db: Db,
    secret: Buffer,
    private readonly now: () => number = Date.now,
    private readonly autoSweep = true,
  ) {
    this.key = createHmac('sha256', secret).update('checkwriter limit counters').digest();
  }

  /** The row name for `subject` counted as `kind`. */
  name(kind: string, subject: string): string {
    return `${kind}:${createHmac('sha256', this.key).update(`${kind}\n${subject}`).digest('base64url')}`;
  }

  private knownBlocked(name: string, now: number): number {
    const until = this.blocked.get(name);
    if (until === undefined) return 0;
    if (until > now) return until - now;
    this.blocked.delete(name);
    return 0;
  }

  private rememberBlocked(name: string, wait: number, now: number): void {
    this.blocked.set(name, now + wait);
    if (this.blocked.size > MAX_BLOCKED) {
      const oldest = this.blocked.keys().next();
      if (oldest.done !== true) this.blocked.delete(oldest.value);
    }
  }

  /**
   * Counts one event of `subject` as `kind` unless its window is full. Answers 0 when counted, or
   * the milliseconds until it would be (nothing counted then).
   */
  async take(kind: string, subject: string, window: Window): Promise<number> {
    const name = this.name(kind, subject);
    const known = this.knownBlocked(name, this.now());
    if (known > 0) return known;
    const now = this.now();
    const wait = await this.db.transaction(async (tx) => {
      const hits = await counters.lockedHits(tx, name, now);
      const wait = waitFor(hits, window, now);
      if (wait === 0) await counters.writeHits(tx, name, [...inWindow(hits, window, now), now], now + window.ms);
      return wait;
    });
    if (wait > 0) this.rememberBlocked(name, wait, now);
    this.sweepNowAndThen(now);
    return wait;
  }

  /**
   * Counts one attempt of `subject` as `kind` in advance, as a failure, unless its window is full:
   * concurrent guesses on several servers cannot overtake the count. `at` is given back with
   * `giveBack` when the attempt succeeded, so only failures stay counted.
   */
  async attempt(kind: string, subject: string, window: Window): Promise<{ wait: number; at: number }> {
    const name = this.name(kind, subject);
    const now = this.now();
    const known = this.knownBlocked(name, now);
    if (known > 0) return { wait: known, at: now };
    const wait = await this.db.transaction(async (tx) => {
      const hits = await counters.lockedHits(tx, name, now);
      const wait = waitFor(hits, window, now);
      if (wait === 0) await counters.writeHits(tx, name, [...inWindow(hits, window, now), now], now + window.ms);
      return wait;
    });
    if (wait > 0) this.rememberBlocked(name, wait, now);
    this.sweepNowAndThen(now);
    return { wait, at: now };
  }

  /** Takes back an attempt counted by `attempt` that succeeded. */
  async giveBack(kind: string, subject: string, at: number): Promise<void> {
    const name = this.name(kind, subject);
    await this.db.transaction((tx) => takeBack(tx, name, at));
  }

  /**
   * A sign-in attempt (docs/security.md): refused while the address+email pair, the address, or —
   * for an address that already failed on this email — the email has a full window; else counted
   * as a failure in all three at once, before the password is checked, so that concurrent guesses
   * on several servers cannot overtake the count. A success takes it back (endSignIn).
   */
  async beginSignIn(
    address: string,
    email: string,
    windows: { pair: Window; address: Window; account: Window },
  ): Promise<{ wait: number; attempt: SignInAttempt | null }> {
    const names = {
      pair: this.name('sign-in-pair', `${address}\n${email}`),
      address: this.name('sign-in-address', address),
      account: this.name('sign-in-account', email),
    };
    const first = this.now();
    const known = Math.max(this.knownBlocked(names.pair, first), this.knownBlocked(names.address, first));
    if (known > 0) return { wait: known, attempt: null };
    const now = this.now();
    // Rows locked in one order (pair, address, account) by every attempt: no two wait on each other.
    const wait = await this.db.transaction(async (tx) => {
      const pair = await counters.lockedHits(tx, names.pair, now);
      const byAddress = await counters.lockedHits(tx, names.address, now);
      const byAccount = await counters.lockedHits(tx, names.account, now);
      const pairWait = waitFor(pair, windows.pair, now);
      const addressWait = waitFor(byAddress, windows.address, now);
      // Past the account's limit only addresses that already failed on it are refused: a stranger
      // cannot lock the owner out.
      const accountWait = inWindow(pair, windows.pair, now).length > 0 ? waitFor(byAccount, windows.account, now) : 0;
      const wait = Math.max(pairWait, addressWait, accountWait);
      if (wait > 0) {
        if (pairWait > 0) this.rememberBlocked(names.pair, pairWait, now);
        if (addressWait > 0) this.rememberBlocked(names.address, addressWait, now);
        return wait;
      }
      const count = async (name: string, hits: number[], window: Window) =>
        counters.writeHits(tx, name, [...inWindow(hits, window, now), now], now + window.ms);
      await count(names.pair, pair, windows.pair);
      await count(names.address, byAddress, windows.address);
      await count(names.account, byAccount, windows.account);
      return 0;
    });
    this.sweepNowAndThen(now);
    return wait > 0 ? { wait, attempt: null } : { wait: 0, attempt: { names, at: now } };
  }

  /**
   * The attempt's outcome. A failure stays counted. A success clears the pair's failures and takes
   * the attempt back from the address's and the email's counts (the email's other failures stay:
   * an attack from elsewhere goes on whether or not the owner is in).
   */
  async endSignIn(attempt: SignInAttempt, succeeded: boolean): Promise<void> {
    if (!succeeded) return;
    await this.db.transaction(async (tx) => {
      await counters.clearHits(tx, attempt.names.pair);
      for (const name of [attempt.names.address, attempt.names.account]) await takeBack(tx, name, attempt.at);
    });
  }

  /**
   * Deletes expired rows at most every SWEEP_MS, by one server at a time: the first to move the
   * sweep row's time on sweeps; the others find it already moved. Runs in the background (a sweep
   * that fails is tried again later).
   */
  sweepNowAndThen(now: number): void {
    if (!this.autoSweep || now - this.sweptAt < SWEEP_MS) return;
    this.sweptAt = now;
    this.sweep(now).catch(() => {
      this.sweptAt = 0;
    });
  }

  /** One sweep if this server claims it; answers the rows deleted (0 when another server had it). */
  async sweep(now: number = this.now()): Promise<number> {
    const claimed = await this.db.transaction(async (tx) => {
      await tx.run('INSERT INTO limit_counters (name, expires_at) VALUES (?, 0) ON CONFLICT (name) DO NOTHING', [
        SWEEP_ROW,
      ]);
      return tx.run('UPDATE limit_counters SET expires_at = ? WHERE name = ? AND expires_at <= ?', [
        now + SWEEP_MS,
        SWEEP_ROW,
        now,
      ]);
    });
    if (claimed !== 1) return 0;
    let deleted = 0;
    for (;;) {
      const n = await counters.deleteExpired(this.db, now, SWEEP_BATCH);
      deleted += n;
      if (n < SWEEP_BATCH) return deleted;
    }
  }
}

async function takeBack(tx: Queryable, name: string, at: number): Promise<void> {
  const hits = await counters.lockedHits(tx, name, at);
  const i = hits.indexOf(at);
  if (i < 0) return;
  hits.splice(i, 1);
  if (hits.length === 0) await counters.clearHits(tx, name);
  else await counters.writeHits(tx, name, hits, null);
}

/** How often a server adds what it admitted per key to the shared totals and learns the others'. */
export const RATE_SYNC_MS = 250;
/** A key not used for this long is forgotten by the server (its bucket would be full again anyway). */
const RATE_IDLE_MS = 10_000;
/** Keys per statement when syncing (three parameters each, far under both databases' limits). */
const RATE_SYNC_BATCH = 500;

interface Bucket {
  tokens: number;
  at: number;
  /** Requests admitted here since the last sync. */
  pending: number;
  /** The shared total after the last sync (null before the first). */
  total: number | null;
  usedAt: number;
}

/**
 * The per-key request rate: `rate` a second, bursts up to two seconds' worth, shared across
 * servers in batches (see the top of this file). `take` is the hot path: memory only, no promise.
 */
export class SharedRate {
  private readonly buckets = new Map<string, Bucket>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<void> | null = null;

  constructor(
    private readonly limits: SharedLimits,
    private readonly db: Db,
    private readonly rate: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** 0 when a request of `keyId` may go now, else the seconds to wait. */
  take(keyId: string, now: number = this.now()): number {
    const capacity = this.rate * 2;
    let bucket = this.buckets.get(keyId);
    if (bucket === undefined) {
      bucket = { tokens: capacity, at: now, pending: 0, total: null, usedAt: now };
      this.buckets.set(keyId, bucket);
    }
    bucket.tokens = Math.min(capacity, bucket.tokens + ((now - bucket.at) / 1000) * this.rate);
    bucket.at = now;
    bucket.usedAt = now;
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      bucket.pending += 1;
      return 0;
    }
    return Math.max(1, Math.ceil((1 - bucket.tokens) / this.rate));
  }

  /**
   * Adds this server's admitted requests to the shared totals and takes the other servers' out of
   * the local buckets (a bucket may go below zero: the key then waits until it has paid them).
   */
  async sync(): Promise<void> {
    const now = this.now();
    // The key totals expire too: a server that only serves valid requests sweeps from here.
    this.limits.sweepNowAndThen(now);
    const batch: { keyId: string; name: string; bucket: Bucket; sent: number }[] = [];
    for (const [keyId, bucket] of this.buckets) {
      if (now - bucket.usedAt > RATE_IDLE_MS && bucket.pending === 0) this.buckets.delete(keyId);
      else batch.push({ keyId, name: this.limits.name('key-rate', keyId), bucket, sent: bucket.pending });
    }
    for (let i = 0; i < batch.length; i += RATE_SYNC_BATCH) {
      const part = batch.slice(i, i + RATE_SYNC_BATCH);
      for (const item of part) item.bucket.pending -= item.sent;
      let totals: Map<string, number>;
      try {
        totals = await counters.addToTotals(
          this.db,
          part.map((item) => ({ name: item.name, delta: item.sent })),
          now + RATE_IDLE_MS * 6,
        );
      } catch (error) {
        // Not sent: counted again at the next sync.
        for (const item of part) item.bucket.pending += item.sent;
        throw error;
      }
      for (const item of part) {
        const total = totals.get(item.name);
        if (total === undefined) continue;
        const others = item.bucket.total === null ? 0 : total - item.bucket.total - item.sent;
        if (others > 0) item.bucket.tokens -= others;
        item.bucket.total = total;
      }
    }
  }

  /** Syncs every RATE_SYNC_MS until stop(); a failed sync is tried again at the next tick. */
  start(): void {
    if (this.timer !== null) return;
    this.timer = setInterval(() => {
      if (this.syncing !== null) return;
      this.syncing = this.sync()
        .catch(() => undefined)
        .finally(() => {
          this.syncing = null;
        });
    }, RATE_SYNC_MS);
    this.timer.unref();
  }

  /** Stops syncing and sends what is still pending. */
  async stop(): Promise<void> {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
    await this.sync().catch(() => undefined);
  }
}
