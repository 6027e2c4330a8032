import { accessSync, chmodSync, closeSync, constants, mkdirSync, openSync, statfsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import type { Db, Queryable, SqlValue, TransactionOptions } from './db.ts';
import { ForeignKeyViolation, inSavepoint, joinedTo, UniqueViolation } from './db.ts';
import { Database } from './sqlite-driver.ts';
import { CHECKPOINT_AFTER_BYTES, SqliteCheckpointer } from './sqlite-checkpointer.ts';
import { type StorageState, StorageRoom } from './storage-room.ts';
import { asUnavailable } from './transient.ts';
import { WalFile } from './sqlite-wal-sync.ts';
import { unavailable } from '../errors.ts';

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

const DATA_VERSION_INTERVAL_MS = 25;

/**
 * Free bytes under which a database that was refused for lack of space still counts as full:
 * a few pages of WAL for the next write, so readiness does not flap at the brink.
 */
const MIN_FREE_BYTES = 1024 * 1024;

function translateError(error: unknown): unknown {
  if (
    error instanceof Database.SqliteError &&
    (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY')
  ) {
    return new UniqueViolation(error.message.replace(/^UNIQUE constraint failed: /, ''));
  }
  // SQLite does not say which key: the caller knows which reference it wrote.
  if (error instanceof Database.SqliteError && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY')
    return new ForeignKeyViolation('foreign key');
  // SQLITE_BUSY past the busy timeout, SQLITE_READONLY: 503 with Retry-After (transient.ts).
  return asUnavailable(error);
}

/**
 * better-sqlite3 is synchronous and one connection serves the whole process, so a transaction must
 * not interleave with other requests' statements while it awaits: transactions take turns, and
 * statements outside a transaction wait while one is open (they would otherwise see its
 * uncommitted rows).
 */
/**
 * WAL mode, waiting for another process that is opening or migrating the same file at that moment
 * (two servers started at once): switching the journal mode needs the file to itself and answers
 * SQLITE_BUSY at once rather than through the busy timeout, so it is retried here, up to 5 s.
 */
function switchToWal(db: BetterSqlite3.Database): void {
  const deadline = Date.now() + 5_000;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (error) {
      const busy = (error as { code?: string }).code === 'SQLITE_BUSY';
      if (!busy || Date.now() > deadline) throw error;
      Atomics.wait(pause, 0, 0, 25);
    }
  }
}

/**
 * The database and its -wal/-shm hold sealed bank account numbers and key hashes: its owner's
 * only. SQLite creates a new database with 0644 (less the umask), and gives its -wal, -shm and
 * -journal the main file's mode; so the main file is created here first, 0600, and files made by
 * an older version lose their group and other bits (a file made read-only stays read-only).
 */
function ownerOnly(path: string): void {
  if (process.platform === 'win32') return;
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  for (const file of [path, `${path}-wal`, `${path}-shm`, `${path}-journal`]) {
    try {
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) !== 0) chmodSync(file, mode & 0o700);
    } catch (error) {
      // Absent companions are the usual case; a file owned by another user (EPERM) keeps its mode.
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw error;
    }
  }
}

export class SqliteDb implements Db {
  readonly dialect = 'sqlite' as const;
  private readonly db: BetterSqlite3.Database;
  private readonly statements = new Map<string, Statement>();
  /** The same texts prepared apart in raw mode (rows as arrays), for allValues. */
  private readonly valueStatements = new Map<string, Statement>();
  private txTail: Promise<void> = Promise.resolve();
  private openTx: Promise<void> | null = null;
  private dataVersion: number;
  private readonly direct: Queryable;
  private readonly room = new StorageRoom();
  /** Checkpoints on a thread of their own, so a large commit never copies the log on this one. */
  private readonly checkpoints: SqliteCheckpointer | null;
  /** The log synced after each commit, off the event loop, before the write returns (sqlite-wal-sync.ts). */
  private readonly wal: WalFile | null;

  /**
   * `checkpointThread`: the server's choice (store/connect.ts) — checkpoints on a thread of their
   * own instead of inside a COMMIT. A command's connection keeps SQLite's own: it serves nobody
   * while it commits, and it would only wait for the thread before it exits.
   */
  constructor(
    private readonly path: string,
    { checkpointThread = false }: { checkpointThread?: boolean } = {},
  ) {
    if (path !== ':memory:') {
      mkdirSync(dirname(path), { recursive: true });
      ownerOnly(path);
    }
    this.db = new Database(path, { timeout: 5000 });
    switchToWal(this.db);
    // No sync inside COMMIT (it would hold the event loop): WalFile syncs the log after it instead,
    // off the loop, before the write returns, which is what FULL adds in WAL mode.
    this.db.pragma('synchronous = NORMAL');
    this.wal = path === ':memory:' ? null : new WalFile(`${path}-wal`);
    this.db.pragma('foreign_keys = ON');
    if (path === ':memory:' || !checkpointThread) this.checkpoints = null;
    else {
      // Never a checkpoint inside this connection's COMMIT (sqlite-checkpointer.ts says why); and
      // when the log restarts after one, its file is cut back to the size that asks for the next.
      this.db.pragma('wal_autocheckpoint = 0');
      this.db.pragma(`journal_size_limit = ${CHECKPOINT_AFTER_BYTES}`);
      this.checkpoints = new SqliteCheckpointer(path, () => {
        // The thread failed: the checkpoint is done here, as SQLite would have done it. This runs
        // in a thread's event handler, where a throw (a full disk) would end the process: a
        // checkpoint not done now is done by the next commit's request.
        if (!this.db.open || this.db.inTransaction) return;
        try {
          this.db.pragma('wal_checkpoint(PASSIVE)');
        } catch {
          // Left for the next one.
        }
      });
    }
    this.dataVersion = this.readDataVersion();
    this.direct = {
      dialect: 'sqlite',
      all: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        this.exec(() => this.prepare(sql).all(...params) as T[]),
      allValues: async (sql: string, params: readonly SqlValue[] = []) => this.valuesNow(sql, params),
      get: async <T>(sql: string, params: readonly SqlValue[] = []) =>
        this.exec(() => this.prepare(sql).get(...params) as T | undefined),
      run: async (sql: string, params: readonly SqlValue[] = []) =>
        this.exec(() => this.prepare(sql).run(...params).changes),
    };
  }

  private dataVersionStatement: Statement | null = null;

  private readDataVersion(): number {
    // Prepared once: this runs on every authenticated request.
    this.dataVersionStatement ??= this.db.prepare('PRAGMA data_version');
    return (this.dataVersionStatement.get() as { data_version: number }).data_version;
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** exec of a raw statement's rows, without a closure: this is the hottest read's path. */
  private valuesNow(sql: string, params: readonly SqlValue[]): SqlValue[][] {
    try {
      let statement = this.valueStatements.get(sql);
      if (statement === undefined) {
        statement = this.db.prepare(sql).raw(true);
        this.valueStatements.set(sql, statement);
      }
      return statement.all(...params) as SqlValue[][];
    } catch (error) {
      this.room.noteError(error);
      throw translateError(error);
    }
  }

  private exec<T>(fn: () => T): T {
    try {
      return fn();
    } catch (error) {
      this.room.noteError(error);
      throw translateError(error);
    }
  }

  private committed(): void {
    this.room.noteCommit();
    this.checkpoints?.afterCommit();
  }

  /**
   * After a commit, before its caller goes on: its log on disk (a sync shared with the commits of
   * the moment). A failed sync leaves the commit made but not known to be durable: the write
   * answers 503, as when a connection is lost during COMMIT, and the same request sent again with
   * its Idempotency-Key finds what was made.
   */
  private async durable(): Promise<void> {
    if (this.wal === null) return;
    try {
      await this.wal.group.afterCommit();
    } catch (error) {
      const answer = unavailable('The database could not make the write durable; try again shortly.', 2);
      answer.cause = error;
      throw answer;
    }
  }

  /** Log syncs finished after commits (read by tests). */
  get durableSyncs(): number {
    return this.wal?.group.completed ?? 0;
  }

  /** The checkpoint thread, for tests that watch it work. */
  get checkpointer(): SqliteCheckpointer | null {
    return this.checkpoints;
  }

  private async idle(): Promise<void> {
    while (this.openTx !== null) await this.openTx;
  }

  /** A call must wait for the open transaction, unless it is inside it (joined): it must not wait for itself. */
  private mustWait(): boolean {
    return this.openTx !== null && joinedTo(this) === undefined;
  }

  async all<T>(sql: string, params: readonly SqlValue[] = []): Promise<T[]> {
    if (this.mustWait()) await this.idle();
    return this.direct.all<T>(sql, params);
  }

  async allValues(sql: string, params: readonly SqlValue[] = []): Promise<SqlValue[][]> {
    if (this.mustWait()) await this.idle();
    return this.valuesNow(sql, params);
  }

  async get<T>(sql: string, params: readonly SqlValue[] = []): Promise<T | undefined> {
    if (this.mustWait()) await this.idle();
    return this.direct.get<T>(sql, params);
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    if (this.mustWait()) await this.idle();
    const changes = await this.direct.run(sql, params);
    // Outside a transaction a statement commits by itself.
    if (joinedTo(this) === undefined) {
      this.committed();
      await this.durable();
    }
    return changes;
  }

  /** The options only matter on PostgreSQL (SQLite has no statement timeouts). */
  async transaction<T>(fn: (tx: Queryable) => Promise<T>, _options?: TransactionOptions): Promise<T> {
    const joined = joinedTo(this);
    if (joined !== undefined) return inSavepoint(joined, fn);
    const previous = this.txTail;
    let release: () => void = () => undefined;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.txTail = previous.then(() => mine);
    await previous;
    this.openTx = mine;
    let result: T;
    try {
      // IMMEDIATE takes the write lock up front, so two processes sharing the file queue here
      // (busy timeout) instead of failing half-way with SQLITE_BUSY.
      this.exec(() => this.db.exec('BEGIN IMMEDIATE'));
      try {
        result = await fn(this.direct);
        this.exec(() => this.db.exec('COMMIT'));
        this.committed();
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    } finally {
      this.openTx = null;
      release();
    }
    // The next transaction may begin meanwhile: its commit shares the next sync (a group commit).
    await this.durable();
    return result;
  }

  private dataVersionCheckedAt = 0;

  keysUnchangedSinceLastCheck(): boolean {
    // data_version changes only when another connection (another process: the CLI revoking a
    // key, a second server) committed; this process's own writes evict its cache directly.
    // Reading it costs a file-lock round trip, so under load it is read at most every 25 ms: a
    // key revoked by another process is refused within that time.
    const now = performance.now();
    if (now - this.dataVersionCheckedAt < DATA_VERSION_INTERVAL_MS) return true;
    this.dataVersionCheckedAt = now;
    const version = this.readDataVersion();
    if (version === this.dataVersion) return true;
    this.dataVersion = version;
    return false;
  }

  async writable(): Promise<boolean> {
    if (!this.db.open || this.db.readonly) return false;
    // Writes were refused for lack of space a moment ago, and none has committed since.
    if (this.room.recentlyFull()) return false;
    if (this.path === ':memory:') return true;
    try {
      // The file, and its folder (the WAL and shared-memory files are created there).
      accessSync(this.path, constants.W_OK);
      accessSync(dirname(this.path), constants.W_OK);
      // Once refused for lack of space, ready again when the disk has room (one statfs, no write).
      if (this.room.state().full) {
        const disk = statfsSync(dirname(this.path));
        if (disk.bavail * disk.bsize < MIN_FREE_BYTES) return false;
      }
      return true;
    } catch {
      return false;
    }
  }

  storage(): StorageState {
    return this.room.state();
  }

  async close(): Promise<void> {
    await this.idle();
    await this.checkpoints?.close();
    await this.wal?.close();
    this.db.close();
  }
}
