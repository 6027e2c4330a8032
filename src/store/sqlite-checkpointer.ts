// WAL checkpoints off the event loop. SQLite copies the write-ahead log into the database file
// (a checkpoint) by itself at the COMMIT that takes the log past 1,000 pages, on the connection
// that commits: the server's, on its one thread. After a large transaction (an import of 10,000
// checks writes tens of megabytes) that copy held the event loop for a third of a second after
// the last row, with every request waiting behind it. So the server's connection checkpoints
// never (wal_autocheckpoint = 0); when a commit leaves the log past the same 1,000 pages, a thread
// of its own with its own connection runs a PASSIVE checkpoint — which waits for nobody and
// blocks no writer — and the log restarts from its beginning at the next write after it.
// The thread starts at the first commit that needs it, and ends when the database closes.
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { threadModule } from '../thread-module.ts';

/** SQLite's own threshold (1,000 pages of 4 KiB): past it, a checkpoint is due. */
export const CHECKPOINT_AFTER_BYTES = 1000 * 4096;

/** What the thread answers for each checkpoint. */
export interface CheckpointReply {
  /** Frames in the log, and how many of them are now in the database file (-1, -1: busy). */
  log: number;
  checkpointed: number;
  error?: string;
}

export class SqliteCheckpointer {
  readonly #walPath: string;
  #worker: Worker | null = null;
  #running = false;
  #again = false;
  #closed = false;
  /** Checkpoints the thread has finished (read by tests). */
  completed = 0;
  readonly #waiters: (() => void)[] = [];

  constructor(
    private readonly path: string,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {
    this.#walPath = `${path}-wal`;
  }

  /** Whether the thread runs (it starts at the first checkpoint). */
  get started(): boolean {
    return this.#worker !== null;
  }

  /** After a commit: asks the thread for a checkpoint when the log has grown past the threshold. */
  afterCommit(): void {
    if (this.#closed) return;
    let size: number;
    try {
      size = statSync(this.#walPath).size;
    } catch {
      return;
    }
    if (size > CHECKPOINT_AFTER_BYTES) this.request();
  }

  /** A checkpoint now (or right after the one running). */
  request(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = true;
    this.#thread().postMessage('checkpoint');
  }

  /** Resolves when no checkpoint runs or waits (tests, close). */
  idle(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  #thread(): Worker {
    if (this.#worker !== null) return this.#worker;
    // The path names its folder so that it resolves the same from the bundle (thread-module.ts).
    const entry = threadModule(import.meta.url, '../store/sqlite-checkpoint-thread');
    const worker = new Worker(entry.filename, { execArgv: entry.execArgv, workerData: { path: this.path } });
    // The thread never keeps the process alive: a checkpoint not done now is done by the next one.
    worker.unref();
    worker.on('message', (reply: CheckpointReply) => {
      if (reply.error !== undefined) this.onError(new Error(`WAL checkpoint failed: ${reply.error}`));
      this.completed += 1;
      this.#finished();
    });
    worker.on('error', (error) => this.onError(error));
    // Ended (an error, or terminated): the next request starts another thread.
    worker.on('exit', () => {
      if (this.#worker === worker) this.#worker = null;
      if (this.#running) this.#finished();
    });
    this.#worker = worker;
    return worker;
  }

  #finished(): void {
    this.#running = false;
    if (this.#again && !this.#closed) {
      this.#again = false;
      this.request();
      return;
    }
    for (const wake of this.#waiters.splice(0)) wake();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#again = false;
    await this.idle();
    await this.#worker?.terminate();
    this.#worker = null;
  }
}
