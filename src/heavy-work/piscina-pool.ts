// Heavy work on a pool of worker threads (piscina). Each task runs with a heap cap
// (resourceLimits) and a deadline; a task past either is stopped with its thread, which the pool
// replaces, and its request is answered in the spec's error shape while the server keeps serving:
// 422 past the deadline, 413 past the heap cap, 503 with Retry-After when the queue is full. A task
// waits for a thread behind at most HEAVY_WORK_QUEUE others, each stopped at its deadline, so the
// wait is bounded too. Threads and queue are shared fairly (fair-queue.ts): one tenant (account
// and environment) runs on at most half the threads and waits in at most a quarter of the queue,
// and the next free thread goes to the tenants in turn; a tenant past its share is answered 503
// for its own excess while the others are served. A task whose request has gone (the client
// hung up) leaves the queue, or its thread is stopped.
import { MessageChannel } from 'node:worker_threads';
import type { Piscina } from 'piscina';
import type { HeavyWorkConfig } from '../config.ts';
import { AppError, unavailable, validationError } from '../errors.ts';
import { CallerGone, FairQueue, type FairQueueCounts, type FairQueueLimits, QueueFull } from './fair-queue.ts';
import { type HeavyWork, type RunOptions, tenantOf } from './heavy-work.ts';
import { requestSignal } from './request-signal.ts';
import { TASK_WORDS, type TaskInput, type TaskName, type TaskOutput } from './tasks/index.ts';
import type { ThreadMessage } from './thread.ts';
import { threadModule } from '../thread-module.ts';

export interface HeavyWorkLog {
  warn(entry: object, message: string): void;
}

/** A thread the heap cap stopped (Node's code for it). */
function outOfMemory(error: unknown): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY';
}

/** piscina's own refusals when its queue is full (our count below refuses first; these are the backstop). */
function queueFull(error: unknown): boolean {
  return error instanceof Error && /^(Task queue is at limit|No task queue available)/.test(error.message);
}

/** What the pool has done since it opened, and what it holds now (read by tests and the bench). */
export interface HeavyWorkCounts extends FairQueueCounts {
  /** Tasks stopped while running because their caller had gone. */
  readonly stopped: number;
}

/**
 * One tenant's share: half the threads (at least one, so with two threads one is always left for
 * everyone else) and a quarter of the queue (at least one place when there is a queue at all).
 */
export function sharesOf(settings: HeavyWorkConfig): FairQueueLimits {
  return {
    slots: settings.threads,
    perTenant: Math.max(1, Math.ceil(settings.threads / 2)),
    perTenantWaiting: settings.queue === 0 ? 0 : Math.max(1, Math.ceil(settings.queue / 4)),
    waiting: settings.queue,
  };
}

/** The task of a caller that has gone: nobody reads this answer, the connection is closed. */
function gone(task: TaskName): AppError {
  return unavailable(`${TASK_WORDS[task].what} was stopped: the request was closed before it was answered.`, 1);
}

export class PiscinaHeavyWork implements HeavyWork {
  /**
   * piscina and its threads, made by the first task, not by the constructor: a thread (and the
   * modules it loads) costs the start-up a tenth of a second on a small machine, and a server that
   * is never asked for a PDF or a file never needs one (docs/operations.md, "What starts when").
   */
  #pool: Promise<Piscina> | null = null;
  #closed = false;
  readonly #settings: HeavyWorkConfig;
  readonly #log: HeavyWorkLog | undefined;
  /**
   * Who runs next: piscina is handed at most one task a thread, so its own queue (first come,
   * first served) stays empty and the order is the fair queue's.
   */
  readonly #queue: FairQueue;
  #stopped = 0;
  /** Threads started since the pool opened (piscina's own list, once it exists). */
  #threads: () => number = () => 0;
  /** A running mean of task times, for Retry-After. */
  #meanMs = 1_000;

  constructor(settings: HeavyWorkConfig, log?: HeavyWorkLog) {
    if (settings.threads < 1) throw new RangeError('a pool needs at least one thread');
    this.#settings = settings;
    this.#log = log;
    this.#queue = new FairQueue(sharesOf(settings));
  }

  /** The worker threads alive now: none until the first task. */
  get threads(): number {
    return this.#threads();
  }

  #open(): Promise<Piscina> {
    this.#pool ??= import('piscina').then(({ Piscina }) => {
      // The path names its folder so that it resolves the same from the bundle (thread-module.ts).
      const entry = threadModule(import.meta.url, '../heavy-work/thread');
      const pool = new Piscina({
        filename: entry.filename,
        name: 'perform',
        execArgv: entry.execArgv,
        // One thread always: piscina replaces a stopped thread only up to minThreads, and with none
        // the tasks queued behind stopped ones waited forever (seen in the bench's hostile load).
        // More start with the work and stay a minute after their last task.
        minThreads: 1,
        maxThreads: this.#settings.threads,
        idleTimeout: 60_000,
        maxQueue: this.#settings.queue + this.#settings.threads,
        resourceLimits: { maxOldGenerationSizeMb: this.#settings.heapMb },
      });
      // A thread that fails with no task of ours on it is logged, never an unhandled 'error' event.
      pool.on('error', (error: unknown) => this.#log?.warn({ err: error }, 'heavy work: a worker thread failed'));
      this.#threads = () => pool.threads.length;
      return pool;
    });
    return this.#pool;
  }

  /** Tasks running or waiting now. */
  get inFlight(): number {
    const { running, waiting } = this.#queue.counts;
    return running + waiting;
  }

  get counts(): HeavyWorkCounts {
    return { ...this.#queue.counts, stopped: this.#stopped };
  }

  async run<N extends TaskName>(task: N, input: TaskInput<N>, options: RunOptions): Promise<TaskOutput<N>> {
    const tenant = tenantOf(options);
    const signal = options.signal ?? requestSignal();
    let release: () => void;
    try {
      release = await this.#queue.enter(tenant, { signal, priority: options.lane === 'payee' });
    } catch (error) {
      if (error instanceof QueueFull) throw this.#busy(task, error.ahead, tenant);
      if (error instanceof CallerGone) throw gone(task);
      throw error;
    }
    const { deadlineMs } = this.#settings;
    const began = performance.now();
    const controller = new AbortController();
    let pastDeadline = false;
    let timer: NodeJS.Timeout | undefined;
    // The deadline counts from the task's start in its thread: not the wait for a thread, nor a
    // new thread's start-up.
    const started = new MessageChannel();
    started.port1.once('message', () => {
      timer = setTimeout(() => {
        pastDeadline = true;
        controller.abort();
      }, deadlineMs);
    });
    // The caller gone while its task runs: the thread is stopped (piscina ends it and starts
    // another), and the slot goes to the next tenant's task at once.
    const callerAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', callerAbort, { once: true });
    try {
      const message: ThreadMessage = { task, input, started: started.port2 };
      if (this.#closed) throw unavailable('The server is shutting down; try again in a moment.', 1);
      const pool = await this.#open();
      const output: TaskOutput<N> = await pool.run(message, {
        transferList: [started.port2],
        signal: controller.signal,
      });
      this.#meanMs = 0.8 * this.#meanMs + 0.2 * (performance.now() - began);
      return output;
    } catch (error) {
      if (!pastDeadline && signal?.aborted === true) {
        this.#stopped += 1;
        throw gone(task);
      }
      throw this.#answer(task, error, pastDeadline);
    } finally {
      clearTimeout(timer);
      started.port1.close();
      signal?.removeEventListener('abort', callerAbort);
      release();
    }
  }

  /** What a failed task answers: the spec's error for a stop of ours, else the error as it came. */
  #answer(task: TaskName, error: unknown, pastDeadline: boolean): unknown {
    const { what, advice } = TASK_WORDS[task];
    if (pastDeadline) {
      const seconds = this.#settings.deadlineMs / 1000;
      this.#log?.warn({ task, deadlineMs: this.#settings.deadlineMs }, 'heavy work: a task ran past its deadline');
      return validationError(`${what} took longer than ${seconds} s, the most one task may run; ${advice}.`);
    }
    if (queueFull(error)) return this.#busy(task, this.inFlight, undefined);
    if (outOfMemory(error)) {
      this.#log?.warn({ task, heapMb: this.#settings.heapMb }, 'heavy work: a task ran past its heap cap');
      return new AppError(
        'payload_too_large',
        `${what} needed more than ${this.#settings.heapMb} MB of memory, the most one task may use; ${advice}.`,
      );
    }
    return error;
  }

  /**
   * The 503 for a full queue. Its Retry-After counts the waves of this tenant's own work ahead (it
   * runs on its share of the threads), or of everyone's when piscina itself refused.
   */
  #busy(task: TaskName, ahead: number, tenant: string | undefined): AppError {
    const { perTenant } = sharesOf(this.#settings);
    const waves = Math.ceil((ahead + 1) / (tenant === undefined ? this.#settings.threads : perTenant));
    const seconds = Math.min(60, Math.max(1, Math.ceil((waves * this.#meanMs) / 1000)));
    return unavailable(
      `${TASK_WORDS[task].what} has to wait: the server is busy with other heavy work; try again in ${seconds} s.`,
      seconds,
    );
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pool = this.#pool;
    this.#threads = () => 0;
    if (pool !== null) await (await pool).destroy();
  }
}
