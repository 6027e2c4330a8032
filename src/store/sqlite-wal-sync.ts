// A commit on SQLite is acknowledged only once its log is on disk, and the wait for the disk does
// not hold the event loop.
//
// The connection runs with `synchronous = NORMAL`: a COMMIT writes its frames to the write-ahead
// log (the OS's cache) and returns without an fsync. That survives the process being killed, not a
// power cut or a kernel crash: SQLite's documentation says a transaction committed in WAL mode with
// NORMAL "might roll back following a power loss or system crash". `FULL` syncs the log inside
// every COMMIT, and better-sqlite3 is synchronous: every request would wait for the disk with each
// commit (0.4 ms a sync on the bench machine's disk, several ms on many cloud disks).
//
// So the log is synced here instead, after the COMMIT and before the write's caller goes on (its
// answer waits for it): fdatasync of the `-wal` file on the thread pool. What FULL adds in WAL mode
// is exactly that sync of the log at commit; the checkpoints sync the database file themselves.
// Commits that come while a sync is under way share the next one (a group commit): one sync in
// flight, at most one waiting, whatever the number of writers. A commit is covered only by a sync
// that started after it, so no answer leaves before its own frames were asked to reach the disk.
import { close, fdatasync, open } from 'node:fs';
import { promisify } from 'node:util';

const openFile = promisify(open);
const syncFile = promisify(fdatasync);
const closeFile = promisify(close);

/** Makes the file's written data durable (fdatasync). */
export type SyncFile = () => Promise<void>;

/** The group commit: a commit's promise settles once a sync that started after it has finished. */
export class GroupSync {
  #running: Promise<void> | null = null;
  #queued: Promise<void> | null = null;
  /** Syncs finished (read by tests). */
  completed = 0;

  constructor(private readonly sync: SyncFile) {}

  /** After a commit: resolves when its log is on disk, rejects when the sync failed. */
  afterCommit(): Promise<void> {
    // A sync not started yet will start after this commit: it covers it.
    if (this.#queued !== null) return this.#queued;
    if (this.#running === null) return this.#start();
    // The running sync may have started before this commit: the next one is this commit's. It
    // starts when the running one ends, whether that one succeeded or failed.
    const next = this.#running.then(
      () => this.#startQueued(),
      () => this.#startQueued(),
    );
    this.#queued = next;
    return next;
  }

  /** Settles when no sync is running or waiting (whatever their outcome). */
  async idle(): Promise<void> {
    for (;;) {
      const pending = this.#queued ?? this.#running;
      if (pending === null) return;
      await pending.catch(() => undefined);
    }
  }

  #startQueued(): Promise<void> {
    this.#queued = null;
    return this.#start();
  }

  #start(): Promise<void> {
    const run = this.sync().then(() => {
      this.completed += 1;
    });
    this.#running = run;
    const clear = (): void => {
      if (this.#running === run) this.#running = null;
    };
    run.then(clear, clear);
    return run;
  }
}

/**
 * The log file of a SQLite database in WAL mode, synced through a descriptor opened at the first
 * commit (the file exists from then on, while the connection is open) and closed with the database.
 */
export class WalFile {
  #fd: Promise<number> | null = null;
  readonly group: GroupSync;

  constructor(private readonly walPath: string) {
    this.group = new GroupSync(() => this.#sync());
  }

  async #sync(): Promise<void> {
    this.#fd ??= openFile(this.walPath, 'r');
    let fd: number;
    try {
      fd = await this.#fd;
    } catch (error) {
      // Opened again at the next commit.
      this.#fd = null;
      throw error;
    }
    await syncFile(fd);
  }

  /** After the last commit: the descriptor is closed (SQLite may delete the file when it closes). */
  async close(): Promise<void> {
    await this.group.idle();
    const fd = this.#fd;
    this.#fd = null;
    if (fd === null) return;
    try {
      await closeFile(await fd);
    } catch {
      // Never opened: nothing to close.
    }
  }
}
