// Heavy work: the CPU-bound steps of a request (PDF rendering, positive pay files) run as named
// tasks (tasks/), away from the event loop that answers every tenant's requests, so one large or
// hostile request cannot stall the others. Two implementations: a pool of worker threads
// (piscina-pool.ts), each task with a heap cap and a deadline, and the same task functions on the
// calling thread (inline.ts), for the command line and as the baseline the benchmark compares the
// pool with.
import type { Owner } from '../domain/owner.ts';
import type { TaskInput, TaskName, TaskOutput } from './tasks/index.ts';

export type { TaskInput, TaskName, TaskOutput } from './tasks/index.ts';

export interface RunOptions {
  /**
   * Whose work it is: an account in one environment. Each owner has a bounded share of the pool's
   * threads and queue (fair-queue.ts), so one tenant's flood waits, or is refused, on its own.
   */
  readonly owner: Owner;
  /**
   * 'payee': a payee's download of a check emailed to them (the payee page). Served before every
   * tenant's own work, with a waiting room of its own: a stranger's flood never reaches it.
   */
  readonly lane?: 'payee';
  /**
   * Aborts the task (the request is gone): it leaves the queue, or its worker is stopped. Without
   * it, the signal of the HTTP request being served (request-signal.ts).
   */
  readonly signal?: AbortSignal;
}

/** The key of an owner's share. */
export function tenantOf(options: RunOptions): string {
  return options.lane === 'payee' ? 'payee' : `${options.owner.accountId}/${options.owner.env}`;
}

export interface HeavyWork {
  /**
   * Runs `task` on `input` (plain data and byte arrays: it may be copied to another thread). A task
   * stopped for its deadline answers a validation error (422), for its heap cap a 413; when the
   * pool is full, or the owner has its share of it waiting already, a 503 with Retry-After
   * (errors.ts). The input's fault or a passing state, never a 500.
   */
  run<N extends TaskName>(task: N, input: TaskInput<N>, options: RunOptions): Promise<TaskOutput<N>>;
  /** Stops the threads; tasks still running are stopped. */
  close(): Promise<void>;
}
