// A fair share of a few slots (the pool's threads, image decodes) among tenants. One tenant may
// hold at most `perTenant` slots and keep at most `perTenantWaiting` callers waiting; a freed slot
// goes round-robin across the tenants that wait, so one tenant's backlog never sits in front of
// another tenant's single task. A waiter whose caller has gone (its signal aborted) leaves at once
// and holds nothing. Callers of the priority lane (the payee's download) are served first, and have
// a waiting room of their own, so a stranger's flood of the common one never fills it.

export interface FairQueueLimits {
  /** Slots in all (threads, decodes at once). */
  readonly slots: number;
  /** Most slots one tenant holds at once. */
  readonly perTenant: number;
  /** Most callers one tenant keeps waiting; one more is refused. */
  readonly perTenantWaiting: number;
  /** Most callers waiting in all (the priority lane apart); one more is refused. */
  readonly waiting: number;
}

export interface EnterOptions {
  /** The caller has gone: leave the queue (or never join it). */
  readonly signal?: AbortSignal | undefined;
  /** Served before every other tenant's waiters, with a waiting room of its own. */
  readonly priority?: boolean;
  /** Waiting longer than this refuses (`WaitedTooLong`). */
  readonly maxWaitMs?: number;
}

/** Why `enter` did not give a slot: the tenant's own waiting room, or everyone's, is full. */
export class QueueFull extends Error {
  /** Tasks of this tenant ahead of a new one (running and waiting): for a Retry-After. */
  constructor(readonly ahead: number) {
    super('queue full');
  }
}

/** The caller waited `maxWaitMs` without a slot. */
export class WaitedTooLong extends Error {
  constructor(readonly ahead: number) {
    super('waited too long');
  }
}

/** The caller's signal aborted while it waited. */
export class CallerGone extends Error {
  constructor() {
    super('the caller has gone');
  }
}

export interface FairQueueCounts {
  /** Slots held now. */
  readonly running: number;
  /** Callers waiting now. */
  readonly waiting: number;
  /** Slots given since the start. */
  readonly entered: number;
  /** Callers that left, or never joined, because they had gone. */
  readonly dropped: number;
  /** Callers refused (a waiting room full, or waited too long). */
  readonly refused: number;
}

interface Waiter {
  readonly tenant: string;
  readonly priority: boolean;
  grant(): void;
}

export type Release = () => void;

export class FairQueue {
  readonly #limits: FairQueueLimits;
  /** Slots held, by tenant. */
  readonly #held = new Map<string, number>();
  /** Waiters by tenant; the map's order is the round's order (a served tenant moves to its end). */
  readonly #queues = new Map<string, Waiter[]>();
  readonly #priority: Waiter[] = [];
  #running = 0;
  #waiting = 0;
  #entered = 0;
  #dropped = 0;
  #refused = 0;

  constructor(limits: FairQueueLimits) {
    if (limits.slots < 1 || limits.perTenant < 1) throw new RangeError('a fair queue needs a slot');
    this.#limits = limits;
  }

  get counts(): FairQueueCounts {
    return {
      running: this.#running,
      waiting: this.#waiting,
      entered: this.#entered,
      dropped: this.#dropped,
      refused: this.#refused,
    };
  }

  /** Slots held and callers waiting for `tenant`. */
  load(tenant: string): number {
    return (this.#held.get(tenant) ?? 0) + (this.#queues.get(tenant)?.length ?? 0);
  }

  /** A slot for `tenant`, held until the answer's release is called (once; more calls do nothing). */
  enter(tenant: string, options: EnterOptions = {}): Promise<Release> {
    const { signal, priority = false, maxWaitMs } = options;
    if (signal?.aborted === true) {
      this.#dropped += 1;
      return Promise.reject(new CallerGone());
    }
    // A free slot this tenant may hold is free for it now: every freed slot went to a waiter that
    // could hold it, so whoever still waits is at its own tenant's share.
    if (this.#free(tenant)) return Promise.resolve(this.#take(tenant));
    const own = priority ? this.#priority.filter((w) => w.tenant === tenant).length : this.#queues.get(tenant)?.length;
    const full =
      (own ?? 0) >= this.#limits.perTenantWaiting ||
      (!priority && this.#waiting - this.#priority.length >= this.#limits.waiting);
    if (full) {
      this.#refused += 1;
      return Promise.reject(new QueueFull(this.load(tenant)));
    }
    return new Promise<Release>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = (error: Error): void => {
        if (!this.#remove(waiter)) return;
        clearTimeout(timer);
        signal?.removeEventListener('abort', gone);
        reject(error);
      };
      const gone = (): void => {
        this.#dropped += 1;
        leave(new CallerGone());
      };
      const waiter: Waiter = {
        tenant,
        priority,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', gone);
          resolve(this.#take(tenant));
        },
      };
      signal?.addEventListener('abort', gone, { once: true });
      if (maxWaitMs !== undefined)
        timer = setTimeout(() => {
          this.#refused += 1;
          leave(new WaitedTooLong(this.load(tenant)));
        }, maxWaitMs);
      this.#waiting += 1;
      if (priority) this.#priority.push(waiter);
      else {
        const queue = this.#queues.get(tenant);
        if (queue === undefined) this.#queues.set(tenant, [waiter]);
        else queue.push(waiter);
      }
    });
  }

  #free(tenant: string): boolean {
    return this.#running < this.#limits.slots && (this.#held.get(tenant) ?? 0) < this.#limits.perTenant;
  }

  #take(tenant: string): Release {
    this.#running += 1;
    this.#entered += 1;
    this.#held.set(tenant, (this.#held.get(tenant) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running -= 1;
      const held = (this.#held.get(tenant) ?? 1) - 1;
      if (held === 0) this.#held.delete(tenant);
      else this.#held.set(tenant, held);
      this.#dispatch();
    };
  }

  /** Gives free slots to waiters: the priority lane first, then one tenant after another. */
  #dispatch(): void {
    while (this.#running < this.#limits.slots) {
      const next = this.#nextWaiter();
      if (next === undefined) return;
      this.#remove(next);
      next.grant();
    }
  }

  #nextWaiter(): Waiter | undefined {
    const first = this.#priority.find((w) => this.#free(w.tenant));
    if (first !== undefined) return first;
    for (const [tenant, queue] of this.#queues) {
      if (!this.#free(tenant)) continue;
      // The tenant served goes to the end of the round.
      this.#queues.delete(tenant);
      if (queue.length > 0) this.#queues.set(tenant, queue);
      return queue[0];
    }
    return undefined;
  }

  /** Takes a waiter out of its queue; false when it had left already. */
  #remove(waiter: Waiter): boolean {
    const queue = waiter.priority ? this.#priority : this.#queues.get(waiter.tenant);
    const at = queue?.indexOf(waiter) ?? -1;
    if (queue === undefined || at < 0) return false;
    queue.splice(at, 1);
    this.#waiting -= 1;
    if (!waiter.priority && queue.length === 0) this.#queues.delete(waiter.tenant);
    return true;
  }
}
